import ProlificCore

extension Game {
    /// Records a snippet by `author` in the open round of `slug`; returns its id.
    public func submit(to slug: Slug, by author: Handle, ending: Bool, body: String) throws(Diagnostics) -> Submission {
        if let problem = TextRules.problem(withBody: body, named: "snippet", limit: TextRules.snippetLimit) {
            throw Self.refuse(problem)
        }
        return try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(author)
            let project = try settle(try reader.loadProjectStrictly(slug))
            let round: Round
            let id: SubmissionID
            do throws(RuleViolation) {
                round = try Play.acceptingRound(of: project, now: now)
                id = try Play.submissionID(by: user, to: round, now: now)
            } catch { throw Self.refuse(error) }
            let path = layout.submissionFile(slug, round.number, id)
            let submission = Submission(
                id: id, author: author, submitted: now, ending: ending, body: body, origin: Origin(path: path))
            try create(
                { () throws(AtomicFile.Failure) in try SubmissionFile.render(submission) }, at: path,
                exists: "a submission '\(id)' already exists")
            return submission
        }
    }

    /// The result of `vote`.
    public struct VoteReceipt: Sendable {
        public var ballot: Ballot
        public var round: RoundNumber
        /// True when the voter's earlier ballot in this round was replaced.
        public var replaced: Bool
    }

    /// Records `voter`'s ballot for `choices` in the open round of `slug`, replacing their earlier one.
    public func vote(in slug: Slug, by voter: Handle, for choices: [String]) throws(Diagnostics) -> VoteReceipt {
        try locked { () throws(Diagnostics) in
            let user = try reader.loadUser(voter)
            let project = try settle(try reader.loadProjectStrictly(slug))
            let round: Round
            let ids: [SubmissionID]
            do throws(RuleViolation) {
                round = try Play.acceptingRound(of: project, now: now)
                ids = try Play.ballot(by: user, choosing: choices, in: round, now: now)
            } catch { throw Self.refuse(error) }
            let path = layout.ballotFile(slug, round.number, voter)
            let ballot = Ballot(voter: voter, cast: now, choices: ids, origin: Origin(path: path))
            let replaced = round.ballots.contains { $0.voter == voter }
            try write({ () throws(AtomicFile.Failure) in try BallotFile.render(ballot) }, to: path)
            return VoteReceipt(ballot: ballot, round: round.number, replaced: replaced)
        }
    }
}
