/// A story in the making: `projects/<slug>/project.md` (its starter text in the body) and its rounds.
public struct Project: Hashable, Sendable {
    public var slug: Slug
    public var title: String
    public var owner: Handle
    public var created: Timestamp
    /// The most rounds this project runs before it is complete.
    public var roundLimit: Int
    public var roundLength: TimeSpan
    public var tags: [String]
    /// As recorded in project.md; `close` keeps it in step with the rounds.
    public var status: Status
    /// Who sees the project on the site.
    public var visibility: Visibility
    /// The starter text's Markdown.
    public var starter: String
    /// The rounds loaded with the project, in number order.
    public var rounds: [Round]
    public var origin: Origin

    public enum Status: String, Hashable, Sendable, CaseIterable {
        case open, complete
    }

    /// Whether the site lists a project. The game is played the same way whatever it is.
    public enum Visibility: String, Hashable, Sendable, CaseIterable {
        /// Shown everywhere: home page, feeds, calendar, search, sitemap.
        case listed
        /// Built and reachable by its address, but listed nowhere and marked `noindex`.
        case unlisted
        /// Not built at all.
        case draft
    }

    public init(
        slug: Slug, title: String, owner: Handle, created: Timestamp, roundLimit: Int, roundLength: TimeSpan,
        tags: [String] = [], status: Status = .open, visibility: Visibility = .listed, starter: String, rounds: [Round] = [], origin: Origin
    ) {
        self.slug = slug
        self.title = title
        self.owner = owner
        self.created = created
        self.roundLimit = roundLimit
        self.roundLength = roundLength
        self.tags = tags
        self.status = status
        self.visibility = visibility
        self.starter = starter
        self.rounds = rounds
        self.origin = origin
    }

    /// The round that is taking snippets and ballots, if any.
    public var openRound: Round? { rounds.last.flatMap { $0.isOpen ? $0 : nil } }

    public var closedRounds: [Round] { rounds.filter { !$0.isOpen } }

    /// How many rounds have closed, counted in place (`closedRounds` copies each of them).
    public var closedRoundCount: Int {
        var count = 0
        for r in rounds.indices where !rounds[r].isOpen { count += 1 }
        return count
    }

    /// When the last round to close closed, if any has; read in place, as `closedRoundCount` is.
    public var lastClosing: Timestamp? {
        for r in rounds.indices.reversed() {
            if let closed = rounds[r].closed { return closed }
        }
        return nil
    }

    public func round(_ number: RoundNumber) -> Round? {
        rounds.first { $0.number == number }
    }
}
