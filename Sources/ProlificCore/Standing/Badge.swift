/// A badge: a count of something a player did, with bronze, silver and gold thresholds.
///
/// Badges are data: the defaults below, or the `badges` list of prolific.yml, which replaces them.
public struct Badge: Hashable, Sendable {
    /// What a badge counts.
    public enum Measure: String, Hashable, Sendable, CaseIterable {
        /// Snippets submitted, in any round.
        case snippets
        /// Rounds won.
        case wins
        /// Projects started.
        case projects
        /// Ballots cast, in any round.
        case ballots
        /// Karma.
        case karma
    }

    public struct Tier: Hashable, Sendable {
        public var name: String
        public var threshold: Int

        public init(name: String, threshold: Int) {
            self.name = name
            self.threshold = threshold
        }
    }

    /// A short id for URLs and files, such as `big-hit-writer`.
    public var id: Slug
    public var name: String
    public var description: String
    public var measure: Measure
    /// Ascending thresholds.
    public var tiers: [Tier]

    public init(id: Slug, name: String, description: String, measure: Measure, tiers: [Tier]) {
        self.id = id
        self.name = name
        self.description = description
        self.measure = measure
        self.tiers = tiers.sorted { $0.threshold < $1.threshold }
    }

    public static let tierNames = ["bronze", "silver", "gold"]

    static func make(_ id: String, _ name: String, _ description: String, _ measure: Measure, _ thresholds: [Int]) -> Badge {
        Badge(
            id: Slug(id) ?? Slug("badge")!, name: name, description: description, measure: measure,
            tiers: zip(tierNames, thresholds).map { Tier(name: $0, threshold: $1) })
    }

    public static let defaults: [Badge] = [
        make("contributor", "Contributor", "Snippets submitted", .snippets, [1, 10, 50]),
        make("big-hit-writer", "Big Hit Writer", "Rounds won", .wins, [1, 5, 20]),
        make("creator", "Creator", "Projects started", .projects, [1, 3, 10]),
        make("voter", "Voter", "Ballots cast", .ballots, [5, 50, 250]),
    ]

    /// Where a player stands with this badge.
    public func progress(count: Int) -> Progress {
        let reached = tiers.last { count >= $0.threshold }
        let next = tiers.first { count < $0.threshold }
        let floor = reached?.threshold ?? 0
        let fraction: Double
        if let next {
            fraction = Double(count - floor) / Double(max(1, next.threshold - floor))
        } else {
            fraction = 1
        }
        return Progress(badge: self, count: count, tier: reached, next: next, toNext: min(1, max(0, fraction)))
    }

    public struct Progress: Hashable, Sendable {
        public var badge: Badge
        public var count: Int
        /// The highest tier reached, if any.
        public var tier: Tier?
        /// The tier to reach next, if any.
        public var next: Tier?
        /// How far from the reached tier (or zero) to the next, from 0 to 1.
        public var toNext: Double
    }
}
