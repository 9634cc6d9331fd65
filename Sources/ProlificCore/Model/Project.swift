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
    /// The starter text's Markdown.
    public var starter: String
    /// The rounds loaded with the project, in number order.
    public var rounds: [Round]
    public var origin: Origin

    public enum Status: String, Hashable, Sendable, CaseIterable {
        case open, complete
    }

    public init(
        slug: Slug, title: String, owner: Handle, created: Timestamp, roundLimit: Int, roundLength: TimeSpan,
        tags: [String] = [], status: Status = .open, starter: String, rounds: [Round] = [], origin: Origin
    ) {
        self.slug = slug
        self.title = title
        self.owner = owner
        self.created = created
        self.roundLimit = roundLimit
        self.roundLength = roundLength
        self.tags = tags
        self.status = status
        self.starter = starter
        self.rounds = rounds
        self.origin = origin
    }

    /// The round that is taking snippets and ballots, if any.
    public var openRound: Round? { rounds.last.flatMap { $0.isOpen ? $0 : nil } }

    public var closedRounds: [Round] { rounds.filter { !$0.isOpen } }

    public func round(_ number: RoundNumber) -> Round? {
        rounds.first { $0.number == number }
    }
}
