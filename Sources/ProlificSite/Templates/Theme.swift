import Foundation
import Mustache
import ProlificCore

/// The templates and static files a site is rendered with: a `Templates/` folder, or the defaults
/// compiled into the binary when there is none.
///
/// Templates are Mustache (hummingbird-project/swift-mustache): logic-less, so a template a user
/// edits can't run code; `{{value}}` escapes HTML; it has no dependencies of its own and builds fast.
public struct Theme: Sendable {
    /// The pages every theme must provide, as `<name>.mustache`.
    public static let requiredTemplates = [
        "base", "index", "list", "project", "round", "user", "users", "badges", "leaderboard", "calendar", "search", "404",
        "card", "tags", "pagination", "avatar",
    ]

    let library: MustacheLibrary
    /// Where each template came from, for messages.
    let templatePaths: [String: String]
    /// Files copied as they are into the site, by their path inside it.
    public let staticFiles: [(path: String, contents: [UInt8])]

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
        HTMLEscaping.register()
        var library = MustacheLibrary()
        var paths: [String: String] = [:]
        var statics: [(String, [UInt8])] = []
        var problems: [Diagnostic] = []
        var broken: Set<String> = []
        for (relative, bytes) in files {
            let path = "\(folder)/\(relative)"
            if relative.hasPrefix("static/") {
                statics.append((String(relative.dropFirst("static/".count)), bytes))
                continue
            }
            guard relative.hasSuffix(".mustache"), !relative.contains("/") else { continue }
            let name = String(relative.dropLast(".mustache".count))
            broken.insert(name)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                problems.append(Diagnostic(path: path, message: "is not valid UTF-8 text"))
                continue
            }
            do {
                // Every template escapes with `HTMLEscaping`; the pragma adds nothing to the output.
                library.register(try MustacheTemplate(string: HTMLEscaping.pragma + text), named: name)
                paths[name] = path
                broken.remove(name)
            } catch let error as MustacheTemplate.ParserError {
                // The pragma sits before line 1's text: take its width off columns of line 1.
                let line = error.context.lineNumber
                let column = error.context.columnNumber - (line == 1 ? HTMLEscaping.pragma.count : 0)
                problems.append(
                    Diagnostic(
                        path: path, position: TextPosition(line: line, column: max(1, column)),
                        message: Self.describe(error.error)))
            } catch {
                problems.append(Diagnostic(path: path, message: "\(error)"))
            }
        }
        for name in Self.requiredTemplates where paths[name] == nil && !broken.contains(name) {
            problems.append(Diagnostic(path: "\(folder)/\(name).mustache", message: "missing template '\(name)'"))
        }
        guard problems.isEmpty else { throw Diagnostics(problems) }
        self.library = library
        self.templatePaths = paths
        self.staticFiles = statics
    }

    /// Renders the template `name` with `context`; a value the template names that the context
    /// lacks is an error, never silently empty output.
    func render(_ name: String, _ context: [String: Any]) throws(Diagnostics) -> String {
        let root = StrictContext(context)
        guard let text = library.render(root, withTemplate: name) else {
            throw Diagnostics([.plain("missing template '\(name)'")])
        }
        if let missing = root.missing.first {
            throw Diagnostics([
                Diagnostic(
                    path: templatePaths[name] ?? name,
                    message: "unknown variable '\(missing)' (not a value of this page or any template it includes)")
            ])
        }
        return text
    }

    static func describe(_ error: Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "a section is closed with a different name than it was opened with"
        case .unfinishedName: "unfinished tag"
        case .expectedSectionEnd: "a section is not closed"
        case .invalidSetDelimiter: "invalid delimiter change"
        case .transformAppliedToInheritanceSection: "a transform is applied to an inheritance section"
        case .illegalTokenInsideInheritSection: "illegal tag inside an inheritance section"
        case .textInsideInheritSection: "text inside an inheritance section"
        case .invalidConfigVariableSyntax: "invalid configuration tag"
        case .unrecognisedConfigVariable: "unrecognised configuration tag"
        case nil: "\(error)"
        }
    }
}

/// The root of a page's values: a name that reaches it without being found anywhere is recorded,
/// so a misspelt `{{titel}}` fails the build instead of rendering nothing.
final class StrictContext: MustacheParent, @unchecked Sendable {
    private let values: [String: Any]
    private(set) var missing: [String] = []

    init(_ values: [String: Any]) { self.values = values }

    func child(named name: String) -> Any? {
        if let value = values[name] { return value }
        if !missing.contains(name) { missing.append(name) }
        return nil
    }
}

extension Theme {
    /// The default templates and static files, for `prolific init` to write out.
    public static var defaultFiles: [(path: String, contents: String)] { DefaultTheme.files }
}
