import ProlificCore

extension YAMLFields {
    /// Where `yaml` defines its first anchor (`&name`), if it also has an alias (`*name`); nil
    /// if it lacks either.
    ///
    /// Content files never need anchors and aliases, and together they make a "billion laughs":
    /// a few lines that stand for a tree of billions of nodes. Yams shares the nodes, so a bomb
    /// used as a value costs nothing, but one used as a mapping key is hashed whole while Yams
    /// looks for duplicate keys: the command hangs. So such a file is refused before Yams
    /// composes it. A file `FlatYAML` reads is not scanned: its subset has no anchors or aliases.
    ///
    /// The scan errs on the side of finding them. An `&` or `*` followed by a name counts
    /// wherever YAML could start a node: at the start of a line, after `[`, `{`, a `:` that ends
    /// a key, a `-` or `?` that stands alone, a tag (`!tag &a`), or a `,` once a flow collection
    /// has begun. Quotes and comments are not looked into, since a quote can't be told from an
    /// apostrophe without parsing; but it takes both an anchor and an alias to be refused, so a
    /// text such as `'a: &b'` alone passes. Text like `R&D`, `Tom & Jerry` or `a *b*` is neither.
    static func aliasedAnchor(in yaml: String) -> TextPosition? {
        guard yaml.utf8.contains(UInt8(ascii: "&")) && yaml.utf8.contains(UInt8(ascii: "*")) else { return nil }
        let text = Array(yaml.unicodeScalars)
        var line = 1
        var lineStart = 0
        var flow = false
        var anchor: TextPosition? = nil
        var alias = false
        for (i, c) in text.enumerated() {
            if isBreak(c) {
                // libyaml's line breaks: \r\n counts once.
                if c != "\r" || i + 1 == text.count || text[i + 1] != "\n" {
                    line += 1
                    lineStart = i + 1
                }
                continue
            }
            if c == "[" || c == "{" { flow = true }
            guard c == "&" || c == "*", i + 1 < text.count, !isBlank(text[i + 1]), !isBreak(text[i + 1]) else { continue }
            guard mayStartNode(text, at: i, lineStart: lineStart, afterFlow: flow) else { continue }
            if c == "*" {
                alias = true
            } else if anchor == nil {
                anchor = TextPosition(line: line, column: i - lineStart + 1)
            }
            if alias, let anchor { return anchor }
        }
        return nil
    }

    /// Whether a YAML node could start at `text[i]`, from what comes before it on its line.
    /// `afterFlow`: a `[` or `{` came earlier, so a `,` or `?` may be a flow collection's.
    private static func mayStartNode(_ text: [Unicode.Scalar], at i: Int, lineStart: Int, afterFlow: Bool) -> Bool {
        var j = i - 1
        while j >= lineStart && isBlank(text[j]) { j -= 1 }
        guard j >= lineStart else { return true }
        let spaced = j < i - 1
        // Whether the indicator at `j` stands alone: nothing, a blank or another indicator before it.
        func alone(_ indicators: String) -> Bool {
            j == lineStart || isBlank(text[j - 1]) || indicators.unicodeScalars.contains(text[j - 1])
        }
        switch text[j] {
        case "[", "{": return true
        case ",": return afterFlow
        // `key: &a`, and in a flow collection `"key":&a` or `[:&a]`; not `http://x:&a`.
        case ":": return spaced || alone("\"']}[{,?")
        case "-": return spaced && alone("[{,:-?")
        case "?": return (spaced || afterFlow) && alone("[{,:-?")
        default:
            // `!tag &a`
            var start = j
            while start > lineStart && !isBlank(text[start - 1]) { start -= 1 }
            return spaced && text[start] == "!"
        }
    }

    /// Spaces and tabs, and a byte-order mark, which libyaml skips at the start of a line.
    private static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\u{FEFF}" }

    /// The line breaks of libyaml: LF, CR, NEL, LS and PS.
    private static func isBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
    }
}
