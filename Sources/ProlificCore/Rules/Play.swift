/// The rules for contributors: submitting a snippet and casting a ballot.
public enum Play {
    /// The open round of `project` if it accepts entries at `now`.
    ///
    /// Snippets and ballots go only to the open round, after it opened and before its deadline.
    public static func acceptingRound(of project: Project, now: Timestamp) throws(RuleViolation) -> Round {
        if project.status == .complete || Closing.isComplete(project) {
            throw RuleViolation("project '\(project.slug)' is complete; it takes no more snippets or ballots")
        }
        guard let round = project.openRound else {
            throw RuleViolation("project '\(project.slug)' has no open round")
        }
        guard now >= round.opened else {
            throw RuleViolation("round \(round.number) of '\(project.slug)' opens at \(round.opened), after --now \(now)")
        }
        guard now < round.closes else {
            throw RuleViolation(
                "round \(round.number) of '\(project.slug)' stopped taking entries at its deadline \(round.closes); "
                    + "a maintainer closes it with 'prolific close --due'")
        }
        return round
    }

    /// Checks that `author` may add a snippet to `round` at `now`; returns the new snippet's id.
    ///
    /// Only known users submit, once per round, and not before they joined.
    public static func submissionID(by author: User, to round: Round, now: Timestamp) throws(RuleViolation)
        -> SubmissionID
    {
        guard author.joined <= now else {
            throw RuleViolation("@\(author.handle) joined at \(author.joined), after --now \(now)")
        }
        if let earlier = round.submissions.first(where: { $0.author == author.handle }) {
            throw RuleViolation(
                "@\(author.handle) already submitted '\(earlier.id)' to round \(round.number); one snippet per round")
        }
        let id = SubmissionID(author: author.handle, time: now)
        if round.submission(id) != nil {
            throw RuleViolation("a submission '\(id)' already exists")
        }
        return id
    }

    /// Checks a ballot of `voter` for `choices` in `round` at `now`, and returns it in canonical form.
    ///
    /// A ballot names one or more snippets of its own round, none twice and none the voter's own.
    public static func ballot(
        by voter: User, choosing choices: [String], in round: Round, now: Timestamp
    ) throws(RuleViolation) -> [SubmissionID] {
        guard voter.joined <= now else {
            throw RuleViolation("@\(voter.handle) joined at \(voter.joined), after --now \(now)")
        }
        guard !choices.isEmpty else { throw RuleViolation("a ballot names at least one submission") }
        var ids: [SubmissionID] = []
        for text in choices {
            guard let id = SubmissionID(text) else {
                throw RuleViolation("'\(text)' is not a submission id (expected \(SubmissionID.rule))")
            }
            guard round.submission(id) != nil else {
                throw RuleViolation("'\(id)' is not a submission of round \(round.number)")
            }
            if let hidden = round.hiding(id) {
                throw RuleViolation("'\(id)' was hidden by a maintainer at \(hidden.at); it can't be voted for")
            }
            guard id.author != voter.handle else {
                throw RuleViolation("@\(voter.handle) cannot vote for their own snippet '\(id)'")
            }
            guard !ids.contains(id) else { throw RuleViolation("'\(id)' is named twice") }
            ids.append(id)
        }
        return ids
    }
}
