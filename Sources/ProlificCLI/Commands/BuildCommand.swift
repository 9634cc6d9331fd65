import ArgumentParser
import Foundation
import ProlificCore
import ProlificSite
import ProlificStore

/// `prolific build`: renders the content into a static site.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the content into a static site.",
        discussion: """
            Templates come from --templates, else from a Templates folder beside the content directory, else \
            from the defaults built into prolific. The site is written to a new folder and swapped in, so a \
            failed build leaves the previous site as it was.
            """)

    @Option(help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    var out: String = "Site"

    @Option(help: ArgumentHelp("The templates folder (default: Templates beside the content directory).", valueName: "dir"))
    var templates: String? = nil

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let start = Date()
            let game = global.game
            let content = try game.reader.loadValid()
            let theme = try loadTheme()
            let evidence = game.reader.evidence(content.config)
            let files = try SiteBuilder(content: content, theme: theme, now: game.now, evidence: evidence).build()
            try SiteWriter.write(files, to: out)
            let pages = files.filter { $0.path.hasSuffix(".html") }.count
            let seconds = Date().timeIntervalSince(start)
            Terminal.error("Built \(pages) pages (\(files.count) files) into \(out)/ in \(String(format: "%.2f", seconds)) s.")
        }
    }

    func loadTheme() throws -> Theme {
        if let templates { return try Theme.load(folder: templates) }
        let beside = URL(fileURLWithPath: global.content).deletingLastPathComponent().appendingPathComponent("Templates").path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: beside, isDirectory: &isDirectory), isDirectory.boolValue {
            return try Theme.load(folder: relative(beside))
        }
        return try Theme.builtIn()
    }

    /// Shows a templates path relative to the working folder when it is inside it, for shorter messages.
    func relative(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }
}
