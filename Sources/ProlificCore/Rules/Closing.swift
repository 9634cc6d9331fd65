/// Closing rounds and opening the next: the part of the game loop a maintainer drives.
public enum Closing {
    /// What closing the open round of a project does.
    public enum Plan: Hashable, Sendable {
        /// Record the tally in the round; afterwards `Closing.nextStep` opens a round or completes.
        case close(Round)
        /// A due round with no submissions gets another round length instead (recorded in the round).
        case extend(Round)
    }

    /// How a round is to be closed: by `close PROJECT` right now, or by `close --due` if its deadline passed.
    public enum Trigger: Sendable { case now, due }

    /// Plans closing `project`'s open round at `now`.
    ///
    /// `close PROJECT` closes the open round now; a round with no submissions is an error.
    /// `close --due` closes a round whose deadline has passed; a due round with no submissions is
    /// extended by its round length (repeatedly, until its deadline is after `now`). Returns nil for
    /// `--due` when the round is not due yet. A round closes after its last ballot: closing at or
    /// before a ballot's `cast` (a vote in the same second) is refused, as the tally would leave
    /// that ballot out.
    /// `count` is the tally: the fair tally against the round's history in the game, a plain count in tests.
    public static func plan(
        _ project: Project, trigger: Trigger, now: Timestamp, count: (Round) -> Tally.Outcome = Tally.count
    ) throws(RuleViolation) -> Plan? {
        guard let round = project.openRound else {
            throw RuleViolation(
                project.status == .complete || isComplete(project)
                    ? "project '\(project.slug)' is complete; it has no open round"
                    : "project '\(project.slug)' has no open round")
        }
        guard now >= round.opened else {
            throw RuleViolation(
                "round \(round.number) of '\(project.slug)' opened at \(round.opened), after --now \(now)")
        }
        if trigger == .due && now < round.closes { return nil }
        if let late = round.hidden.first(where: { $0.at > now }) {
            // The tally leaves out what was hidden by the close; a later hide would not re-check.
            throw RuleViolation("'\(late.id)' was hidden at \(late.at), after --now \(now)")
        }
        if Moderation.counted(round).submissions.isEmpty {
            let hidden = round.submissions.isEmpty ? "" : " (its \(round.submissions.count == 1 ? "snippet is" : "snippets are") hidden)"
            guard trigger == .due else {
                throw RuleViolation(
                    "round \(round.number) of '\(project.slug)' has no submissions to choose from\(hidden); "
                        + "it stays open (close --due extends it once its deadline passes)")
            }
            var extended = round
            extended.extensions.append(Round.Extension(at: now, from: round.closes))
            let length = project.roundLength.seconds
            let behind = round.closes.seconds(until: now)
            let steps = behind / length + 1
            extended.closes = Timestamp(secondsSinceEpoch: round.closes.secondsSinceEpoch + steps * length)
            return .extend(extended)
        }
        let uncounted = round.ballots.filter { $0.cast >= now && $0.cast < round.closes }
        if let late = uncounted.min(by: { ($0.cast, $0.voter) < ($1.cast, $1.voter) }) {
            // The tally counts ballots cast before the close: one recorded in the closing second (a
            // vote racing the close) would be left out without a word. Closing waits for it instead.
            throw RuleViolation(
                "@\(late.voter)'s ballot in round \(round.number) of '\(project.slug)' was cast at \(late.cast), not before --now \(now); "
                    + "a round closes after its last ballot (close it a second later)")
        }
        var closed = round
        closed.closed = now
        let outcome = count(closed)
        closed.winner = outcome.winner
        closed.tally = outcome.record
        return .close(closed)
    }

    /// What must happen after a round closed, so the project is never left between rounds.
    public enum NextStep: Hashable, Sendable {
        /// Open this round (the project continues).
        case open(Round)
        /// Mark project.md complete (an ending won, or the last round closed).
        case complete
    }

    /// The step that settles `project` after its last round closed, or nil when it is settled.
    ///
    /// `close` records the tally in the round first (the deciding write), then applies this step.
    /// If a close was interrupted between the two, the next command that touches the project
    /// applies it: the result is the same because the new round opens at the recorded close time.
    public static func nextStep(for project: Project) -> NextStep? {
        if isComplete(project) {
            return project.status == .complete ? nil : .complete
        }
        guard project.status == .open, project.openRound == nil else { return nil }
        let last = project.rounds.last
        let following: RoundNumber? = if let last { last.number.next } else { .first }
        guard let number = following else { return .complete }
        let opened = last?.closed ?? project.created
        return .open(
            Round(
                number: number, opened: opened, closes: opened + project.roundLength,
                origin: Origin(path: "")))
    }

    /// A project is complete when an ending snippet has won, or its last round has closed.
    public static func isComplete(_ project: Project) -> Bool {
        // Asked for every project on every page that lists them: no array of rounds is made.
        var closed = 0
        for index in project.rounds.indices where !project.rounds[index].isOpen {
            if project.rounds[index].winnerIsEnding { return true }
            closed += 1
        }
        return closed >= project.roundLimit
    }
}
