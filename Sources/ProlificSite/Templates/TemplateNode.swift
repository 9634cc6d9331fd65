/// One piece of a compiled template. A template is parsed once, when the theme loads, into a tree of
/// these; rendering a page walks the tree and never looks at template text again.
indirect enum TemplateNode: Sendable {
    /// Text written as it is (one line, or the part of a line before a tag: the renderer indents a
    /// partial's lines at these boundaries).
    case text([UInt8])
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (as it is).
    case variable(TemplatePath, escaped: Bool)
    /// `{{#name}}…{{/name}}`: once per list item, once for a value, never for false, nil or `[]`.
    case section(TemplatePath, [TemplateNode])
    /// `{{^name}}…{{/name}}`: once when the value is false, nil, an empty list or missing.
    case invertedSection(TemplatePath, [TemplateNode])
    /// `{{> name}}`, and `{{< name}}…{{/name}}` with the blocks it overrides. `indentation` is the
    /// whitespace before a standalone tag, put before every line of the partial.
    case partial(name: String, indentation: [UInt8]?, overrides: [String: [TemplateNode]]?)
    /// `{{$name}}default{{/name}}`: what an including template's override says, else the default.
    case block(name: String, defaultNodes: [TemplateNode], indentation: [UInt8])
}

/// A name as a template writes it, split at its dots when the template is compiled, so a lookup
/// never splits or allocates.
struct TemplatePath: Sendable, Equatable {
    /// `a.b.c` → `["a", "b", "c"]`; empty for `{{.}}`, the value of the current context.
    let parts: [String]
    /// `{{.a}}` looks only in the current context, without climbing to enclosing ones.
    let anchored: Bool

    /// Splits `name` as swift-mustache did: empty parts (`a..b`, `a.`) are dropped, `.` (or any
    /// run of dots) is the current context, and a leading dot anchors the lookup.
    init(_ name: String) {
        parts = name.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        anchored = name.first == "." && !parts.isEmpty
    }
}

extension TemplateNode {
    /// Whether any of `nodes` names `name`: as a partial, a section, an inverted section or a
    /// variable (its first part), or inside a block's default or a partial's overrides. Comments
    /// and text never count.
    static func name(_ name: String, in nodes: [TemplateNode]) -> Bool {
        nodes.contains { node in
            switch node {
            case .text: false
            case .variable(let path, _): path.parts.first == name
            case .section(let path, let inner), .invertedSection(let path, let inner):
                path.parts.first == name || Self.name(name, in: inner)
            case .partial(let partial, _, let overrides):
                partial == name || (overrides ?? [:]).values.contains { Self.name(name, in: $0) }
            case .block(_, let defaultNodes, _): Self.name(name, in: defaultNodes)
            }
        }
    }
}
