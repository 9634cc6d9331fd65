/// A user's handle, such as `ann`: the name of their profile file and how every file refers to them.
public struct Handle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Fails unless `rawValue` matches `[a-z0-9][a-z0-9-]{0,38}`.
    public init?(_ rawValue: some StringProtocol) {
        guard NameRule.isValid(rawValue) else { return nil }
        self.rawValue = String(rawValue)
    }

    /// The same, for a `String`, checked on its bytes in place. Called from another module,
    /// the generic initializer is not specialized and reaches the bytes through witness tables:
    /// a rebuild checks each handle of every kept project again as it decodes it (about
    /// 1,000,000 on the large benchmark), and that took 2.1 % of its `perf` samples after a
    /// ballot (100; 17 with this one).
    public init?(_ rawValue: String) {
        guard NameRule.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
    public static func < (a: Handle, b: Handle) -> Bool { a.rawValue < b.rawValue }

    /// What a `Dictionary` or `Set` of handles hashes with: `KeyHash` over the handle's
    /// bytes, which are ASCII, so equal handles have equal bytes. A handle inside another key
    /// (a snippet's id) is hashed by the synthesized `hash(into:)`, as before.
    public func _rawHashValue(seed: Int) -> Int {
        var bytes = rawValue
        return bytes.withUTF8 { KeyHash.hash($0, seed: seed) }
    }

    /// Why a text is not a handle, for messages.
    public static let rule = NameRule.explanation
}
