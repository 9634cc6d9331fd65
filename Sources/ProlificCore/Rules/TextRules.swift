/// Limits on what players write, so one file can't swamp a page or the build.
public enum TextRules {
    public static let nameLimit = 100
    public static let titleLimit = 200
    public static let tagLimit = 40
    /// Tags a project may carry. Each tag has a page listing its stories, and each story's card
    /// shows all its tags, so a project with thousands of tags made the build quadratic: 20,000
    /// tags (200 KB of project.md) ran for many minutes.
    public static let tagCountLimit = 20
    /// Why a maintainer hid a snippet: one line, read in `status`.
    public static let reasonLimit = 500
    /// A reader's report: a short Markdown text.
    public static let reportLimit = 16 << 10
    public static let bioLimit = 16 << 10
    public static let snippetLimit = 64 << 10
    public static let starterLimit = 256 << 10

    /// A one-line text: not blank, no line breaks or control characters, at most `limit` characters.
    public static func problem(withLine text: String, named name: String, limit: Int) -> String? {
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return "the \(name) must not be empty" }
        if text.count > limit { return "the \(name) is \(text.count) characters; at most \(limit)" }
        if containsASCII(text, where: { $0 < 0x20 || $0 == 0x7F }) {
            return "the \(name) must be one line without control characters"
        }
        return nil
    }

    /// Markdown text: not blank (unless it may be), at most `limit` bytes, no NUL.
    public static func problem(withBody text: String, named name: String, limit: Int, mayBeEmpty: Bool = false) -> String? {
        if !mayBeEmpty && text.allSatisfy(\.isWhitespace) { return "the \(name) is empty" }
        if text.utf8.count > limit { return "the \(name) is \(text.utf8.count) bytes; at most \(limit)" }
        if containsASCII(text, where: { $0 == 0 }) { return "the \(name) contains a NUL character" }
        return nil
    }

    /// Whether a byte of `text` passes `test`, which accepts only ASCII bytes: the same answer
    /// as testing its scalars (no byte of a longer UTF-8 sequence is ASCII), without decoding
    /// them. Every snippet body is checked when content loads.
    static func containsASCII(_ text: String, where test: (UInt8) -> Bool) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return found }
        return text.utf8.contains(where: test)
    }

    public static func problem(withTagCount count: Int) -> String? {
        count > tagCountLimit ? "a project may have at most \(tagCountLimit) tags, found \(count)" : nil
    }

    public static func problem(withTag tag: String) -> String? {
        problem(withLine: tag, named: "tag '\(tag)'", limit: tagLimit)
    }
}
