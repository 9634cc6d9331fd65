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
    private(set) var positions = Positions()
    /// The mapping's pairs in file order. A mapping holds a handful of keys and every content
    /// file is read through one: scanning a short array beats building dictionaries. Keys are
    /// unique: a mapping with a key twice never gets here (Yams refuses it, `FlatYAML` leaves it
    /// to Yams).
    private var pairs: [(key: String, value: YAMLValue, keyPosition: TextPosition)] = []
    /// The keys asked for, present or not.
    private var used: [String] = []
    /// Set once every key counts as asked for: by `scalarPairs()` where the keys are unique,
    /// and by `finish()`.
    private var everyKeyUsed = false
    /// Whether the mapping's keys are known to be unique as text: `FlatYAML` read it, which
    /// compares them byte by byte (it leaves a file with a key twice to Yams). Then no key is
    /// looked for among those before it.
    private let keysAreUnique: Bool
    private let lineOffset: Int
    /// Set when the YAML itself could not be read: then missing keys are not reported again.
    private var unreadable = false

    /// Parses `yaml`, which starts on line `firstLine` of the file at `path`.
    init(yaml: String, path: String, firstLine: Int = 1) {
        self.path = path
        self.lineOffset = firstLine - 1
        let root: YAMLValue
        let flat = FlatYAML.parse(yaml)
        keysAreUnique = flat != nil
        if let flat {
            // The flat subset has no anchors or aliases, so there is no bomb to look for first:
            // the scan is two passes over every file a build reads.
            root = flat
        } else {
            if let anchor = Self.aliasedAnchor(in: yaml) {
                diagnostics.append(
                    Diagnostic(
                        path: path, position: TextPosition(line: anchor.line + lineOffset, column: anchor.column),
                        message: "YAML anchors ('&name') and aliases ('*name') are not allowed in content files"))
                unreadable = true
                return
            }
            do {
                guard let node = try Yams.compose(yaml: yaml, .basic, .default, .utf8) else { return }  // an empty document: every key is missing
                root = YAMLValue(node)
            } catch {
                diagnostics.append(Self.diagnostic(for: error, path: path, lineOffset: lineOffset))
                unreadable = true
                return
            }
        }
        guard case .mapping(let mapping, _) = root else {
            diagnostics.append(error(at: root, "expected keys and values ('key: value'), found \(root.described)"))
            unreadable = true
            return
        }
        read(mapping, reportingKeys: true)
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
        guard let text = node.text else {
            diagnostics.append(error(at: node, "'\(key)' must be a text, found \(node.described)"))
            return nil
        }
        return text
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
        _ key: String, required: Bool = false, expected: @autoclosure () -> String, _ parse: (String) -> T?
    ) -> [T]? {
        guard let node = take(key, required: required) else { return nil }
        guard case .sequence(let sequence, _) = node else {
            diagnostics.append(error(at: node, "'\(key)' must be a list, found \(node.described)"))
            return nil
        }
        var items: [T] = []
        for (i, item) in sequence.enumerated() {
            positions["\(key).\(i)"] = position(of: item)
            guard let text = item.text, let value = parse(text) else {
                diagnostics.append(
                    error(at: item, "item \(i + 1) of '\(key)' must be \(expected()), found \(item.described)"))
                continue
            }
            items.append(value)
        }
        return items
    }

    /// A nested mapping, read with its own fields; positions of its keys are recorded as `key.sub`.
    mutating func mapping(_ key: String, required: Bool = false) -> YAMLFields? {
        guard let node = take(key, required: required) else { return nil }
        guard case .mapping(let mapping, _) = node else {
            diagnostics.append(error(at: node, "'\(key)' must be keys and values, found \(node.described)"))
            return nil
        }
        return YAMLFields(mapping: mapping, path: path, lineOffset: lineOffset, keysAreUnique: keysAreUnique)
    }

    /// A list of mappings, each read with its own fields.
    mutating func mappings(_ key: String, required: Bool = false) -> [YAMLFields]? {
        guard let node = take(key, required: required) else { return nil }
        guard case .sequence(let sequence, _) = node else {
            diagnostics.append(error(at: node, "'\(key)' must be a list, found \(node.described)"))
            return nil
        }
        var result: [YAMLFields] = []
        for (i, item) in sequence.enumerated() {
            positions["\(key).\(i)"] = position(of: item)
            guard case .mapping(let mapping, _) = item else {
                diagnostics.append(error(at: item, "item \(i + 1) of '\(key)' must be keys and values"))
                continue
            }
            result.append(YAMLFields(mapping: mapping, path: path, lineOffset: lineOffset, keysAreUnique: keysAreUnique))
        }
        return result
    }

    /// Merges a nested reader's problems and positions (under `prefix.`) into this one.
    mutating func absorb(_ nested: YAMLFields, prefix: String) {
        diagnostics += nested.diagnostics
        positions.set(nested.positions, under: prefix)
    }

    /// Merges a nested reader's problems only, its positions kept elsewhere by the caller.
    mutating func absorbDiagnostics(_ nested: YAMLFields) {
        diagnostics += nested.diagnostics
    }

    /// Keys of the mapping in file order, each value as text if it is a scalar.
    ///
    /// With unique keys, each pair is its own key's value and position: looking each key up
    /// among the others was quadratic in a round.md's seal, record and scores.
    mutating func scalarPairs() -> [(key: String, value: String?, position: TextPosition)] {
        guard keysAreUnique else {
            return pairs.map { pair in
                markUsed(pair.key)
                return (pair.key, value(pair.key)?.text, positions[pair.key] ?? .start)
            }
        }
        everyKeyUsed = true
        return pairs.map { ($0.key, $0.value.text, position(of: $0.value)) }
    }

    /// Reports every key that no getter asked for.
    mutating func finish() {
        guard !everyKeyUsed else { return }
        for pair in pairs where !used.contains(pair.key) {
            diagnostics.append(Diagnostic(path: path, position: pair.keyPosition, message: "unknown key '\(pair.key)'"))
        }
        everyKeyUsed = true
    }

    // MARK: Internals

    private init(mapping: [YAMLValue.Pair], path: String, lineOffset: Int, keysAreUnique: Bool) {
        self.path = path
        self.lineOffset = lineOffset
        self.keysAreUnique = keysAreUnique
        read(mapping, reportingKeys: false)
    }

    /// Records the pairs of a mapping; a key that is not a scalar is reported at the root and
    /// skipped in nested mappings.
    private mutating func read(_ mapping: [YAMLValue.Pair], reportingKeys: Bool) {
        // One more for the snippet's `body` (`SubmissionFile`), which would otherwise copy the
        // positions of 100,000 snippets into arrays twice as long.
        positions.reserveCapacity(mapping.count + 1)
        pairs.reserveCapacity(mapping.count)
        for pair in mapping {
            guard let key = pair.key.text else {
                if reportingKeys { diagnostics.append(error(at: pair.key, "keys must be plain words")) }
                continue
            }
            pairs.append((key, pair.value, position(of: pair.key)))
            if keysAreUnique {
                positions.append(uniqueKey: key, position(of: pair.value))
            } else {
                positions[key] = position(of: pair.value)
            }
        }
    }

    private mutating func take(_ key: String, required: Bool) -> YAMLValue? {
        markUsed(key)
        guard let node = value(key), !node.isNull else {
            if required && !unreadable {
                diagnostics.append(Diagnostic(path: path, position: .start, message: "missing required key '\(key)'"))
            }
            return nil
        }
        return node
    }

    private func value(_ key: String) -> YAMLValue? {
        pairs.first { $0.key == key }?.value
    }

    private mutating func markUsed(_ key: String) {
        if !everyKeyUsed, !used.contains(key) { used.append(key) }
    }

    private mutating func parsed<T>(
        _ key: String, required: Bool, expected: @autoclosure () -> String, _ parse: (String) -> T?
    ) -> T? {
        guard let node = take(key, required: required) else { return nil }
        guard let text = node.text, let value = parse(text) else {
            diagnostics.append(error(at: node, "'\(key)' must be \(expected()), found \(node.described)"))
            return nil
        }
        return value
    }

    private func position(of node: YAMLValue) -> TextPosition {
        TextPosition(line: node.position.line + lineOffset, column: node.position.column)
    }

    private func error(at node: YAMLValue, _ message: String) -> Diagnostic {
        Diagnostic(path: path, position: position(of: node), message: message)
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
