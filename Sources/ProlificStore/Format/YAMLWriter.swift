import ProlificCore
import Yams

/// Builds the YAML the CLI writes: keys in a fixed, readable order and text quoted only when it
/// would otherwise read back as something else (`null`, `yes`, `123`).
struct YAMLWriter {
    private var pairs: [(Node, Node)] = []

    mutating func text(_ key: String, _ value: String) {
        pairs.append((Node(key), Self.text(value)))
    }

    mutating func plain(_ key: String, _ value: some CustomStringConvertible) {
        pairs.append((Node(key), Node(value.description)))
    }

    mutating func texts(_ key: String, _ values: [String], flow: Bool = false) {
        pairs.append((Node(key), Node(values.map(Self.text), Tag(.seq), flow ? .flow : .block)))
    }

    mutating func node(_ key: String, _ value: Node) {
        pairs.append((Node(key), value))
    }

    var isEmpty: Bool { pairs.isEmpty }
    var mapping: Node { Node(pairs) }

    func yaml() throws(AtomicFile.Failure) -> String {
        do {
            return try Yams.serialize(node: Node(pairs), width: -1, allowUnicode: true)
        } catch {
            throw .io(path: "", message: "cannot write YAML: \(error)")
        }
    }

    /// A text scalar, quoted if the plain form would resolve to another type.
    static func text(_ value: String) -> Node {
        let plain = Node(value)
        if plain.tag == Tag(.str) { return plain }
        return Node(value, Tag(.str), .doubleQuoted)
    }
}
