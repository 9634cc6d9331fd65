/// A template that doesn't parse: what is wrong, and where, as a byte offset into the template
/// (`position(in:)` turns it into the line and column a message shows).
struct TemplateSyntaxError: Error, Equatable {
    enum Kind: Equatable, Sendable {
        /// `{{/b}}` closes `{{#a}}`, or closes nothing.
        case closingNameMismatch
        /// A tag without its closing delimiter, or with characters a name can't have.
        case unfinishedTag
        /// `{{#a}}` (or `^`, `$`, `<`) with no `{{/a}}`.
        case unclosedSection
        /// `{{=<% %>=}}` written wrongly.
        case invalidDelimiters
        /// Something other than a block or text directly inside `{{<parent}}…{{/parent}}`.
        case illegalTagInsideParent
        /// swift-mustache's `{{uppercased(name)}}`: not part of the Mustache spec, not supported.
        case transform
        /// swift-mustache's `{{% PRAGMA}}`: not supported.
        case pragma
        /// `{{>*name}}`: a partial named by a value, not supported.
        case dynamicPartial
        /// `{{}}`, `{{#}}`, `{{>}}`.
        case emptyName
        /// Sections nested deeper than any real template needs: refused before the parser's own
        /// recursion could exhaust the stack.
        case tooDeep
    }

    let kind: Kind
    let offset: Int

    /// The 1-based line and column (in characters) of the error in `bytes`.
    func position(in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return (line, column)
    }
}
