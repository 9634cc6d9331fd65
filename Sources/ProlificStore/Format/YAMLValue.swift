import ProlificCore
import Yams

/// One YAML node as content files use it: what `YAMLFields` reads, with the position (line and
/// column within the YAML text, from 1) that diagnostics point at.
///
/// Both readers produce it: `FlatYAML` for the plain files that make up nearly all content, and
/// Yams for everything else, so the typed getters don't depend on which one read a file.
indirect enum YAMLValue: Equatable, Sendable {
    /// A scalar's text; `plain` when it was written without quotes (only a plain scalar can be null).
    case scalar(String, plain: Bool, at: TextPosition)
    case sequence([YAMLValue], at: TextPosition)
    case mapping([Pair], at: TextPosition)
    case alias(at: TextPosition)

    struct Pair: Equatable, Sendable {
        var key: YAMLValue
        var value: YAMLValue
    }

    var position: TextPosition {
        switch self {
        case .scalar(_, _, let at), .sequence(_, let at), .mapping(_, let at), .alias(let at): at
        }
    }

    /// The text of a scalar; nil for collections.
    var text: String? {
        if case .scalar(let text, _, _) = self { return text }
        return nil
    }

    /// An empty plain scalar, `~` or `null`: a key written without a value.
    var isNull: Bool {
        guard case .scalar(let text, true, _) = self else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// A short, quoted rendering of a value for messages.
    var described: String {
        switch self {
        case .scalar(let text, _, _):
            let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
            return "'\(shown)'"
        case .mapping: return "keys and values"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The same tree, read from the node Yams composed.
    init(_ node: Node) {
        // Composed nodes always carry a mark.
        let at = node.mark.map { TextPosition(line: $0.line, column: $0.column) } ?? .start
        switch node {
        case .scalar(let scalar):
            self = .scalar(scalar.string, plain: scalar.style == .plain, at: at)
        case .sequence(let sequence):
            self = .sequence(sequence.map(YAMLValue.init), at: at)
        case .mapping(let mapping):
            self = .mapping(mapping.map { Pair(key: YAMLValue($0.key), value: YAMLValue($0.value)) }, at: at)
        case .alias:
            self = .alias(at: at)
        }
    }
}
