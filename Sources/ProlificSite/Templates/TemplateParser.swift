/// Compiles Mustache text into a `TemplateNode` tree, once per template when the theme loads.
///
/// It follows the Mustache spec (interpolation, sections, inverted sections, comments, partials with
/// standalone indentation, set delimiters, parents and blocks) and, step for step, the parser of
/// swift-mustache that rendered the site before, so that existing themes give the same bytes: the
/// same lines count as standalone, the same whitespace is kept. Its extensions are refused with an
/// error (transforms, `{{% pragmas}}`, dynamic partials); lambdas can't be expressed in a page's values.
///
/// It works on UTF-8 bytes: every byte the grammar cares about is ASCII, and text between tags is
/// copied as it is.
struct TemplateParser {
    /// Sections nested deeper than this are refused (real templates nest a handful).
    static let depthLimit = 100

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Compiles `bytes`.
    ///
    /// `legacyFirstLine` reproduces the old theme loader, which put a `{{% CONTENT_TYPE }}` pragma
    /// in front of every template: a blank first line was taken as that tag's standalone line and
    /// dropped, and any other first line followed a tag, so no tag on it was standalone
    /// (`pagination.mustache` keeps the newline after its first-line `{{#pagination}}`).
    static func parse(_ bytes: [UInt8], legacyFirstLine: Bool = false) throws(TemplateSyntaxError) -> [TemplateNode] {
        var parser = TemplateParser(bytes)
        var state = State()
        if legacyFirstLine { state.newLine = parser.hasLineFinished() }
        return try parser.parse(state).nodes
    }

    /// What the parser knows at a point: the section it is in and how tags are written. Copied into
    /// each nested section, as swift-mustache does, so a delimiter change ends with its section.
    private struct State {
        /// The name of the section being parsed, and where its opening tag names it.
        var sectionName: String?
        var sectionOffset = 0
        /// Nothing but spaces and tabs precede the current position on its line.
        var newLine = true
        /// Inside `{{<parent}}…{{/parent}}`; directly inside it (where `{{$name}}` overrides a block).
        var isParentBody = false
        var isParentBodyTopLevel = false
        /// The indentation of an override's first line, taken off each of its lines.
        var overrideIndent: Int?
        var startDelimiter: [UInt8] = [0x7B, 0x7B]
        var endDelimiter: [UInt8] = [0x7D, 0x7D]
        var depth = 0

        func entering(section name: String, at offset: Int, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.sectionOffset = offset
            state.isParentBodyTopLevel = false
            if !newLine { state.newLine = false }
            state.depth += 1
            return state
        }

        func enteringParent(_ name: String, at offset: Int) -> State {
            var state = self
            state.sectionName = name
            state.sectionOffset = offset
            state.newLine = true
            state.isParentBody = true
            state.isParentBodyTopLevel = true
            state.depth += 1
            return state
        }
    }

    /// The nodes of one section (or the whole template), and, for a parent's body, its overrides.
    private struct Parsed {
        var nodes: [TemplateNode] = []
        var overrides: [String: [TemplateNode]] = [:]
        /// Where the first tag that made a node is: a parent's body may hold only overrides.
        var firstTagNode: Int?
    }

    private mutating func parse(_ entryState: State) throws(TemplateSyntaxError) -> Parsed {
        guard entryState.depth <= Self.depthLimit else {
            throw TemplateSyntaxError(kind: .tooDeep, offset: entryState.sectionOffset)
        }
        var state = entryState
        var parsed = Parsed()
        var whiteSpaceBefore: [UInt8] = []
        func append(_ node: TemplateNode, tagAt offset: Int) {
            parsed.nodes.append(node)
            if parsed.firstTagNode == nil { parsed.firstTagNode = offset }
        }
        while position < bytes.count {
            if state.newLine {
                let start = position
                while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
                let whiteSpace = bytes[start..<position]
                if state.isParentBody, !state.isParentBodyTopLevel {
                    // An override's lines lose the indentation its first line has.
                    if let indent = state.overrideIndent {
                        whiteSpaceBefore = Array(whiteSpace.dropFirst(indent))
                    } else {
                        state.overrideIndent = whiteSpace.count
                    }
                } else {
                    whiteSpaceBefore = Array(whiteSpace)
                }
            }
            let textStart = position
            let stop = readText(state)
            let text = bytes[textStart..<stop.textEnd]
            if stop.newlineLength > 0 {
                parsed.nodes.append(.text(whiteSpaceBefore + text + bytes[position..<position + stop.newlineLength]))
                position += stop.newlineLength
                state.newLine = true
                continue
            }
            if !text.isEmpty {
                parsed.nodes.append(.text(whiteSpaceBefore + text))
                whiteSpaceBefore = []
                state.newLine = false
            }
            guard stop.isTag else { break }
            let tag = stop.textEnd
            var setNewLine = false
            switch position < bytes.count ? bytes[position] : 0 {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = bytes[position] == UInt8(ascii: "^")
                position += 1
                let (name, offset) = try readName(state)
                if isStandalone(state) {
                    setNewLine = true
                } else if !whiteSpaceBefore.isEmpty {
                    parsed.nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = []
                }
                let body = try parse(state.entering(section: name, at: offset, newLine: setNewLine)).nodes
                let path = TemplatePath(name)
                append(inverted ? .invertedSection(path, body) : .section(path, body), tagAt: tag)

            case UInt8(ascii: "/"):
                position += 1
                let offset = position
                let (name, _) = try readName(state)
                guard name == state.sectionName else {
                    throw TemplateSyntaxError(kind: .closingNameMismatch, offset: offset)
                }
                if !isStandalone(state), !whiteSpaceBefore.isEmpty {
                    parsed.nodes.append(.text(whiteSpaceBefore))
                }
                return parsed

            case UInt8(ascii: "!"):
                position += 1
                guard let end = find(state.endDelimiter, from: position) else {
                    throw TemplateSyntaxError(kind: .unfinishedTag, offset: position)
                }
                position = end + state.endDelimiter.count
                setNewLine = isStandalone(state)

            case UInt8(ascii: "{"), UInt8(ascii: "&"):
                let triple = bytes[position] == UInt8(ascii: "{")
                if !whiteSpaceBefore.isEmpty {
                    parsed.nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = []
                }
                position += 1
                let (name, _) = try readName(state, closing: triple ? [0x7D] + state.endDelimiter : state.endDelimiter)
                append(.variable(TemplatePath(name), escaped: false), tagAt: tag)

            case UInt8(ascii: ">"):
                position += 1
                skipWhitespace()
                let name = try readPartialName(state)
                if !whiteSpaceBefore.isEmpty { parsed.nodes.append(.text(whiteSpaceBefore)) }
                if isStandalone(state) {
                    setNewLine = true
                    append(.partial(name: name, indentation: whiteSpaceBefore, overrides: nil), tagAt: tag)
                } else {
                    append(.partial(name: name, indentation: nil, overrides: nil), tagAt: tag)
                }
                whiteSpaceBefore = []

            case UInt8(ascii: "<"):
                position += 1
                skipWhitespace()
                let offset = position
                let name = try readPartialName(state)
                if !whiteSpaceBefore.isEmpty { parsed.nodes.append(.text(whiteSpaceBefore)) }
                if isStandalone(state) { setNewLine = true }
                let body = try parse(state.enteringParent(name, at: offset))
                if let illegal = body.firstTagNode {
                    throw TemplateSyntaxError(kind: .illegalTagInsideParent, offset: illegal)
                }
                append(.partial(name: name, indentation: whiteSpaceBefore, overrides: body.overrides), tagAt: tag)
                whiteSpaceBefore = []

            case UInt8(ascii: "$"):
                position += 1
                let (name, offset) = try readName(state)
                if state.isParentBodyTopLevel {
                    setNewLine = isStandalone(state)
                    parsed.overrides[name] = try parse(state.entering(section: name, at: offset, newLine: setNewLine)).nodes
                } else {
                    if !whiteSpaceBefore.isEmpty { parsed.nodes.append(.text(whiteSpaceBefore)) }
                    setNewLine = isStandalone(state)
                    let body = try parse(state.entering(section: name, at: offset, newLine: setNewLine)).nodes
                    append(.block(name: name, defaultNodes: body, indentation: whiteSpaceBefore), tagAt: tag)
                    whiteSpaceBefore = []
                }

            case UInt8(ascii: "="):
                position += 1
                try setDelimiters(&state)
                setNewLine = isStandalone(state)

            case UInt8(ascii: "%"):
                throw TemplateSyntaxError(kind: .pragma, offset: position)

            default:
                if !whiteSpaceBefore.isEmpty {
                    parsed.nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = []
                }
                let (name, _) = try readName(state)
                append(.variable(TemplatePath(name), escaped: true), tagAt: tag)
            }
            state.newLine = setNewLine
        }
        if state.sectionName != nil {
            throw TemplateSyntaxError(kind: .unclosedSection, offset: state.sectionOffset)
        }
        return parsed
    }

    /// Where text stops: at a line break (left unread: `newlineLength` bytes), or just after the
    /// opening delimiter of a tag, or at the end.
    private struct TextStop {
        var textEnd: Int
        var newlineLength = 0
        var isTag = false
    }

    /// Reads text up to a line break or a tag. A line break is `\n` or `\r\n`.
    private mutating func readText(_ state: State) -> TextStop {
        let first = state.startDelimiter[0]
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A { return TextStop(textEnd: position, newlineLength: 1) }
            if byte == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
                return TextStop(textEnd: position, newlineLength: 2)
            }
            if byte == first, matches(state.startDelimiter, at: position) {
                let end = position
                position += state.startDelimiter.count
                return TextStop(textEnd: end, isTag: true)
            }
            position += 1
        }
        return TextStop(textEnd: position)
    }

    /// A tag's name, then its closing delimiter: `{{ a.b }}` → `a.b`, and where the name starts.
    private mutating func readName(_ state: State, closing: [UInt8]? = nil) throws(TemplateSyntaxError) -> (String, Int) {
        skipWhitespace()
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        let end = position
        skipWhitespace()
        let closing = closing ?? state.endDelimiter
        guard matches(closing, at: position) else { throw TemplateSyntaxError(kind: .unfinishedTag, offset: position) }
        position += closing.count
        let name = bytes[start..<end]
        if name.contains(UInt8(ascii: "(")) || name.contains(UInt8(ascii: ")")) {
            throw TemplateSyntaxError(kind: .transform, offset: start)
        }
        guard !name.isEmpty else { throw TemplateSyntaxError(kind: .emptyName, offset: start) }
        return (String(decoding: name, as: UTF8.self), start)
    }

    /// A partial's name (which may hold `/`), then the closing delimiter.
    private mutating func readPartialName(_ state: State) throws(TemplateSyntaxError) -> String {
        if position < bytes.count, bytes[position] == UInt8(ascii: "*") {
            throw TemplateSyntaxError(kind: .dynamicPartial, offset: position)
        }
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) || bytes[position] == UInt8(ascii: "/") {
            position += 1
        }
        let end = position
        skipWhitespace()
        guard matches(state.endDelimiter, at: position) else {
            throw TemplateSyntaxError(kind: .unfinishedTag, offset: position)
        }
        position += state.endDelimiter.count
        guard end > start else { throw TemplateSyntaxError(kind: .emptyName, offset: start) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// `{{=<% %>=}}`: two delimiters separated by whitespace, then `=` and the current closing one.
    private mutating func setDelimiters(_ state: inout State) throws(TemplateSyntaxError) {
        let invalid = TemplateSyntaxError(kind: .invalidDelimiters, offset: position)
        skipWhitespace()
        let startBegin = position
        while position < bytes.count, whitespaceLength(at: position) == 0 { position += 1 }
        guard position < bytes.count else { throw invalid }
        let start = Array(bytes[startBegin..<position])
        skipWhitespace()
        let endBegin = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "="), whitespaceLength(at: position) == 0 {
            position += 1
        }
        guard position < bytes.count else { throw invalid }
        let end = Array(bytes[endBegin..<position])
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw invalid }
        position += 1
        guard matches(state.endDelimiter, at: position) else { throw invalid }
        position += state.endDelimiter.count
        guard !start.isEmpty, !end.isEmpty else { throw invalid }
        state.startDelimiter = start
        state.endDelimiter = end
        state.isParentBodyTopLevel = false
    }

    /// A tag is standalone when its line held only whitespace before it (`state.newLine`) and
    /// holds only whitespace after it; then the rest of the line, with its line break, is skipped.
    private mutating func isStandalone(_ state: State) -> Bool {
        state.newLine && hasLineFinished()
    }

    /// Whether only spaces and tabs remain on the line (or nothing remains); if so, moves past them
    /// and the line break. Line breaks here are what Swift's `Character.isNewline` accepts, as in
    /// swift-mustache.
    private mutating func hasLineFinished() -> Bool {
        if position >= bytes.count { return true }
        var index = position
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        let length = newlineLength(at: index)
        guard length > 0 else { return false }
        position = index + length
        return true
    }

    private func newlineLength(at index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        switch bytes[index] {
        case 0x0A, 0x0B, 0x0C: return 1
        case 0x0D: return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        case 0xC2: return index + 1 < bytes.count && bytes[index + 1] == 0x85 ? 2 : 0
        case 0xE2:
            return index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
                ? 3 : 0
        default: return 0
        }
    }

    /// The length of the whitespace character at `index` (what `Character.isWhitespace` accepts), or 0.
    private func whitespaceLength(at index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        let byte = bytes[index]
        if byte == 0x20 || (0x09...0x0D).contains(byte) { return 1 }
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch byte {
        case 0xC2: return at(1) == 0x85 || at(1) == 0xA0 ? 2 : 0
        case 0xE1: return at(1) == 0x9A && at(2) == 0x80 ? 3 : 0
        case 0xE2:
            if at(1) == 0x80, (0x80...0x8A).contains(at(2)) || at(2) == 0xA8 || at(2) == 0xA9 || at(2) == 0xAF { return 3 }
            return at(1) == 0x81 && at(2) == 0x9F ? 3 : 0
        case 0xE3: return at(1) == 0x80 && at(2) == 0x80 ? 3 : 0
        default: return 0
        }
    }

    private mutating func skipWhitespace() {
        while case let length = whitespaceLength(at: position), length > 0 { position += length }
    }

    private func matches(_ delimiter: [UInt8], at index: Int) -> Bool {
        guard index + delimiter.count <= bytes.count else { return false }
        for offset in 0..<delimiter.count where bytes[index + offset] != delimiter[offset] { return false }
        return true
    }

    private func find(_ delimiter: [UInt8], from index: Int) -> Int? {
        var index = index
        while index + delimiter.count <= bytes.count {
            if matches(delimiter, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Letters, digits and `. - _ ? *`, as swift-mustache allowed; `(` `)` are read to refuse
    /// transforms by name.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "*"),
            UInt8(ascii: "("), UInt8(ascii: ")"):
            return true
        default:
            return false
        }
    }
}
