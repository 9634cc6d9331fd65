/// Hiding snippets: how maintainers answer a report.
///
/// A hidden snippet is not shown, can't be voted for and can't win. The entry is kept in its
/// round's round.md (`hidden`) with who hid it, when and why. The tally leaves out the snippets
/// that were hidden when the round closed (every hidden one while it is open), so a closed round
/// re-checks the same forever: hiding an alternate take of a closed round afterwards only takes it
/// off the site. A winner is part of the story and is never hidden.
public enum Moderation {
    /// The snippets the tally of `round` leaves out: those hidden at or before its closing, or all
    /// hidden ones while it is open.
    public static func withheld(in round: Round) -> Set<SubmissionID> {
        Set(round.hidden.filter { entry in round.closed.map { entry.at <= $0 } ?? true }.map(\.id))
    }

    /// `round` as the tally sees it: without its withheld snippets. Ballots keep their choices; a
    /// choice of a withheld snippet then counts for nothing, like any choice outside the round.
    public static func counted(_ round: Round) -> Round {
        guard !round.hidden.isEmpty else { return round }
        let withheld = withheld(in: round)
        var counted = round
        counted.submissions.removeAll { withheld.contains($0.id) }
        return counted
    }

    /// `round` as readers see it: without any hidden snippet.
    public static func shown(_ round: Round) -> Round {
        guard !round.hidden.isEmpty else { return round }
        var shown = round
        shown.submissions.removeAll { round.hiding($0.id) != nil }
        return shown
    }

    /// The round of `project` holding snippet `id`.
    public static func round(of id: SubmissionID, in project: Project) throws(RuleViolation) -> Round {
        guard let round = project.rounds.first(where: { $0.submission(id) != nil || $0.hiding(id) != nil }) else {
            throw RuleViolation("'\(id)' is not a snippet of project '\(project.slug)'")
        }
        return round
    }

    /// The round holding `id` with `id` hidden by `by` at `now` for `reason`.
    ///
    /// Any snippet of the open round may be hidden; in a closed round only an alternate take, and
    /// only after the close, so the recorded tally stays what a re-run gives.
    public static func hide(
        _ id: SubmissionID, in project: Project, by: String, reason: String, now: Timestamp
    ) throws(RuleViolation) -> Round {
        if let problem = TextRules.problem(withLine: by, named: "--by name", limit: TextRules.nameLimit) {
            throw RuleViolation(problem)
        }
        if let problem = TextRules.problem(withLine: reason, named: "reason", limit: TextRules.reasonLimit) {
            throw RuleViolation(problem)
        }
        var round = try round(of: id, in: project)
        if let earlier = round.hiding(id) {
            throw RuleViolation("'\(id)' is already hidden (by \(earlier.by) at \(earlier.at): \(earlier.reason))")
        }
        if let submitted = round.submission(id)?.submitted, now < submitted {
            throw RuleViolation("'\(id)' was submitted at \(submitted), after --now \(now)")
        }
        if let closed = round.closed {
            if round.winner == id {
                throw RuleViolation(
                    "'\(id)' won round \(round.number) of '\(project.slug)'; a winner is part of the story and can't be hidden")
            }
            guard now > closed else {
                throw RuleViolation("round \(round.number) of '\(project.slug)' closed at \(closed), not before --now \(now)")
            }
        }
        round.hidden.append(Round.Hidden(id: id, by: by, at: now, reason: reason))
        return round
    }

    /// The round holding `id` with its hiding undone.
    ///
    /// A snippet hidden before its round closed stays hidden: the tally left it out, and showing it
    /// again would show a result the recorded scores don't explain.
    public static func unhide(_ id: SubmissionID, in project: Project) throws(RuleViolation) -> Round {
        var round = try round(of: id, in: project)
        guard let entry = round.hiding(id) else { throw RuleViolation("'\(id)' is not hidden") }
        if let closed = round.closed, entry.at <= closed {
            throw RuleViolation(
                "'\(id)' was hidden before round \(round.number) of '\(project.slug)' closed, and the tally left it out; "
                    + "it stays hidden")
        }
        round.hidden.removeAll { $0.id == id }
        return round
    }

    /// The moderation queue: reports whose snippet is not hidden (yet), oldest first. Dismissing a
    /// report deletes its file; hiding the snippet settles every report of it.
    public static func queue(_ reports: [Report], projects: [Project]) -> [Report] {
        reports.filter { report in
            guard let project = projects.first(where: { $0.slug == report.project }) else { return true }
            return !project.rounds.contains { $0.hiding(report.snippet) != nil }
        }.sorted { ($0.id.time, $0.id) < ($1.id.time, $1.id) }
    }
}
