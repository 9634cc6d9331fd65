import ArgumentParser
import Foundation
import ProlificCore
import ProlificSite
import ProlificStore

/// `prolific init DIR`: a new game folder with its content directory and editable templates.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new game: DIR/Content (config and empty folders) and DIR/Templates.",
        discussion: """
            Run the other commands inside DIR: they read ./Content, render with ./Templates and write ./Site.
            """)

    @Argument(help: "The folder to create the game in (may exist, but must not hold a content directory).")
    var directory: String

    @Option(help: "The site's title.")
    var title: String = "Prolific"

    @Option(name: .customLong("base-url"), help: "The absolute URL the site will be published at.")
    var baseURL: String = "https://example.org/"

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            if let problem = TextRules.problem(withLine: title, named: "title", limit: TextRules.titleLimit) {
                throw Diagnostics([.plain(problem)])
            }
            guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
                throw Diagnostics([.plain("--base-url must be an absolute http(s) URL, found '\(baseURL)'")])
            }
            let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            let content = "\(root)/Content"
            try Game.initialize(root: content, config: .defaults(title: title, baseURL: baseURL))
            let templates = "\(root)/Templates"
            var wroteTemplates = false
            if !FileManager.default.fileExists(atPath: templates) {
                for file in Theme.defaultFiles {
                    let url = URL(fileURLWithPath: "\(templates)/\(file.path)")
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(file.contents.utf8).write(to: url)
                }
                wroteTemplates = true
            }
            let ignore = "\(root)/.gitignore"
            if !FileManager.default.fileExists(atPath: ignore) {
                // Besides the site and the caches: what a command or build killed midway leaves
                // (its temporary file, the site it was building), which the next one removes.
                try Data("/Site/\n/.Site.*/\n/Content/.prolific/\n.prolific-tmp-*\n".utf8).write(to: URL(fileURLWithPath: ignore))
            }
            print("Created \(content)\(wroteTemplates ? " and \(templates)" : "").")
            print("Next: cd \(root) && prolific user add HANDLE --name \"Your Name\"")
        }
    }
}
