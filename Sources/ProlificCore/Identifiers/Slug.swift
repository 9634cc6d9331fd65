/// A project's slug, such as `the-lighthouse`: its folder name and the last part of its URL.
public struct Slug: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Fails unless `rawValue` matches `[a-z0-9][a-z0-9-]{0,38}`.
    public init?(_ rawValue: some StringProtocol) {
        guard NameRule.isValid(rawValue) else { return nil }
        self.rawValue = String(rawValue)
    }

    public var description: String { rawValue }
    public static func < (a: Slug, b: Slug) -> Bool { a.rawValue < b.rawValue }

    public static let rule = NameRule.explanation
}
