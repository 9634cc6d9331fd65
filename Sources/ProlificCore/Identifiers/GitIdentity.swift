/// The shape of the identities a profile names: git author emails and a forge login.
///
/// Loose on purpose: git takes any text as an email and forges differ in their login rules, so
/// this only keeps out what can't be an identity at all (a space, no `@`), which catches typos.
/// Both compare without case, as mail hosts and forges treat them.
public enum GitIdentity {
    public static let maximumEmailLength = 254
    public static let maximumLoginLength = 100

    public static let emailRule = "an email address: one '@' with text on both sides, no spaces, at most 254 characters"
    public static let loginRule = "a forge login: letters, digits, '-', '_' or '.', at most 100 characters"

    /// One `@` with text on both sides, no whitespace or control characters, at most 254 bytes.
    public static func isEmail(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && text.utf8.count <= maximumEmailLength
            && text.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7f }
    }

    /// ASCII letters, digits, `-`, `_` and `.`; 1 to 100 of them.
    public static func isLogin(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumLoginLength
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }

    /// Whether two emails, or two logins, name the same identity.
    public static func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.lowercased() == b.lowercased()
    }
}
