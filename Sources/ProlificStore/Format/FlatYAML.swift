import ProlificCore

/// A fast reader for the plain YAML that nearly every content file is written in: `key: value`
/// lines, lists of `- item` lines or of `[a, b]` on the key's line (how the CLI writes a project's
/// tags and a profile's follows and emails), mappings nested by indentation, values plain or in
/// single quotes, all in ASCII.
///
/// A build reads hundreds of thousands of such files (a ballot is four lines), and composing
/// each with libyaml and Yams' node tree was the largest single cost of a cold build. This
/// reader returns nil for anything outside that subset — comments, double quotes, flow
/// mappings, nested or multi-line flow lists, anchors, tags, multi-line scalars, tabs, non-ASCII
/// text, duplicate keys, or anything it does not recognise — and `YAMLFields` then asks Yams, so
/// every file still means what YAML says it means and every error still comes from Yams. Where it
/// does answer, it gives the same tree with the same positions as Yams (a test compares the two on
/// generated near-YAML).
enum FlatYAML {
    /// The document's root, or nil when the text is outside the subset (or empty).
    static func parse(_ yaml: String) -> YAMLValue? {
        var yaml = yaml
        return yaml.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.document()
        }
    }

    /// One non-blank line: where its text starts and ends (trailing spaces dropped).
    private struct Line {
        var number: Int
        var start: Int
        var indent: Int
        var end: Int
        var textStart: Int { start + indent }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var lines: [Line] = []
        var next = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func document() -> YAMLValue? {
            guard splitLines() else { return nil }
            if let first = lines.first, first.indent == 0, first.end - first.start == 3,
                bytes[first.start] == Byte.dash, bytes[first.start + 1] == Byte.dash, bytes[first.start + 2] == Byte.dash
            {
                next = 1
            }
            guard next < lines.count, lines[next].indent == 0, let root = mapping(indent: 0), next == lines.count else {
                return nil
            }
            return root
        }

        /// Collects the non-blank lines; false at a byte the subset leaves to Yams (tabs, carriage
        /// returns, other control characters, anything outside ASCII).
        mutating func splitLines() -> Bool {
            lines.reserveCapacity(8)
            var number = 1
            var start = 0
            var indent = 0
            var counting = true  // still in the leading spaces
            var end = 0  // after the last non-space byte
            for i in 0..<bytes.count {
                let byte = bytes[i]
                if byte == Byte.newline {
                    if !counting { lines.append(Line(number: number, start: start, indent: indent, end: end)) }
                    number += 1
                    start = i + 1
                    indent = 0
                    counting = true
                    continue
                }
                guard byte >= 0x20 && byte < 0x7F else { return false }
                if byte == Byte.space {
                    if counting { indent += 1 }
                } else {
                    counting = false
                    end = i + 1
                }
            }
            if !counting { lines.append(Line(number: number, start: start, indent: indent, end: end)) }
            return true
        }

        /// The mapping whose keys start at column `indent + 1`, from the current line on.
        mutating func mapping(indent: Int) -> YAMLValue? {
            let first = lines[next]
            let at = TextPosition(line: first.number, column: indent + 1)
            // Sized once: growing the arrays pair by pair was a seventh of this reader's time.
            var count = 0
            var scan = next
            while scan < lines.count, lines[scan].indent >= indent {
                if lines[scan].indent == indent, !isItem(lines[scan]) { count += 1 }
                scan += 1
            }
            var pairs: [YAMLValue.Pair] = []
            pairs.reserveCapacity(count)
            var keys = Keys(capacity: count)
            while next < lines.count {
                let line = lines[next]
                if line.indent < indent { break }
                guard line.indent == indent, let colon = keyEnd(line) else { return nil }
                guard keys.insert(line.textStart..<colon, of: bytes) else { return nil }  // Yams's duplicate-key error
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[line.textStart..<colon]), as: UTF8.self)
                let keyValue = YAMLValue.scalar(key, plain: true, at: position(line, line.textStart))
                var valueStart = colon + 1
                while valueStart < line.end && bytes[valueStart] == Byte.space { valueStart += 1 }
                next += 1
                let value: YAMLValue
                if valueStart < line.end, bytes[valueStart] == Byte.openBracket {
                    guard let list = flowSequence(line, from: valueStart) else { return nil }
                    value = list
                } else if valueStart < line.end {
                    guard let scalar = scalar(line, from: valueStart) else { return nil }
                    value = scalar
                } else if next < lines.count, lines[next].indent >= indent, isItem(lines[next]) {
                    guard let sequence = sequence(indent: lines[next].indent) else { return nil }
                    value = sequence
                } else if next < lines.count, lines[next].indent > indent {
                    guard let nested = mapping(indent: lines[next].indent) else { return nil }
                    value = nested
                } else {
                    // libyaml puts an empty value just after the colon.
                    value = .scalar("", plain: true, at: position(line, colon + 1))
                }
                pairs.append(YAMLValue.Pair(key: keyValue, value: value))
            }
            return .mapping(pairs, at: at)
        }

        /// The list of `- item` lines at `indent`, from the current line on.
        mutating func sequence(indent: Int) -> YAMLValue? {
            let first = lines[next]
            let at = position(first, first.textStart)
            var items: [YAMLValue] = []
            while next < lines.count, lines[next].indent == indent, isItem(lines[next]) {
                let line = lines[next]
                var itemStart = line.textStart + 1
                while itemStart < line.end && bytes[itemStart] == Byte.space { itemStart += 1 }
                guard itemStart < line.end, let item = scalar(line, from: itemStart) else { return nil }
                items.append(item)
                next += 1
            }
            return .sequence(items, at: at)
        }

        /// Whether `line` is a list item: `-` then a space (or nothing).
        func isItem(_ line: Line) -> Bool {
            let start = line.textStart
            return bytes[start] == Byte.dash && (start + 1 == line.end || bytes[start + 1] == Byte.space)
        }

        /// The index of the colon that ends the line's key (`word:` then a space or the line's end),
        /// or nil when the line does not start with such a key.
        func keyEnd(_ line: Line) -> Int? {
            var i = line.textStart
            guard i < line.end, Byte.isAlphanumeric(bytes[i]) || bytes[i] == Byte.underscore else { return nil }
            while i < line.end, Byte.isKey(bytes[i]) { i += 1 }
            guard i < line.end, bytes[i] == Byte.colon, i + 1 == line.end || bytes[i + 1] == Byte.space else { return nil }
            // libyaml refuses a key longer than 1,024 characters: Yams says so.
            guard i - line.textStart < 1_000 else { return nil }
            return i
        }

        /// The scalar from `start` to the line's end: in single quotes, or plain with a safe first
        /// character, no `: ` inside and no `:` at the end.
        func scalar(_ line: Line, from start: Int) -> YAMLValue? {
            let at = position(line, start)
            if bytes[start] == Byte.quote {
                var text: [UInt8] = []
                var i = start + 1
                while i < line.end {
                    if bytes[i] == Byte.quote {
                        guard i + 1 < line.end, bytes[i + 1] == Byte.quote else { break }
                        i += 1
                    }
                    text.append(bytes[i])
                    i += 1
                }
                // The closing quote must end the line.
                guard i == line.end - 1 else { return nil }
                return .scalar(String(decoding: text, as: UTF8.self), plain: false, at: at)
            }
            guard Byte.isPlainStart(bytes[start]) else { return nil }
            for i in start..<line.end {
                let byte = bytes[i]
                guard Byte.isPlain(byte) else { return nil }
                if byte == Byte.colon && (i + 1 == line.end || bytes[i + 1] == Byte.space) { return nil }
            }
            return .scalar(
                String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<line.end]), as: UTF8.self), plain: true,
                at: at)
        }

        /// The list `[a, 'b c']` from `start` (its `[`) to the line's end: items plain or in single
        /// quotes, separated by commas; nil for anything else (a trailing comma, a nested list or
        /// mapping, a comment, text after the `]`).
        func flowSequence(_ line: Line, from start: Int) -> YAMLValue? {
            var items: [YAMLValue] = []
            var i = start + 1
            func skipSpaces() { while i < line.end && bytes[i] == Byte.space { i += 1 } }
            skipSpaces()
            if i < line.end, bytes[i] == Byte.closeBracket {
                return i + 1 == line.end ? .sequence([], at: position(line, start)) : nil
            }
            while i < line.end {
                let itemStart = i
                if bytes[i] == Byte.quote {
                    var text: [UInt8] = []
                    i += 1
                    var closed = false
                    while i < line.end {
                        if bytes[i] == Byte.quote {
                            guard i + 1 < line.end, bytes[i + 1] == Byte.quote else {
                                closed = true
                                break
                            }
                            i += 1
                        }
                        text.append(bytes[i])
                        i += 1
                    }
                    guard closed else { return nil }
                    i += 1
                    items.append(.scalar(String(decoding: text, as: UTF8.self), plain: false, at: position(line, itemStart)))
                } else {
                    // Not a `,` or `]` either: a trailing comma, or two in a row, is left to Yams.
                    guard Byte.isPlainStart(bytes[i]) else { return nil }
                    var end = i  // after the item's last non-space byte
                    while i < line.end, bytes[i] != Byte.comma, bytes[i] != Byte.closeBracket {
                        guard Byte.isFlowPlain(bytes[i]) else { return nil }
                        if bytes[i] != Byte.space { end = i + 1 }
                        i += 1
                    }
                    items.append(
                        .scalar(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[itemStart..<end]), as: UTF8.self), plain: true,
                            at: position(line, itemStart)))
                }
                skipSpaces()
                guard i < line.end else { return nil }  // no closing bracket
                if bytes[i] == Byte.closeBracket {
                    return i + 1 == line.end ? .sequence(items, at: position(line, start)) : nil
                }
                guard bytes[i] == Byte.comma else { return nil }
                i += 1
                skipSpaces()
            }
            return nil
        }

        func position(_ line: Line, _ index: Int) -> TextPosition {
            TextPosition(line: line.number, column: index - line.start + 1)
        }
    }

    /// A mapping's keys so far, to find a duplicate. Compared byte by byte while there are few:
    /// a content file's mapping has a handful, and hashing each into a `Set` was 0.7 % of a large
    /// build. Past `linearLimit` keys they go into a set, so a file of many keys stays linear.
    private struct Keys {
        static let linearLimit = 32
        /// Where each key is in the text, while there are at most `linearLimit`.
        var ranges: [Range<Int>] = []
        /// Every key, once there are more.
        var hashed: Set<[UInt8]> = []

        init(capacity: Int) {
            ranges.reserveCapacity(min(capacity, Self.linearLimit))
        }

        /// Adds the key at `range`; false if it was there already.
        mutating func insert(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let key = bytes[range]
            guard ranges.count == Self.linearLimit else {
                for other in ranges where other.count == range.count && bytes[other].elementsEqual(key) { return false }
                ranges.append(range)
                return true
            }
            if hashed.isEmpty { hashed = Set(ranges.map { Array(bytes[$0]) }) }
            return hashed.insert(Array(key)).inserted
        }
    }

    private enum Byte {
        static let newline = UInt8(ascii: "\n")
        static let space = UInt8(ascii: " ")
        static let dash = UInt8(ascii: "-")
        static let colon = UInt8(ascii: ":")
        static let quote = UInt8(ascii: "'")
        static let underscore = UInt8(ascii: "_")
        static let comma = UInt8(ascii: ",")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")

        static func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        /// Key characters after the first: letters, digits, `-`, `_`, `.` and `/` (a seal's
        /// `sealed.files` are keyed by paths such as `votes/ada.yml`: with a slash left to Yams,
        /// a sealed round.md was parsed by Yams, 9 % of a large build's CPU).
        static func isKey(_ byte: UInt8) -> Bool {
            isAlphanumeric(byte) || byte == dash || byte == underscore || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
        }

        /// What a plain scalar may start with: none of YAML's indicators (`-?:,[]{}#&*!|>'"%@` and
        /// the backquote).
        static func isPlainStart(_ byte: UInt8) -> Bool {
            isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "(")
                || byte == UInt8(ascii: "+") || byte == underscore || byte == UInt8(ascii: "~")
        }

        /// What else a plain scalar may hold here (`@` only after its first byte: an email); `#`
        /// (a comment after a space) and the flow and node indicators are left to Yams.
        static func isPlain(_ byte: UInt8) -> Bool {
            if isAlphanumeric(byte) { return true }
            switch byte {
            case space, dash, underscore, colon, quote, UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "+"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "!"),
                UInt8(ascii: "="), UInt8(ascii: "~"), UInt8(ascii: "@"):
                return true
            default:
                return false
            }
        }

        /// What a plain item of a flow list may hold after its first byte: what a plain scalar may
        /// hold, less what ends or nests inside a flow list (`,`, `[`, `]`, `{`, `}`), less the
        /// `:`, `?`, `'` and `!` whose meaning there differs between YAML's versions.
        static func isFlowPlain(_ byte: UInt8) -> Bool {
            if isAlphanumeric(byte) { return true }
            switch byte {
            case space, dash, underscore, UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "="), UInt8(ascii: "~"), UInt8(ascii: "@"):
                return true
            default:
                return false
            }
        }
    }
}
