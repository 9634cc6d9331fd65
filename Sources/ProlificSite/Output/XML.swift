/// Escaping for text placed in XML and HTML written without a template: feeds, the sitemap,
/// SVG, and the EPUB's documents.
enum XML {
    /// Escapes the five XML special characters and drops characters XML 1.0 forbids (control
    /// characters other than tab and line breaks, U+FFFE and U+FFFF), which would make a feed
    /// unreadable. Works on UTF-8 bytes: feeds escape whole rendered snippets.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        let needsWork = utf8.contains { byte in
            byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x26 || byte == 0x3C
                || byte == 0x3E || byte == 0x22 || byte == 0x27 || byte == 0xEF
        }
        guard needsWork else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + utf8.count / 8)
        var bytes = utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = pending.isEmpty ? bytes.next() : Optional(pending.removeFirst()) {
            switch byte {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&apos;".utf8)
            case 0x09, 0x0A, 0x0D: out.append(byte)
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                guard let second = bytes.next() else { out.append(byte); continue }
                guard second == 0xBF, let third = bytes.next() else {
                    out.append(byte)
                    pending.append(second)
                    continue
                }
                if third == 0xBE || third == 0xBF { continue }
                out += [byte, second, third]
            default:
                if byte < 0x20 { continue }
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as character data for an element's content: inside a CDATA section when it holds
    /// nothing XML forbids (the usual case for rendered HTML: no copying, byte by byte, of
    /// every snippet into every feed), else escaped.
    static func content(_ text: String) -> String {
        let fits = text.utf8.withContiguousStorageIfAvailable(fitsCDATA) ?? fitsCDATA(Array(text.utf8))
        return fits ? "<![CDATA[" + text + "]]>" : escape(text)
    }

    /// Whether `bytes` may stand in a CDATA section: no `]]>`, and no character XML forbids.
    private static func fitsCDATA(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0xEF { return false }
            if byte == 0x3E && previous == (0x5D, 0x5D) { return false }  // ]]>
            previous = (previous.1, byte)
        }
        return true
    }
}
