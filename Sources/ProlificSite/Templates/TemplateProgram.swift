/// Every template of a theme, flattened into one array of plain instructions.
///
/// The parser's tree (`TemplateNode`) holds arrays and strings; walking it copies them, and each
/// copy is a reference count changed on memory every rendering thread shares. Here an
/// instruction is a few integers (offsets into one text buffer, one table of names, the
/// instruction array itself), so rendering reads shared memory without writing to it. Partials are
/// linked to their templates once, when the theme loads.
struct TemplateProgram: Sendable {
    enum Code: UInt8, Sendable {
        /// `text[a..<b]`.
        case text
        /// The value named by `names[a..<b]` (`c` = 1: anchored to the current context), escaped.
        case escaped
        /// The same, as it is.
        case raw
        /// A section named like `escaped`; its body is the instructions up to `e`.
        case section
        /// An inverted section, likewise.
        case inverted
        /// The template `targets[a]`, indented by `text[b..<c]` (`b` = -1: not standalone), with
        /// the overrides `overrideSets[d]` (`d` = -1: none); the overrides' bodies follow, up to `e`.
        case partial
        /// The block `a`, indented by `text[b..<c]`; its default body is the instructions up to `e`.
        case block
    }

    struct Op: Sendable {
        var code: Code
        var a = 0
        var b = 0
        var c = 0
        var d = -1
        var e = 0
    }

    /// A block a parent tag overrides: block `name`, with the instructions `start..<end`.
    struct Override: Sendable {
        var name: Int
        var start: Int
        var end: Int
    }

    private(set) var ops: [Op] = []
    private(set) var text: [UInt8] = []
    /// The parts of every name, one after the other: `a.b` is two entries.
    private(set) var names: [String] = []
    private(set) var overrideSets: [[Override]] = []
    /// Where each partial an instruction names is (`start == end` when there is no such template).
    private(set) var targets: [Range<Int>] = []
    /// Where each template is, by name.
    private(set) var entries: [String: Range<Int>] = [:]
    private var partialIndex: [String: Int] = [:]
    private var blockIndex: [String: Int] = [:]

    init(templates: [String: [TemplateNode]]) {
        for (name, nodes) in templates.sorted(by: { $0.key < $1.key }) {
            let start = ops.count
            emit(nodes)
            entries[name] = start..<ops.count
        }
        targets = Array(repeating: 0..<0, count: partialIndex.count)
        for (name, index) in partialIndex {
            targets[index] = entries[name] ?? 0..<0
        }
    }

    /// Whether every index an instruction holds is in bounds, and every body lies inside the
    /// instructions that contain it: true by construction; the renderer reads through unchecked
    /// pointers, so the theme checks it once anyway.
    var isConsistent: Bool {
        func consistent(_ range: Range<Int>) -> Bool {
            guard range.lowerBound >= 0, range.upperBound <= ops.count else { return false }
            var index = range.lowerBound
            while index < range.upperBound {
                let op = ops[index]
                switch op.code {
                case .text:
                    guard op.a >= 0, op.a <= op.b, op.b <= text.count else { return false }
                    index += 1
                case .escaped, .raw:
                    guard op.a >= 0, op.a <= op.b, op.b <= names.count else { return false }
                    index += 1
                case .section, .inverted:
                    guard op.a >= 0, op.a <= op.b, op.b <= names.count, op.e > index, op.e <= range.upperBound,
                        consistent(index + 1..<op.e)
                    else { return false }
                    index = op.e
                case .partial:
                    guard op.a >= 0, op.a < targets.count, op.e > index, op.e <= range.upperBound,
                        op.b == -1 || (op.b >= 0 && op.b <= op.c && op.c <= text.count),
                        op.d == -1 || (op.d >= 0 && op.d < overrideSets.count)
                    else { return false }
                    if op.d >= 0 {
                        for override in overrideSets[op.d] {
                            guard override.start > index, override.start <= override.end, override.end <= op.e,
                                consistent(override.start..<override.end)
                            else { return false }
                        }
                    }
                    index = op.e
                case .block:
                    guard op.b >= 0, op.b <= op.c, op.c <= text.count, op.e > index, op.e <= range.upperBound,
                        consistent(index + 1..<op.e)
                    else { return false }
                    index = op.e
                }
            }
            return index == range.upperBound
        }
        return entries.values.allSatisfy(consistent) && targets.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= ops.count }
    }

    private mutating func emit(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                ops.append(Op(code: .text, a: text.count, b: text.count + bytes.count))
                text += bytes
            case .variable(let path, let escaped):
                ops.append(name(path, code: escaped ? .escaped : .raw))
            case .section(let path, let body), .invertedSection(let path, let body):
                let index = ops.count
                if case .section = node {
                    ops.append(name(path, code: .section))
                } else {
                    ops.append(name(path, code: .inverted))
                }
                emit(body)
                ops[index].e = ops.count
            case .partial(let partial, let indentation, let overrides):
                let index = ops.count
                let target = partialIndex[partial] ?? partialIndex.count
                partialIndex[partial] = target
                var op = Op(code: .partial, a: target, b: -1, c: -1)
                if let indentation {
                    op.b = text.count
                    text += indentation
                    op.c = text.count
                }
                ops.append(op)
                if let overrides {
                    var set: [Override] = []
                    for (block, body) in overrides.sorted(by: { $0.key < $1.key }) {
                        let start = ops.count
                        emit(body)
                        set.append(Override(name: blockID(block), start: start, end: ops.count))
                    }
                    ops[index].d = overrideSets.count
                    overrideSets.append(set)
                }
                ops[index].e = ops.count
            case .block(let block, let defaultNodes, let indentation):
                let index = ops.count
                ops.append(Op(code: .block, a: blockID(block), b: text.count, c: text.count + indentation.count))
                text += indentation
                emit(defaultNodes)
                ops[index].e = ops.count
            }
        }
    }

    private mutating func name(_ path: TemplatePath, code: Code) -> Op {
        let start = names.count
        names += path.parts
        return Op(code: code, a: start, b: names.count, c: path.anchored ? 1 : 0)
    }

    private mutating func blockID(_ name: String) -> Int {
        if let id = blockIndex[name] { return id }
        blockIndex[name] = blockIndex.count
        return blockIndex.count - 1
    }
}
