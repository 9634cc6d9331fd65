import Mustache

/// How `{{value}}` is escaped in every template: the five HTML special characters, byte by byte.
///
/// swift-mustache's own HTML escaping looks at whole Swift `Character`s, so a `"` followed by a
/// combining mark (`"\u{301}`) or joined to its neighbour by U+200D is one grapheme that isn't in
/// its table, and reaches the page raw: a player's name could end an attribute and add an event
/// handler. Escaping UTF-8 bytes has no such gap, and is faster.
struct HTMLEscaping: MustacheContentType {
    /// The name templates are switched to, with a pragma the theme puts in front of each one.
    static let name = "PROLIFIC_HTML"
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    static func register() {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
    }

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case 0x26: out += [0x26, 0x61, 0x6D, 0x70, 0x3B]  // &amp;
            case 0x3C: out += [0x26, 0x6C, 0x74, 0x3B]  // &lt;
            case 0x3E: out += [0x26, 0x67, 0x74, 0x3B]  // &gt;
            case 0x22: out += [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B]  // &quot;
            case 0x27: out += [0x26, 0x23, 0x33, 0x39, 0x3B]  // &#39;
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
