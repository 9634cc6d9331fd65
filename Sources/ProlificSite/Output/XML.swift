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
        append(escaped: text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` escaped (as `escape(_:)` does) to `output`: runs that need nothing are
    /// copied whole, found sixteen bytes at a time (`HTMLEscaping.cleanChunks`): every feed
    /// entry's title, link and author, the feeds' and sitemap's text, snippets that can't stand
    /// in a CDATA section.
    /// A Swift string is valid UTF-8, so the bytes after an `EF` that doesn't start U+FFFE or
    /// U+FFFF are continuation bytes, copied as they are.
    static func append(escaped text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            var index = 0
            // Where the bytes looked at one by one end: the chunk after the clean ones.
            var end = 0
            func flush(skipping count: Int) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                index += count
                run = index
            }
            while index < bytes.count {
                if index >= end {
                    index = HTMLEscaping.cleanChunks(bytes, from: index, orControls: true)
                    end = index + 16
                    guard index < bytes.count else { break }
                }
                let replacement: StaticString
                switch bytes[index] {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x27: replacement = "&apos;"
                case 0x09, 0x0A, 0x0D:
                    index += 1
                    continue
                case 0xEF:
                    if index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF {
                        flush(skipping: 3)
                    } else {
                        index += 1
                    }
                    continue
                case let byte where byte < 0x20:
                    flush(skipping: 1)
                    continue
                default:
                    index += 1
                    continue
                }
                flush(skipping: 1)
                output.append(
                    contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    /// `text` as character data for an element's content: inside a CDATA section when it holds
    /// nothing XML forbids (the usual case for rendered HTML: no copying, byte by byte, of
    /// every snippet into every feed), else escaped.
    static func content(_ text: String) -> String {
        var out: [UInt8] = []
        append(content: text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as character data (see `content(_:)`) to `output`.
    static func append(content text: String, to output: inout [UInt8]) {
        var text = text
        let fits = text.withUTF8 { bytes in
            guard fitsCDATA(bytes) else { return false }
            output.append(contentsOf: "<![CDATA[".utf8)
            output.append(contentsOf: bytes)
            output.append(contentsOf: "]]>".utf8)
            return true
        }
        if !fits { append(escaped: text, to: &output) }
    }

    /// Whether `bytes` may stand in a CDATA section: no `]]>`, and no character XML forbids.
    /// Sixteen bytes at a time: each feed entry's whole snippet is scanned, and rendered HTML
    /// rarely holds a `]`, an `EF` or a control character other than a line break.
    private static func fitsCDATA(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = bytes.baseAddress {
            let space = SIMD16<UInt8>(repeating: 0x20), bracket = SIMD16<UInt8>(repeating: 0x5D)
            let ef = SIMD16<UInt8>(repeating: 0xEF), tab = SIMD16<UInt8>(repeating: 0x09)
            let newline = SIMD16<UInt8>(repeating: 0x0A), ret = SIMD16<UInt8>(repeating: 0x0D)
            while index + 16 <= bytes.count {
                let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let control = (chunk .< space) .& (chunk .!= tab) .& (chunk .!= newline) .& (chunk .!= ret)
                if any(control .| (chunk .== bracket) .| (chunk .== ef)) { break }
                index += 16
            }
        }
        // From the first chunk with anything to look at, byte by byte.
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0xEF { return false }
            if byte == 0x3E && index >= 2 && bytes[index - 1] == 0x5D && bytes[index - 2] == 0x5D { return false }  // ]]>
            index += 1
        }
        return true
    }
}
