/// cmark's HTML made fit for an EPUB: well-formed XHTML that loads nothing from outside the book.
///
/// cmark in its safe mode writes a small, regular HTML: every attribute value is double-quoted;
/// `&`, `<`, `>` and `"` are always written `&amp;`, `&lt;`, `&gt;`, `&quot;` (entities in the source
/// come out as plain characters, `'` in a link as `&#x27;`); raw HTML becomes
/// `<!-- raw HTML omitted -->`. So a tag runs from `<` to the next `>` and everything else is text
/// that is already escaped for XML. What is left to do:
/// - drop the characters XML 1.0 forbids, which cmark passes through (control characters);
/// - self-close void elements, whichever way this cmark version writes them;
/// - replace each image by its alt text: the book carries no images of its own, and an EPUB may
///   not load remote ones;
/// - unwrap links that don't go to the web (relative, `#fragment`, or emptied by the safe mode):
///   they point at site pages that aren't in the book, which reading systems can't open.
enum EpubXHTML {
    static func body(_ html: String) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: html.unicodeScalars.filter(isXMLCharacter))
        var out = ""
        var unwrapped: [Bool] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                out += "&lt;"
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += rewrite(String(rest[open...close]), unwrapped: &unwrapped)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// One tag, as it goes in the book. `unwrapped` holds, for each `<a>` still open, whether it was left out.
    static func rewrite(_ tag: String, unwrapped: inout [Bool]) -> String {
        if tag.hasPrefix("<!--") { return tag }
        let closing = tag.hasPrefix("</")
        let name = tag.dropFirst(closing ? 2 : 1).prefix { $0.isLetter || $0.isNumber }.lowercased()
        switch (name, closing) {
        case ("img", _):
            return attribute("alt", of: tag) ?? ""
        case ("br", _), ("hr", _):
            return closing ? "" : "<\(name) />"
        case ("a", false):
            let leavesOut = !isWebLink(attribute("href", of: tag) ?? "")
            unwrapped.append(leavesOut)
            return leavesOut ? "" : tag
        case ("a", true):
            return unwrapped.popLast() == true ? "" : tag
        default:
            return tag
        }
    }

    /// The value of `name="…"` in a tag as cmark writes it, still escaped.
    static func attribute(_ name: String, of tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...]
        return String(value.prefix { $0 != "\"" })
    }

    static func isWebLink(_ href: String) -> Bool {
        let href = href.lowercased()
        return ["http://", "https://", "mailto:"].contains { href.hasPrefix($0) && href.count > $0.count }
    }

    /// XML 1.0's `Char`: tab, line breaks, and everything from U+0020 but U+FFFE and U+FFFF.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
