extension Play {
    /// The snippets of `round` that `voter` may approve at `now`, in the neutral order the site shows.
    ///
    /// Each is a snippet a ballot of `voter` could name alone (`ballot`'s rules), so a voter asking
    /// what to vote for is told exactly the choices `vote` accepts. None is a violation that says why.
    public static func candidates(
        for voter: User, in round: Round, of slug: Slug, now: Timestamp
    ) throws(RuleViolation) -> [SubmissionID] {
        guard voter.joined <= now else {
            throw RuleViolation("@\(voter.handle) joined at \(voter.joined), after --now \(now)")
        }
        let open = NeutralOrder.sorted(round.submissions, in: slug, round: round.number).filter { submission in
            (try? ballot(by: voter, choosing: [submission.id.rawValue], in: round, now: now)) != nil
        }
        guard !open.isEmpty else {
            throw RuleViolation(
                round.submissions.isEmpty
                    ? "round \(round.number) of '\(slug)' has no snippets to vote for yet"
                    : "round \(round.number) of '\(slug)' has no snippets @\(voter.handle) may vote for; one's own can't be chosen")
        }
        return open.map(\.id)
    }
}
