import ProlificCore

/// `new submission` and `new ballot`: correctly named, pre-filled files for a pull request.
///
/// A contributor who plays by pull request writes files in their clone instead of recording them
/// on the maintainer's machine. These actions write exactly the file `submit` or `vote` would, by
/// the same rules, so nobody has to get a file name or a time stamp right by hand.
extension Game {
    /// The snippet file of `author` in the open round of `slug`, holding `body` or, without one,
    /// `Placeholder.snippet`, which `check` refuses until the author replaces it.
    public func newSubmission(to slug: Slug, by author: Handle, ending: Bool, body: String?) throws(Diagnostics) -> Submission {
        try submit(to: slug, by: author, ending: ending, body: body ?? Placeholder.snippet)
    }

    /// What `new ballot` wrote.
    public struct BallotDraft: Sendable {
        public var ballot: Ballot
        public var round: RoundNumber
    }

    /// What `new ballot` without ids answers: the snippets `voter` may approve in a project's open round.
    public struct BallotChoices: Sendable {
        public var round: RoundNumber
        /// In the neutral order every list of a round's snippets uses.
        public var choices: [SubmissionID]
        /// The voter's ballot file in that round, if they have one: to edit rather than write anew.
        public var existing: String?
    }

    /// The snippets `voter` may approve in the open round of `slug`: a question, so it writes no
    /// ballot. Refuses when the round takes no ballots or has nothing `voter` may choose.
    public func ballotChoices(in slug: Slug, for voter: Handle) throws(Diagnostics) -> BallotChoices {
        try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(voter)
            let project = try settle(try reader.loadProjectStrictly(slug))
            do throws(RuleViolation) {
                let round = try Play.acceptingRound(of: project, now: now)
                let open = try Play.candidates(for: user, in: round, of: slug, now: now)
                let existing = round.ballots.contains(where: { $0.voter == voter }) ? layout.ballotFile(slug, round.number, voter) : nil
                return BallotChoices(round: round.number, choices: open, existing: existing)
            } catch { throw Self.refuse(error) }
        }
    }

    /// The ballot file of `voter` for `choices` in the open round of `slug`.
    ///
    /// Unlike `vote`, it never replaces a ballot: the voter edits the one they have. Without
    /// choices it refuses, naming the snippets the voter may choose from (`ballotChoices` lists them).
    public func newBallot(in slug: Slug, by voter: Handle, for choices: [String]) throws(Diagnostics) -> BallotDraft {
        try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(voter)
            let project = try settle(try reader.loadProjectStrictly(slug))
            let round: Round
            let ids: [SubmissionID]
            do throws(RuleViolation) {
                round = try Play.acceptingRound(of: project, now: now)
                if choices.isEmpty {
                    let open = try Play.candidates(for: user, in: round, of: slug, now: now)
                    throw RuleViolation(
                        "name the snippets @\(voter) approves; round \(round.number) of '\(slug)' has "
                            + open.map(\.rawValue).joined(separator: ", "))
                }
                ids = try Play.ballot(by: user, choosing: choices, in: round, now: now)
            } catch { throw Self.refuse(error) }
            let path = layout.ballotFile(slug, round.number, voter)
            let exists = "@\(voter) already has a ballot in round \(round.number) of '\(slug)'; edit this file, or replace it with 'prolific vote'"
            if round.ballots.contains(where: { $0.voter == voter }) { throw Diagnostics([Diagnostic(path: path, message: exists)]) }
            let ballot = Ballot(voter: voter, cast: now, choices: ids, origin: Origin(path: path))
            try create({ () throws(AtomicFile.Failure) in try BallotFile.render(ballot) }, at: path, exists: exists)
            return BallotDraft(ballot: ballot, round: round.number)
        }
    }
}
