import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The played game the hostile-input cases start from, made once per test run with the CLI:
/// three players (ann has a bio, bo follows the project), project `moon` with round 1 closed
/// and sealed (cy's alternate take hidden) and round 2 open with ann's snippet and bo's ballot,
/// and one reader's report. Every command below succeeds on it at `now`.
enum HostileGame {
    static let now = "2026-01-03T06:00:00Z"
    /// `PROLIFIC_STRESS=1` (`make stress`): every command on every case, and bigger inputs.
    static let stress = ProcessInfo.processInfo.environment["PROLIFIC_STRESS"] == "1"
    /// The most a command may take, even on two shared cores.
    static let timeout: Double = stress ? 60 : 10
    /// The most memory a command may use, in kilobytes.
    static let memoryLimit = 500 << 10

    /// With PROLIFIC_HOSTILE_LOG=FILE, each run's seconds, peak kilobytes and name are appended
    /// to FILE: the figures docs/reliability.md quotes.
    static func log(_ run: HostileFolderRun, _ what: String) {
        guard let path = ProcessInfo.processInfo.environment["PROLIFIC_HOSTILE_LOG"] else { return }
        let line =
            String(format: "%.3f\t%d\t", run.seconds, run.peakKilobytes) + what.replacingOccurrences(of: "\n", with: "\\n") + "\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        _ = line.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// A folder holding `game/Content` (no Templates: the built-in theme), the inputs commands
    /// read (`starter.md`, `snippet.md`, `bio.md`) and `outside/`, where links point.
    static let template: Result<URL, Error> = Result { try make() }

    /// The site `build` makes of the untouched game: an accepted change must give the same.
    static let baselineSite: Result<TreeSnapshot, Error> = Result {
        let game = try HostileCase.Folder(copying: try template.get())
        let site = game.root.deletingLastPathComponent().appendingPathComponent(game.root.lastPathComponent + "-site")
        defer { try? FileManager.default.removeItem(at: site) }
        let built = try MeasuredRun.run(
            ["build", "--out", site.path, "--content", "Content", "--now", now], in: game.game, timeout: 60)
        guard built.status == 0 else { throw Shell.Failure(description: "the baseline build failed: \(built.output)") }
        return TreeSnapshot(site)
    }

    private static func make() throws -> URL {
        let temporary = FileManager.default.temporaryDirectory
        removeLeftovers(in: temporary)
        let root = temporary.appendingPathComponent("prolific-hostile-template-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
        for (name, text) in [
            ("starter.md", "Once upon a time.\n"), ("snippet.md", "Then it rained.\n"), ("bio.md", "Ann writes.\n"),
        ] {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        func run(_ arguments: String..., at moment: String, input: String = "") throws {
            let result = try CLI.run(arguments + ["--content", "game/Content", "--now", moment], in: root, input: input)
            guard result.status == 0 else {
                throw Shell.Failure(description: "\(arguments.joined(separator: " ")): \(result.stderr)")
            }
        }
        let start = "2026-01-01T00:00:00Z"
        _ = try CLI.run(["init", "game"], in: root)
        try FileManager.default.removeItem(at: root.appendingPathComponent("game/Templates"))
        try run("user", "add", "ann", "--name", "Ann", "--file", "bio.md", at: start)
        try run("user", "add", "bo", "--name", "Bo", at: start)
        try run("user", "add", "cy", "--name", "Cy", at: start)
        try run("project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "2d", at: start, input: "Start.")
        try run("submit", "moon", "--author", "bo", at: "2026-01-01T01:00:00Z", input: "Bo's.")
        try run("submit", "moon", "--author", "cy", at: "2026-01-01T01:10:00Z", input: "Cy's.")
        try run("vote", "moon", "--voter", "ann", "bo-20260101010000", at: "2026-01-01T02:00:00Z")
        try run("close", "moon", at: "2026-01-03T02:00:00Z")
        try run("submit", "moon", "--author", "ann", at: "2026-01-03T03:00:00Z", input: "Ann's.")
        try run("vote", "moon", "--voter", "bo", "ann-20260103030000", at: "2026-01-03T04:00:00Z")
        try run("follow", "bo", "--project", "moon", at: "2026-01-03T04:10:00Z")
        try run(
            "moderate", "hide", "moon", "cy-20260101011000", "--by", "keeper", "--reason", "off topic", at: "2026-01-03T04:20:00Z"
        )
        let reports = root.appendingPathComponent("game/Content/reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try Data("---\nproject: moon\nsnippet: ann-20260103030000\nround: 2\n---\n\nThis is copied.\n".utf8)
            .write(to: reports.appendingPathComponent("dee-20260103050000.md"))
        try run("check", at: now)
        return root
    }

    /// Templates of earlier runs whose process is gone (a static is never deinitialized).
    private static func removeLeftovers(in folder: URL) {
        let prefix = "prolific-hostile-template-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(), kill(pid, 0) != 0,
                errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
