/// Renders compiled templates over a page's values into one byte buffer.
///
/// Names were split when the template was compiled, the context stack is one array pushed and
/// popped in place, values are told apart by their exact type (`TemplateValues`) and written
/// straight into the buffer, escaped on the way: a lookup allocates nothing. That is what makes a
/// page cost microseconds where swift-mustache spent most of a millisecond.
///
/// Strictness: a name whose first part is found nowhere in the context stack, the page's own
/// values included, is recorded in `missing` (the first one), so a misspelt `{{titel}}` fails the
/// build instead of rendering nothing. A later part that misses (`{{site.titel}}`) renders nothing,
/// as before.
struct TemplateRenderer {
    /// How deep sections, partials and blocks may nest while rendering: deeper means a partial or
    /// block that includes itself, which would otherwise recurse until the stack overflows.
    static let depthLimit = 200

    let templates: [String: Template]
    private(set) var output: [UInt8] = []
    /// The first name found nowhere, if any.
    private(set) var missing: String?
    /// Set when `depthLimit` was reached; rendering stops.
    private(set) var tooDeep = false

    private var stack: [Any] = []
    /// What is put before each line of the partial or block being rendered (empty: nothing).
    private var indentation: [UInt8] = []
    /// The blocks the templates that include this one override, the outermost one winning.
    private var overrides: [String: [TemplateNode]]?
    private var depth = 0

    init(templates: [String: Template], root: [String: Any], capacity: Int) {
        self.templates = templates
        output.reserveCapacity(capacity)
        stack.reserveCapacity(16)
        stack.append(root)
    }

    /// Renders `nodes`. Before each node that starts a line (for swift-mustache: a node whose
    /// template's output so far ends in `\n`) and writes something, the current indentation is
    /// inserted; each template, section item and block counts its own output, as swift-mustache's
    /// did, so that indented partials come out the same.
    mutating func render(_ nodes: [TemplateNode]) {
        guard !tooDeep else { return }
        guard depth < Self.depthLimit else {
            tooDeep = true
            return
        }
        depth += 1
        defer { depth -= 1 }
        if indentation.isEmpty {
            for node in nodes { render(node) }
            return
        }
        let indentation = self.indentation
        let start = output.count
        for node in nodes {
            let before = output.count
            // The output so far ends with the Character "\n" (not "\r\n").
            let atLineStart =
                before > start && output[before - 1] == 0x0A && !(before - 2 >= start && output[before - 2] == 0x0D)
            render(node)
            if atLineStart, output.count > before { output.insert(contentsOf: indentation, at: before) }
        }
    }

    private mutating func render(_ node: TemplateNode) {
        switch node {
        case .text(let bytes):
            output.append(contentsOf: bytes)
        case .variable(let path, let escaped):
            if let value = lookup(path) { write(value, escaped: escaped) }
        case .section(let path, let nodes):
            if let value = lookup(path) { renderSection(value, nodes) }
        case .invertedSection(let path, let nodes):
            renderInverted(lookup(path), nodes)
        case .partial(let name, let partialIndentation, let partialOverrides):
            // A missing partial renders nothing (the spec).
            guard let template = templates[name] else { return }
            let saved = (indentation, overrides)
            if let partialIndentation, !partialIndentation.isEmpty { indentation += partialIndentation }
            if let partialOverrides {
                overrides = overrides?.merging(partialOverrides) { outer, _ in outer } ?? partialOverrides
            }
            render(template.nodes)
            (indentation, overrides) = saved
        case .block(let name, let defaultNodes, let blockIndentation):
            let saved = indentation
            indentation += blockIndentation
            render(overrides?[name] ?? defaultNodes)
            indentation = saved
        }
    }

    /// The value `path` names: its first part from the top of the stack down, the rest inside it.
    private mutating func lookup(_ path: TemplatePath) -> Any? {
        guard let first = path.parts.first else { return stack.last }
        var value: Any?
        if path.anchored {
            if let top = stack.last { value = TemplateValues.member(first, of: top) }
            // Anchored at the page's own values: as strict as any other name.
            if value == nil, stack.count == 1 { recordMissing(first) }
        } else {
            var index = stack.count - 1
            while index >= 0 {
                if let found = TemplateValues.member(first, of: stack[index]) {
                    value = found
                    break
                }
                index -= 1
            }
            if value == nil { recordMissing(first) }
        }
        for part in path.parts.dropFirst() {
            guard let current = value else { return nil }
            value = TemplateValues.member(part, of: current)
        }
        return value
    }

    private mutating func recordMissing(_ name: String) {
        if missing == nil { missing = name }
    }

    private mutating func renderSection(_ value: Any, _ nodes: [TemplateNode]) {
        let type = Swift.type(of: value)
        if type == Bool.self {
            if value as? Bool == true { render(nodes) }
        } else if type == [[String: Any]].self, let list = value as? [[String: Any]] {
            for item in list { renderPushed(item, nodes) }
        } else if type == [String: Any].self || type == String.self || type == Int.self || type == [String: String].self {
            renderPushed(value, nodes)
        } else {
            switch TemplateValues.truth(of: value) {
            case .falsy: break
            case .truthy: render(nodes)
            case .push(let value): renderPushed(value, nodes)
            case .list(let items): for item in items { renderPushed(item, nodes) }
            }
        }
    }

    private mutating func renderInverted(_ value: Any?, _ nodes: [TemplateNode]) {
        guard let value else { return render(nodes) }
        let type = Swift.type(of: value)
        if type == Bool.self {
            if value as? Bool == false { render(nodes) }
        } else if type == [[String: Any]].self, let list = value as? [[String: Any]] {
            if list.isEmpty { renderPushed(value, nodes) }
        } else if type == [String: Any].self || type == String.self || type == Int.self || type == [String: String].self {
            return
        } else {
            switch TemplateValues.truth(of: value) {
            case .falsy:
                // An empty list is the context inside, as it was with swift-mustache.
                if value is any TemplateList { renderPushed(value, nodes) } else { render(nodes) }
            case .truthy, .push, .list: break
            }
        }
    }

    private mutating func renderPushed(_ value: Any, _ nodes: [TemplateNode]) {
        stack.append(value)
        render(nodes)
        stack.removeLast()
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
