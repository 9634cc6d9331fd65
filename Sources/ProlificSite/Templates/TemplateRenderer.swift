/// Renders a compiled theme (`TemplateProgram`) over a page's values into one byte buffer.
///
/// Names were split when the theme was compiled, instructions are plain integers, the context
/// stack is one array pushed and popped in place whose dictionaries were recognised once, when
/// pushed, and values are told apart by their exact type (`TemplateValues`) and written straight
/// into the buffer, escaped on the way: a lookup allocates nothing. That is what makes a page cost
/// microseconds where swift-mustache spent most of a millisecond.
///
/// Strictness: a name whose first part is found nowhere in the context stack, the page's own
/// values included, is recorded in `missing` (the first one), so a misspelt `{{titel}}` fails the
/// build instead of rendering nothing. A later part that misses (`{{site.titel}}`) renders nothing,
/// as before.
struct TemplateRenderer {
    /// How deep sections, partials and blocks may nest while rendering: deeper means a partial or
    /// block that includes itself, which would otherwise recurse until the stack overflows.
    static let depthLimit = 200

    /// What rendering a template gave.
    struct Result {
        var output: [UInt8]
        /// The first name found nowhere, if any.
        var missing: String?
        /// Whether `depthLimit` was reached (rendering stopped there).
        var tooDeep: Bool
    }

    private let program: TemplateProgram
    // The program's arrays, read through pointers: reading an array stored in `self` from a
    // mutating method retains and releases its buffer, on memory every rendering thread shares.
    // `TemplateProgram.isConsistent` guarantees every index an instruction holds is in bounds.
    private let ops: UnsafeBufferPointer<TemplateProgram.Op>
    private let text: UnsafeBufferPointer<UInt8>
    private let names: UnsafeBufferPointer<String>
    private var output: [UInt8] = []
    private var missing: String?
    private var tooDeep = false

    /// One context of the stack: a dictionary (the page's values, a list item), recognised when
    /// pushed so that lookups need no cast, or any other value.
    private enum Frame {
        case dictionary([String: Any])
        case value(Any)

        /// The entry `name` of the frame's dictionary, or the member `name` of its value.
        func member(_ name: String) -> Any? {
            switch self {
            case .dictionary(let dictionary): dictionary[name]
            case .value(let context): TemplateValues.member(name, of: context)
            }
        }
    }

    private var frames: [Frame] = []
    /// What is put before each line of the partial or block being rendered (empty: nothing).
    private var indentation: [UInt8] = []
    /// The blocks overridden by the templates that include the current one, outermost first: the
    /// first with a block's name wins.
    private var overrides: [TemplateProgram.Override] = []
    private var depth = 0

    /// Renders the template `name` of `program` over `root`; nil when there is no such template.
    static func render(_ program: TemplateProgram, template name: String, root: [String: Any], capacity: Int) -> Result? {
        guard let range = program.entries[name] else { return nil }
        return program.ops.withUnsafeBufferPointer { ops in
            program.text.withUnsafeBufferPointer { text in
                program.names.withUnsafeBufferPointer { names in
                    var renderer = TemplateRenderer(program: program, ops: ops, text: text, names: names)
                    renderer.output.reserveCapacity(capacity)
                    renderer.frames.reserveCapacity(16)
                    renderer.frames.append(.dictionary(root))
                    renderer.run(range.lowerBound, range.upperBound)
                    return Result(output: renderer.output, missing: renderer.missing, tooDeep: renderer.tooDeep)
                }
            }
        }
    }

    private init(
        program: TemplateProgram, ops: UnsafeBufferPointer<TemplateProgram.Op>, text: UnsafeBufferPointer<UInt8>,
        names: UnsafeBufferPointer<String>
    ) {
        self.program = program
        self.ops = ops
        self.text = text
        self.names = names
    }

    /// Runs the instructions `start..<end`. Before each one that starts a line (for
    /// swift-mustache: whose template's output so far ends in `\n`) and writes something, the
    /// current indentation is inserted; each template, section item and block counts its own
    /// output, as swift-mustache's did, so that indented partials come out the same.
    private mutating func run(_ start: Int, _ end: Int) {
        guard !tooDeep else { return }
        guard depth < Self.depthLimit else {
            tooDeep = true
            return
        }
        depth += 1
        defer { depth -= 1 }
        var index = start
        if indentation.isEmpty {
            while index < end { index = execute(index) }
            return
        }
        let indentation = self.indentation
        let local = output.count
        while index < end {
            let before = output.count
            // The output so far ends with the Character "\n" (not "\r\n").
            let atLineStart =
                before > local && output[before - 1] == 0x0A && !(before - 2 >= local && output[before - 2] == 0x0D)
            index = execute(index)
            if atLineStart, output.count > before { output.insert(contentsOf: indentation, at: before) }
        }
    }

    /// Executes the instruction at `index`; returns the index of the next one.
    private mutating func execute(_ index: Int) -> Int {
        let op = ops[index]
        switch op.code {
        case .text:
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[op.a..<op.b]))
            return index + 1
        case .escaped, .raw:
            if let value = lookup(op) { write(value, escaped: op.code == .escaped) }
            return index + 1
        case .section:
            if let value = lookup(op) { renderSection(value, index + 1, op.e) }
            return op.e
        case .inverted:
            renderInverted(lookup(op), index + 1, op.e)
            return op.e
        case .partial:
            // A missing partial renders nothing (the spec).
            let target = program.targets[op.a]
            guard !target.isEmpty else { return op.e }
            let indentationCount = indentation.count
            let overridesCount = overrides.count
            if op.b >= 0 { indentation += UnsafeBufferPointer(rebasing: text[op.b..<op.c]) }
            if op.d >= 0 { overrides += program.overrideSets[op.d] }
            run(target.lowerBound, target.upperBound)
            indentation.removeSubrange(indentationCount...)
            overrides.removeSubrange(overridesCount...)
            return op.e
        case .block:
            let indentationCount = indentation.count
            indentation += UnsafeBufferPointer(rebasing: text[op.b..<op.c])
            if let override = overrides.first(where: { $0.name == op.a }) {
                run(override.start, override.end)
            } else {
                run(index + 1, op.e)
            }
            indentation.removeSubrange(indentationCount...)
            return op.e
        }
    }

    /// The value an instruction names: its first part from the top of the stack down, the rest
    /// inside it; `{{.}}` is the top of the stack.
    private mutating func lookup(_ op: TemplateProgram.Op) -> Any? {
        let names = self.names
        let (value, found) = frames.withUnsafeBufferPointer { Self.resolve(op, $0, names) }
        if !found { recordMissing(names[op.a]) }
        return value
    }

    /// The value, and whether its first part was found (a later part that misses is not strict).
    ///
    /// Each value found is bound once and handed on (`if let`, returned at once): kept in a
    /// variable that the search and the later parts assigned in turn, every value was copied
    /// into it and out of it again, existentials whose copies go through their type's witnesses.
    private static func resolve(
        _ op: TemplateProgram.Op, _ frames: UnsafeBufferPointer<Frame>, _ names: UnsafeBufferPointer<String>
    ) -> (Any?, Bool) {
        guard op.b > op.a, frames.count > 0 else { return (frames.last.map(Self.value(of:)), true) }
        let first = names[op.a]
        // `{{.a}}` looks only at the top; at the page's own values, as strictly as any name.
        let bottom = op.c == 1 ? frames.count - 1 : 0
        var index = frames.count - 1
        while index >= bottom {
            if let found = frames[index].member(first) {
                return (op.b == op.a + 1 ? found : Self.members(of: found, op.a + 1..<op.b, names), true)
            }
            index -= 1
        }
        return (nil, op.c == 1 && frames.count > 1)
    }

    /// The value the parts `parts` of a name lead to inside `value`; nil when one misses.
    private static func members(of value: Any, _ parts: Range<Int>, _ names: UnsafeBufferPointer<String>) -> Any? {
        guard let next = TemplateValues.member(names[parts.lowerBound], of: value) else { return nil }
        return parts.count == 1 ? next : members(of: next, parts.dropFirst(), names)
    }

    private static func value(of frame: Frame) -> Any {
        switch frame {
        case .dictionary(let dictionary): dictionary
        case .value(let value): value
        }
    }

    private mutating func recordMissing(_ name: String) {
        if missing == nil { missing = name }
    }

    private mutating func renderSection(_ value: Any, _ start: Int, _ end: Int) {
        let type = Swift.type(of: value)
        if type == Bool.self {
            if value as? Bool == true { run(start, end) }
        } else if type == [[String: Any]].self, let list = value as? [[String: Any]] {
            for item in list { run(pushing: .dictionary(item), start, end) }
        } else if type == [String: Any].self, let dictionary = value as? [String: Any] {
            run(pushing: .dictionary(dictionary), start, end)
        } else if type == String.self || type == Int.self || type == [String: String].self {
            run(pushing: .value(value), start, end)
        } else {
            switch TemplateValues.truth(of: value) {
            case .falsy: break
            case .truthy: run(start, end)
            case .push(let value): run(pushing: Self.frame(value), start, end)
            case .list(let items): for item in items { run(pushing: Self.frame(item), start, end) }
            }
        }
    }

    private mutating func renderInverted(_ value: Any?, _ start: Int, _ end: Int) {
        guard let value else { return run(start, end) }
        let type = Swift.type(of: value)
        if type == Bool.self {
            if value as? Bool == false { run(start, end) }
        } else if type == [[String: Any]].self, let list = value as? [[String: Any]] {
            if list.isEmpty { run(pushing: .value(value), start, end) }
        } else if type == [String: Any].self || type == String.self || type == Int.self || type == [String: String].self {
            return
        } else if case .falsy = TemplateValues.truth(of: value) {
            // An empty list is the context inside, as it was with swift-mustache.
            if value is any TemplateList { run(pushing: .value(value), start, end) } else { run(start, end) }
        }
    }

    private static func frame(_ value: Any) -> Frame {
        if Swift.type(of: value) == [String: Any].self, let dictionary = value as? [String: Any] {
            return .dictionary(dictionary)
        }
        return .value(value)
    }

    private mutating func run(pushing frame: Frame, _ start: Int, _ end: Int) {
        frames.append(frame)
        run(start, end)
        frames.removeLast()
    }

    private mutating func write(_ value: Any, escaped: Bool) {
        let type = Swift.type(of: value)
        if type == String.self, let string = value as? String {
            if escaped { HTMLEscaping.append(string, to: &output) } else { output.append(contentsOf: string.utf8) }
        } else if type == Int.self, let number = value as? Int {
            output.append(contentsOf: number.description.utf8)
        } else if type == Bool.self, let bool = value as? Bool {
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        } else {
            let text = TemplateValues.text(of: value)
            if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(contentsOf: text.utf8) }
        }
    }
}
