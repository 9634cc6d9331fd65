import ProlificCore

/// The text of each kind of content file, for tools that write content in bulk (the benchmark
/// generator) rather than one action at a time through `Game`.
public enum ContentFiles {
    public static func config(_ config: Config) throws(AtomicFile.Failure) -> String { try ConfigFile.render(config) }
    public static func user(_ user: User) throws(AtomicFile.Failure) -> String { try UserFile.render(user) }
    public static func project(_ project: Project) throws(AtomicFile.Failure) -> String { try ProjectFile.render(project) }
    public static func round(_ round: Round) throws(AtomicFile.Failure) -> String { try RoundFile.render(round) }
    public static func submission(_ submission: Submission) throws(AtomicFile.Failure) -> String {
        try SubmissionFile.render(submission)
    }
    public static func ballot(_ ballot: Ballot) throws(AtomicFile.Failure) -> String { try BallotFile.render(ballot) }
    public static func report(_ report: Report) throws(AtomicFile.Failure) -> String { try ReportFile.render(report) }
}

/// Reading one file's text exactly as `ContentReader` does, for tools that hold the text rather
/// than a content directory: the fuzz harnesses (`make fuzz`) feed these arbitrary bytes.
///
/// The identifier each parser takes is the one the file's path gives it (`users/<handle>.md`).
extension ContentFiles {
    public static func parseConfig(_ text: String, path: String) throws(Diagnostics) -> Config {
        try ConfigFile.parse(text, path: path)
    }
    public static func parseUser(_ text: String, path: String, handle: Handle) throws(Diagnostics) -> User {
        try UserFile.parse(text, path: path, handle: handle)
    }
    public static func parseProject(_ text: String, path: String, slug: Slug) throws(Diagnostics) -> Project {
        try ProjectFile.parse(text, path: path, slug: slug)
    }
    public static func parseRound(_ text: String, path: String, number: RoundNumber) throws(Diagnostics) -> Round {
        try RoundFile.parse(text, path: path, number: number)
    }
    public static func parseSubmission(_ text: String, path: String, id: SubmissionID) throws(Diagnostics) -> Submission {
        try SubmissionFile.parse(text, path: path, id: id)
    }
    public static func parseBallot(_ text: String, path: String, voter: Handle) throws(Diagnostics) -> Ballot {
        try BallotFile.parse(text, path: path, voter: voter)
    }
    public static func parseReport(_ text: String, path: String, id: ReportID) throws(Diagnostics) -> Report {
        try ReportFile.parse(text, path: path, id: id)
    }
}
