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
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
