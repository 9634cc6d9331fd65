/// Compares a sealed round's recorded ballots (round.md's `votes`, `Round.recordedBallots`) with
/// its ballot files.
///
/// A build counts the record and `check` reads the files: they must agree, or the site would show
/// what the files don't give. A ballot file the seal already reports (changed, removed, or added
/// after the close: `SealCheck`) is left to it, so each edit is reported once: what is compared
/// here is every file as it was sealed, which an edit of the record alone no longer matches.
public enum BallotRecordCheck {
    /// The problems of `round`, whose `ballots` were read from its files in `votesFolder`;
    /// `reported` holds the paths, relative to the round's folder (`votes/ann.yml`), that the
    /// seal's check reports.
    public static func problems(_ round: Round, votesFolder: String, reported: Set<String>) -> [Diagnostic] {
        guard let recorded = round.recordedBallots else { return [] }
        func isReported(_ voter: Handle) -> Bool { reported.contains("votes/\(voter).yml") }
        var found: [Diagnostic] = []
        let files = Dictionary(round.ballots.map { ($0.voter, $0) }, uniquingKeysWith: { first, _ in first })
        let inRecord = Dictionary(recorded.map { ($0.voter, $0) }, uniquingKeysWith: { first, _ in first })
        for ballot in round.ballots where !isReported(ballot.voter) {
            let file = "\(votesFolder)/\(ballot.voter).yml"
            guard let record = inRecord[ballot.voter] else {
                found.append(round.origin.error(at: "votes", "'votes' has no line for @\(ballot.voter), whose ballot \(file) is sealed"))
                continue
            }
            if record.cast != ballot.cast || record.choices != ballot.choices {
                found.append(
                    record.error(
                        at: "cast",
                        "the recorded vote of @\(ballot.voter) (\(describe(record))) differs from \(file) (\(describe(ballot)))"))
            }
        }
        for record in recorded where files[record.voter] == nil && !isReported(record.voter) {
            found.append(
                record.error(at: "cast", "a vote is recorded for @\(record.voter), who has no ballot file \(votesFolder)/\(record.voter).yml"))
        }
        return found
    }

    private static func describe(_ ballot: Ballot) -> String {
        "cast \(ballot.cast.iso8601), for \(ballot.choices.map(\.rawValue).joined(separator: " "))"
    }
}
