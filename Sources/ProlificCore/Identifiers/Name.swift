/// The shape shared by handles and slugs: `[a-z0-9][a-z0-9-]{0,38}`.
///
/// Keeping one definition means a handle and a slug can never disagree about what is allowed,
/// and since neither admits `/`, `.` or upper case, a validated name is always safe as a single
/// path component on any file system, with no case-folding collisions.
enum NameRule {
    static let maxLength = 39

    static func isValid(_ text: some StringProtocol) -> Bool {
        // Every ballot, snippet id and file name of the content is checked on loading: read the
        // bytes in place where the text has them together, as native strings and substrings do.
        if let valid = text.utf8.withContiguousStorageIfAvailable(isValid(bytes:)) { return valid }
        return isValid(bytes: text.utf8)
    }

    /// Not generic, for `Handle.init(_: String)`: called from another module, the generic form
    /// is not specialized.
    static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isValid(bytes: $0) }
    }

    private static func isValid(bytes: some Collection<UInt8>) -> Bool {
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
