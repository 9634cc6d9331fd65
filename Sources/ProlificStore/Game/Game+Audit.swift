import ProlificCore

extension Game {
    /// A round's tally with every vote's weight and its reasons.
    public struct Audit: Sendable {
        public var project: Project
        public var round: Round
        /// The moment the tally is taken at.
        public var cutoff: Timestamp
        /// True for an open round: the tally as if it closed now.
        public var isPreview: Bool
        public var outcome: FairTally.Outcome
        /// False when the round was decided by the plain count, which has no weights to explain.
        public var isFair: Bool
    }

    /// Explains round `number` of `slug` (default: the latest), against exactly the history it had.
    public func audit(_ slug: Slug, round number: RoundNumber?) throws(Diagnostics) -> Audit {
        guard FileSystem.isDirectory(layout.projectFolder(slug)) else {
            throw Self.refuse("unknown project '\(slug)': there is no \(layout.projectFolder(slug))")
        }
        let (content, timeline) = try tallyTimeline()
        guard let project = content.project(slug) else { throw Self.refuse("unknown project '\(slug)'") }
        guard let round = number.map({ project.round($0) }) ?? project.rounds.last else {
            throw Self.refuse(
                number.map { "project '\(slug)' has no round \($0)" } ?? "project '\(slug)' has no rounds")
        }
        let isPreview = round.isOpen
        let outcome = timeline.tally(round, of: slug, closingAt: now)
        var closing = round
        if closing.closed == nil { closing.closed = now }
        return Audit(
            project: project, round: round, cutoff: TallyContext.cutoff(of: closing), isPreview: isPreview,
            outcome: outcome, isFair: round.tally?.method != Tally.method)
    }
}
