import Foundation
import ProlificCore
import ProlificSite
import ProlificStore

/// One build of the site, as `build` and `serve` run it: load and check the content, pick the
/// theme, render, swap the new site in.
struct SiteRun {
    var global: GlobalOptions
    /// The folder the site is written to.
    var out: String
    /// `--templates`, if given.
    var templates: String?
    /// Whether to show `pages done / total` while rendering (on a terminal, without `--quiet`).
    var showsProgress: Bool

    struct Summary {
        var pages: Int
        var files: Int
        var seconds: Double
        /// Files whose bytes changed since the previous site; the others were kept.
        var written: Int
        /// Seconds spent in each phase, in order: load, render, write.
        var phases: [(name: String, seconds: Double)]

        func line(out: String) -> String {
            "Built \(pages) pages (\(files) files, \(written) changed) into \(out)/ in \(String(format: "%.2f", seconds)) s."
        }
    }

    func run() throws -> Summary {
        let start = Date()
        var phases: [(name: String, seconds: Double)] = []
        var mark = start
        func lap(_ name: String) {
            let now = Date()
            phases.append((name, now.timeIntervalSince(mark)))
            mark = now
        }
        let game = global.game
        let content = try game.reader.loadValid()
        let theme = try loadTheme()
        let evidence = game.reader.evidence(content.config)
        lap("load")
        let progress = showsProgress ? Progress() : nil
        let builder = SiteBuilder(
            content: content, theme: theme, now: game.now, evidence: evidence)
        var files = try builder.build(progress: progress.map { p in { p.show($0, $1) } })
        progress?.finish()
        for path in builder.mediaToCopy {
            files.append(OutputFile(path: path, contents: try game.reader.mediaBytes(path)))
        }
        lap("render")
        let report = try SiteWriter.write(files, to: out)
        lap("write")
        return Summary(
            pages: files.filter { $0.path.hasSuffix(".html") }.count, files: files.count,
            seconds: Date().timeIntervalSince(start), written: report.written, phases: phases)
    }

    func loadTheme() throws -> Theme {
        if let templates { return try Theme.load(folder: templates) }
        return try Theme.builtIn(orFolder: Self.templatesBeside(global.content))
    }

    /// `Templates/` beside the content directory, relative to the working folder when inside it.
    static func templatesBeside(_ content: String) -> String {
        let beside = URL(fileURLWithPath: content).deletingLastPathComponent().appendingPathComponent("Templates").path
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return beside.hasPrefix(cwd) ? String(beside.dropFirst(cwd.count)) : beside
    }

    /// `Rendering 120/431 pages` on one rewritten terminal line, at most ten times a second.
    final class Progress {
        private var last = Date.distantPast

        func show(_ done: Int, _ total: Int) {
            let now = Date()
            guard done == total || now.timeIntervalSince(last) >= 0.1 else { return }
            last = now
            FileHandle.standardError.write(Data("\r\u{1B}[2KRendering \(done)/\(total) pages".utf8))
        }

        func finish() { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
