/// The site-wide settings of `prolific.yml`.
public struct Config: Hashable, Sendable {
    /// The site's title, shown on every page.
    public var title: String
    /// The absolute URL the site is published at; used only where absolute URLs are required.
    public var baseURL: String
    /// Round length for new projects that don't name their own.
    public var roundLength: TimeSpan
    /// Maximum number of rounds for new projects that don't name their own.
    public var rounds: Int
    /// Git identities (emails) of the maintainers: files they commit for others are not evidence
    /// of who a voter is.
    public var maintainers: [String]
    /// The badges players earn: `Badge.defaults` unless prolific.yml lists its own.
    public var badges: [Badge]
    /// Players whose profiles `user remove` deleted: their handles stay known (see `FormerUser`).
    public var former: [FormerUser]
    public var origin: Origin

    public init(
        title: String, baseURL: String, roundLength: TimeSpan, rounds: Int, maintainers: [String] = [],
        badges: [Badge] = Badge.defaults, former: [FormerUser] = [], origin: Origin = Origin(path: "prolific.yml")
    ) {
        self.maintainers = maintainers
        self.former = former
        self.badges = badges
        self.title = title
        self.baseURL = baseURL
        self.roundLength = roundLength
        self.rounds = rounds
        self.origin = origin
    }

    /// The settings `init` writes.
    public static func defaults(title: String = "Prolific", baseURL: String = "https://example.org/") -> Config {
        Config(title: title, baseURL: baseURL, roundLength: TimeSpan(seconds: 7 * 86_400)!, rounds: 10)
    }

    /// The range a project's `rounds` may take.
    public static let roundLimitRange = 1...RoundNumber.maximum
}
