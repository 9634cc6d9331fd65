/// A user's handle, such as `ann`: the name of their profile file and how every file refers to them.
public struct Handle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Fails unless `rawValue` matches `[a-z0-9][a-z0-9-]{0,38}`.
    public init?(_ rawValue: some StringProtocol) {
        guard NameRule.isValid(rawValue) else { return nil }
        self.rawValue = String(rawValue)
    }

    public var description: String { rawValue }
    public static func < (a: Handle, b: Handle) -> Bool { a.rawValue < b.rawValue }

    /// Why a text is not a handle, for messages.
    public static let rule = NameRule.explanation
}
