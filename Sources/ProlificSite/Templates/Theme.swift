import Crypto
import Foundation
import ProlificCore

/// The templates and static files a site is rendered with: a `Templates/` folder, or the defaults
/// compiled into the binary when there is none.
///
/// Templates are Mustache (the spec's tags, no lambdas or transforms: docs/templates.md), compiled
/// once when the theme loads (`TemplateParser`, `TemplateProgram`) and rendered by our own small
/// engine (`TemplateRenderer`): logic-less, so a template a user edits can't run code; `{{value}}`
/// escapes HTML (`HTMLEscaping`). It replaced swift-mustache, whose dynamic lookups were a quarter
/// of a large build, and gives the same bytes for the same templates.
public struct Theme: Sendable {
    /// The pages every theme must provide, as `<name>.mustache`.
    public static let requiredTemplates = [
        "base", "index", "list", "project", "round", "user", "users", "badges", "leaderboard", "calendar", "search", "404",
        "card", "tags", "pagination", "avatar",
    ]

    /// Every template, compiled.
    let program: TemplateProgram
    /// Where each template came from, for messages.
    let templatePaths: [String: String]
    /// Files copied as they are into the site, by their path inside it.
    public let staticFiles: [(path: String, contents: [UInt8])]
    /// The room reserved for a page's output before it is rendered.
    let outputCapacity: Int
    /// The SHA-256 of every file of the theme, by path: part of each page's fingerprint.
    let digest: [UInt8]
    /// Of the values in `watchedNames`, those each template names (as a partial, section or
    /// value), as parsed: a theme copied before a list had pages, or before the home page linked
    /// to the full list, may show no way to the rest (`SiteBuilder.warnings`).
    private let naming: [String: Set<String>]
    static let watchedNames = ["pagination", "inProgressURL"]

    /// The built-in templates.
    public static func builtIn() throws(Diagnostics) -> Theme {
        try Theme(files: DefaultTheme.files.map { ($0.path, Array($0.contents.utf8)) }, folder: "(built-in)")
    }

    /// The theme in `folder` when that folder exists, else the built-in one.
    public static func builtIn(orFolder folder: String) throws(Diagnostics) -> Theme {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return try builtIn()
        }
        return try load(folder: folder)
    }

    /// The theme in `folder` (`Templates/`); every required template must be there.
    public static func load(folder: String) throws(Diagnostics) -> Theme {
        var files: [(String, [UInt8])] = []
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: folder) else {
            throw Diagnostics([Diagnostic(path: folder, message: "cannot read the templates folder")])
        }
        while let relative = enumerator.nextObject() as? String {
            let path = "\(folder)/\(relative)"
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            guard let data = manager.contents(atPath: path) else {
                throw Diagnostics([Diagnostic(path: path, message: "cannot read")])
            }
            files.append((relative, Array(data)))
        }
        return try Theme(files: files.sorted { $0.0 < $1.0 }, folder: folder)
    }

    init(files: [(String, [UInt8])], folder: String) throws(Diagnostics) {
        var templates: [String: [TemplateNode]] = [:]
        var textSize = 0
        var paths: [String: String] = [:]
        var statics: [(String, [UInt8])] = []
        var problems: [Diagnostic] = []
        var broken: Set<String> = []
        var naming: [String: Set<String>] = [:]
        for (relative, bytes) in files {
            let path = "\(folder)/\(relative)"
            if relative.hasPrefix("static/") {
                statics.append((String(relative.dropFirst("static/".count)), bytes))
                continue
            }
            guard relative.hasSuffix(".mustache"), !relative.contains("/") else { continue }
            let name = String(relative.dropLast(".mustache".count))
            broken.insert(name)
            guard String(validating: bytes, as: UTF8.self) != nil else {
                problems.append(Diagnostic(path: path, message: "is not valid UTF-8 text"))
                continue
            }
            do {
                // The old loader put a pragma before line 1; `legacyFirstLine` keeps its effect.
                let nodes = try TemplateParser.parse(bytes, legacyFirstLine: true)
                templates[name] = nodes
                naming[name] = Set(Self.watchedNames.filter { TemplateNode.name($0, in: nodes) })
                textSize = max(textSize, bytes.count)
                paths[name] = path
                broken.remove(name)
            } catch {
                let (line, column) = error.position(in: bytes)
                problems.append(
                    Diagnostic(
                        path: path, position: TextPosition(line: line, column: column), message: Self.describe(error.kind)))
            }
        }
        for name in Self.requiredTemplates where paths[name] == nil && !broken.contains(name) {
            problems.append(Diagnostic(path: "\(folder)/\(name).mustache", message: "missing template '\(name)'"))
        }
        guard problems.isEmpty else { throw Diagnostics(problems) }
        self.program = TemplateProgram(templates: templates)
        guard program.isConsistent else {
            throw Diagnostics([Diagnostic(path: folder, message: "internal error: the templates compiled inconsistently")])
        }
        self.templatePaths = paths
        self.staticFiles = statics
        self.outputCapacity = 4 * textSize + 8192
        var hasher = SHA256()
        for (relative, bytes) in files {
            for part in [Array(relative.utf8), bytes] {
                withUnsafeBytes(of: UInt64(part.count).littleEndian) { hasher.update(bufferPointer: $0) }
                part.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            }
        }
        self.digest = Array(hasher.finalize())
        self.naming = naming
    }

    /// Whether the template `template` names `value`, one of `watchedNames` (as a partial, section
    /// or value), outside comments and text.
    func names(_ value: String, in template: String) -> Bool { naming[template]?.contains(value) ?? false }

    /// Renders the template `name` with `context`; a value the template names that the context
    /// lacks is an error, never silently empty output.
    func render(_ name: String, _ context: [String: Any]) throws(Diagnostics) -> [UInt8] {
        guard let rendered = TemplateRenderer.render(program, template: name, root: context, capacity: outputCapacity)
        else {
            throw Diagnostics([.plain("missing template '\(name)'")])
        }
        let path = templatePaths[name] ?? name
        if let missing = rendered.missing {
            throw Diagnostics([
                Diagnostic(
                    path: path,
                    message: "unknown variable '\(missing)' (not a value of this page or any template it includes)")
            ])
        }
        if rendered.tooDeep {
            throw Diagnostics([
                Diagnostic(
                    path: path,
                    message: "templates nest more than \(TemplateRenderer.depthLimit) deep: does a partial or block include itself?")
            ])
        }
        // Pages stay in memory until the site is written: keep no spare capacity.
        let output = rendered.output
        guard output.capacity > output.count + output.count / 8 else { return output }
        return Array(unsafeUninitializedCapacity: output.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: output)
        }
    }

    static func describe(_ error: TemplateSyntaxError.Kind) -> String {
        switch error {
        case .closingNameMismatch: "a section is closed with a different name than it was opened with"
        case .unfinishedTag: "unfinished tag"
        case .unclosedSection: "a section is not closed"
        case .invalidDelimiters: "invalid delimiter change"
        case .illegalTagInsideParent: "illegal tag inside an inheritance section: only {{$block}} overrides may be there"
        case .transform: "transforms such as {{uppercased(name)}} are not supported: give the page the value it needs"
        case .pragma: "pragmas ({{% …}}) are not supported"
        case .dynamicPartial: "dynamic partials ({{>*name}}) are not supported"
        case .emptyName: "a tag without a name"
        case .tooDeep: "sections nest more than \(TemplateParser.depthLimit) deep"
        }
    }
}

extension Theme {
    /// The default templates and static files, for `prolific init` to write out.
    public static var defaultFiles: [(path: String, contents: String)] { DefaultTheme.files }
}
