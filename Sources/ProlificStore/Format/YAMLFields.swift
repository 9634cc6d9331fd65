import ProlificCore
import Yams

/// Typed, position-aware reading of one YAML mapping (a front matter or a ballot).
///
/// Every getter records a diagnostic with the file, line and column of the offending value rather
/// than throwing, so one pass reports every problem of a file. Keys nobody asked for are reported
/// by `finish()`, which catches typos such as `titel:`.
struct YAMLFields {
    let path: String
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var positions: [String: TextPosition] = [:]
    private var values: [String: Node] = [:]
    private var keyPositions: [String: TextPosition] = [:]
    private var order: [String] = []
    private var used: Set<String> = []
    private let lineOffset: Int
    /// Set when the YAML itself could not be read: then missing keys are not reported again.
    private var unreadable = false

    /// Parses `yaml`, which starts on line `firstLine` of the file at `path`.
    init(yaml: String, path: String, firstLine: Int = 1) {
        self.path = path
        self.lineOffset = firstLine - 1
        if let anchor = Self.aliasedAnchor(in: yaml) {
            diagnostics.append(
                Diagnostic(
                    path: path, position: TextPosition(line: anchor.line + lineOffset, column: anchor.column),
                    message: "YAML anchors ('&name') and aliases ('*name') are not allowed in content files"))
            unreadable = true
            return
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml, .basic, .default, .utf8)
        } catch {
            diagnostics.append(Self.diagnostic(for: error, path: path, lineOffset: lineOffset))
            unreadable = true
            return
        }
        guard let root else { return }  // an empty document: every key is missing
        guard case .mapping(let mapping) = root else {
            diagnostics.append(error(at: root, "expected keys and values ('key: value'), found \(Self.describe(root))"))
            unreadable = true
            return
        }
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                diagnostics.append(error(at: keyNode, "keys must be plain words"))
                continue
            }
            values[key] = value
            order.append(key)
            keyPositions[key] = position(of: keyNode)
            positions[key] = position(of: value)
        }
    }

    var origin: Origin { Origin(path: path, positions: positions) }
    var isValid: Bool { diagnostics.isEmpty }

    mutating func report(_ message: String, at key: String) {
        diagnostics.append(Diagnostic(path: path, position: positions[key] ?? .start, message: message))
    }

    /// Reports a problem of the Markdown body, which starts on `line` of the file.
    mutating func report(_ message: String, atLine line: Int) {
        diagnostics.append(Diagnostic(path: path, position: TextPosition(line: line, column: 1), message: message))
    }

    // MARK: Typed getters

    /// A text value; nil (and a diagnostic, if `required`) when missing or not text.
    mutating func string(_ key: String, required: Bool = true) -> String? {
        guard let node = take(key, required: required) else { return nil }
        guard let scalar = node.scalar else {
            diagnostics.append(error(at: node, "'\(key)' must be a text, found \(Self.describe(node))"))
            return nil
        }
        return scalar.string
    }

    mutating func timestamp(_ key: String, required: Bool = true) -> Timestamp? {
        parsed(key, required: required, expected: Timestamp.rule) { Timestamp(iso8601: $0) }
    }

    mutating func span(_ key: String, required: Bool = true) -> TimeSpan? {
        parsed(key, required: required, expected: TimeSpan.rule) { TimeSpan($0) }
    }

    mutating func handle(_ key: String, required: Bool = true) -> Handle? {
        parsed(key, required: required, expected: "a user's handle: \(Handle.rule)") { Handle($0) }
    }

    mutating func submissionID(_ key: String, required: Bool = true) -> SubmissionID? {
        parsed(key, required: required, expected: "a submission id: \(SubmissionID.rule)") { SubmissionID($0) }
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>, required: Bool = true) -> Int? {
        parsed(key, required: required, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    mutating func bool(_ key: String, required: Bool = true) -> Bool? {
        parsed(key, required: required, expected: "true or false") {
            switch $0 {
            case "true": true
            case "false": false
            default: nil
            }
        }
    }

    mutating func number(_ key: String, required: Bool = true) -> Double? {
        parsed(key, required: required, expected: "a number") { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    /// A list of scalars parsed by `parse`; each bad item is reported at its own line as `key.N`.
    mutating func list<T>(
        _ key: String, required: Bool = false, expected: String, _ parse: (String) -> T?
    ) -> [T]? {
        guard let node = take(key, required: required) else { return nil }
        guard case .sequence(let sequence) = node else {
            diagnostics.append(error(at: node, "'\(key)' must be a list, found \(Self.describe(node))"))
            return nil
        }
        var items: [T] = []
        for (i, item) in sequence.enumerated() {
            positions["\(key).\(i)"] = position(of: item)
            guard let text = item.scalar?.string, let value = parse(text) else {
                diagnostics.append(
                    error(at: item, "item \(i + 1) of '\(key)' must be \(expected), found \(Self.describe(item))"))
                continue
            }
            items.append(value)
        }
        return items
    }

    /// A nested mapping, read with its own fields; positions of its keys are recorded as `key.sub`.
    mutating func mapping(_ key: String, required: Bool = false) -> YAMLFields? {
        guard let node = take(key, required: required) else { return nil }
        guard case .mapping = node else {
            diagnostics.append(error(at: node, "'\(key)' must be keys and values, found \(Self.describe(node))"))
            return nil
        }
        return YAMLFields(node: node, path: path, lineOffset: lineOffset)
    }

    /// A list of mappings, each read with its own fields.
    mutating func mappings(_ key: String, required: Bool = false) -> [YAMLFields]? {
        guard let node = take(key, required: required) else { return nil }
        guard case .sequence(let sequence) = node else {
            diagnostics.append(error(at: node, "'\(key)' must be a list, found \(Self.describe(node))"))
            return nil
        }
        var result: [YAMLFields] = []
        for (i, item) in sequence.enumerated() {
            positions["\(key).\(i)"] = position(of: item)
            guard case .mapping = item else {
                diagnostics.append(error(at: item, "item \(i + 1) of '\(key)' must be keys and values"))
                continue
            }
            result.append(YAMLFields(node: item, path: path, lineOffset: lineOffset))
        }
        return result
    }

    /// Merges a nested reader's problems and positions (under `prefix.`) into this one.
    mutating func absorb(_ nested: YAMLFields, prefix: String) {
        diagnostics += nested.diagnostics
        for (key, position) in nested.positions { positions["\(prefix).\(key)"] = position }
    }

    /// Keys of the mapping in file order, each value as text if it is a scalar.
    mutating func scalarPairs() -> [(key: String, value: String?, position: TextPosition)] {
        order.map { key in
            used.insert(key)
            return (key, values[key]?.scalar?.string, positions[key] ?? .start)
        }
    }

    /// Reports every key that no getter asked for.
    mutating func finish() {
        for key in order where !used.contains(key) {
            diagnostics.append(
                Diagnostic(path: path, position: keyPositions[key] ?? .start, message: "unknown key '\(key)'"))
        }
        used = Set(order)
    }

    // MARK: Internals

    private init(node: Node, path: String, lineOffset: Int) {
        self.path = path
        self.lineOffset = lineOffset
        guard case .mapping(let mapping) = node else { return }
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { continue }
            values[key] = value
            order.append(key)
            keyPositions[key] = position(of: keyNode)
            positions[key] = position(of: value)
        }
    }

    private mutating func take(_ key: String, required: Bool) -> Node? {
        used.insert(key)
        guard let node = values[key], !Self.isNull(node) else {
            if required && !unreadable {
                diagnostics.append(Diagnostic(path: path, position: .start, message: "missing required key '\(key)'"))
            }
            return nil
        }
        return node
    }

    private mutating func parsed<T>(
        _ key: String, required: Bool, expected: String, _ parse: (String) -> T?
    ) -> T? {
        guard let node = take(key, required: required) else { return nil }
        guard let text = node.scalar?.string, let value = parse(text) else {
            diagnostics.append(error(at: node, "'\(key)' must be \(expected), found \(Self.describe(node))"))
            return nil
        }
        return value
    }

    private func position(of node: Node) -> TextPosition {
        guard let mark = node.mark else { return .start }
        return TextPosition(line: mark.line + lineOffset, column: mark.column)
    }

    private func error(at node: Node, _ message: String) -> Diagnostic {
        Diagnostic(path: path, position: position(of: node), message: message)
    }

    private static func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// A short, quoted rendering of a value for messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
            return "'\(shown)'"
        case .mapping: return "keys and values"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    static func diagnostic(for error: Error, path: String, lineOffset: Int) -> Diagnostic {
        func at(_ mark: Mark, _ problem: String) -> Diagnostic {
            Diagnostic(path: path, position: TextPosition(line: mark.line + lineOffset, column: mark.column), message: "invalid YAML: \(problem)")
        }
        switch error as? YamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return at(mark, problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return at(context.mark, "duplicate key '\(duplicates.joined(separator: "', '"))'")
        case .reader(let problem, _, _, _):
            return Diagnostic(path: path, position: .start, message: "invalid YAML: \(problem)")
        default:
            return Diagnostic(path: path, position: .start, message: "invalid YAML: \(error)")
        }
    }
}
