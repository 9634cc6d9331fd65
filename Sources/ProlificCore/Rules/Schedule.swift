/// Deadlines across projects: what is open, and what is due.
public enum Schedule {
    /// A project whose open round's deadline is at or before `now`.
    public static func isDue(_ project: Project, now: Timestamp) -> Bool {
        guard let round = project.openRound else { return false }
        return round.closes <= now
    }

    /// Projects with a due round, in slug order.
    public static func dueProjects(_ projects: [Project], now: Timestamp) -> [Project] {
        projects.filter { isDue($0, now: now) }.sorted { $0.slug < $1.slug }
    }

    /// How much of the round has passed at `now`, from 0 to 1.
    public static func progress(of round: Round, now: Timestamp) -> Double {
        let total = Double(round.opened.seconds(until: round.closes))
        guard total > 0 else { return 1 }
        return min(1, max(0, Double(round.opened.seconds(until: now)) / total))
    }
}
