import ProlificCore

/// `rounds/NNNN/votes/<voter>.yml`: `voter`, `cast`, `for` (the approved submission ids).
enum BallotFile {
    static func parse(_ text: String, path: String, voter: Handle) throws(Diagnostics) -> Ballot {
        var fields = YAMLFields(yaml: FrontMatter.normalize(text), path: path)
        let named = fields.handle("voter")
        let cast = fields.timestamp("cast")
        let choices = fields.list("for", required: true, expected: "a submission id: \(SubmissionID.rule)") {
            SubmissionID($0)
        }
        fields.finish()
        if let named, named != voter {
            fields.report("voter '\(named)' does not match the file name '\(voter).yml'", at: "voter")
        }
        guard fields.isValid, let cast, let choices else { throw Diagnostics(fields.diagnostics) }
        return Ballot(voter: voter, cast: cast, choices: choices, origin: fields.origin)
    }

    static func render(_ ballot: Ballot) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("voter", ballot.voter.rawValue)
        yaml.plain("cast", ballot.cast)
        yaml.texts("for", ballot.choices.map(\.rawValue))
        return try yaml.yaml()
    }
}
