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
///
/// It works on UTF-8 bytes, as tags and XML's forbidden characters are ASCII (or U+FFFE and
/// U+FFFF), and hands to `rewrite` only the tags it may change: a site of complete stories has
/// a book per project, each chapter of which goes through here (on Characters, this was two
/// thirds of making a book).
enum EpubXHTML {
    static func body(_ html: String) -> String {
        var html = html
        let text = html.withUTF8 { xmlCharacters($0) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 64)
        var unwrapped: [Bool] = []
        var index = 0
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            out += text[index..<open]
            guard let close = text[open...].firstIndex(of: UInt8(ascii: ">")) else {
                out += "&lt;".utf8
                index = open + 1
                continue
            }
            let tag = text[open...close]
            if mayChange(tag) {
                out += rewrite(String(decoding: tag, as: UTF8.self), unwrapped: &unwrapped).utf8
            } else {
                out += tag
            }
            index = close + 1
        }
        out += text[index...]
        return String(decoding: out, as: UTF8.self)
    }

    /// `html` without the characters XML 1.0 forbids (see `isXMLCharacter`): in UTF-8, the C0
    /// controls but tab and line breaks, each one byte, and U+FFFE and U+FFFF (`EF BF BE`, `EF BF BF`).
    static func xmlCharacters(_ html: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        func isForbidden(at index: Int) -> Int? {
            let byte = html[index]
            if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0D ? nil : 1 }
            if byte == 0xEF, index + 2 < html.count, html[index + 1] == 0xBF, html[index + 2] & 0xFE == 0xBE { return 3 }
            return nil
        }
        var kept: [UInt8] = []
        kept.reserveCapacity(html.count)
        var index = 0, start = 0
        while index < html.count {
            if let length = isForbidden(at: index) {
                kept += html[start..<index]
                index += length
                start = index
            } else {
                index += 1
            }
        }
        kept += html[start..<html.count]
        return kept
    }

    /// Whether `rewrite` may give something other than `tag`: tags named `a`, `img`, `br` or
    /// `hr`, and, to be safe, any whose name has a byte beyond ASCII (cmark writes none).
    static func mayChange(_ tag: ArraySlice<UInt8>) -> Bool {
        var index = tag.startIndex + 1
        if index < tag.endIndex, tag[index] == UInt8(ascii: "/") { index += 1 }
        // The name's first four bytes, lowercased, packed into one number.
        var name: UInt32 = 0
        var length = 0
        while index < tag.endIndex, length < 4 {
            let byte = tag[index]
            if byte >= 0x80 { return true }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard (lower >= 0x30 && lower <= 0x39) || (lower >= 0x61 && lower <= 0x7A) else { break }
            name = name << 8 | UInt32(lower)
            length += 1
            index += 1
        }
        if index < tag.endIndex, tag[index] >= 0x80 { return true }
        switch (length, name) {
        case (1, 0x61), (3, 0x69_6D67), (2, 0x6272), (2, 0x6872): return true  // a, img, br, hr
        default: return false
        }
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
