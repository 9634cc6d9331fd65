/// The shape shared by handles and slugs: `[a-z0-9][a-z0-9-]{0,38}`.
///
/// Keeping one definition means a handle and a slug can never disagree about what is allowed,
/// and since neither admits `/`, `.` or upper case, a validated name is always safe as a single
/// path component on any file system, with no case-folding collisions.
enum NameRule {
    static let maxLength = 39

    static func isValid(_ text: some StringProtocol) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maxLength else { return false }
        guard isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static let explanation = "lower-case letters, digits and '-', starting with a letter or digit, at most 39 characters"
}
