/// Escaping for text placed in XML and HTML written without a template: feeds, the sitemap,
/// SVG, and the EPUB's documents.
enum XML {
    /// Escapes the five XML special characters and drops characters XML 1.0 forbids (control
    /// characters other than tab and line breaks), which would make a feed unreadable.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
