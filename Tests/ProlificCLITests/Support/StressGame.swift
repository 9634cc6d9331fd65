import Foundation

/// A game for the crash and concurrency tests: `prolific init`, players written straight to their
/// profiles (hundreds of `user add` runs would take most of a test's time), and project `moon`,
/// started at `Moment.start` with rounds of a year, so every `--now` the tests use is inside one.
final class StressGame {
    let folder: TemporaryFolder
    var root: URL { folder.url.appendingPathComponent("game") }
    var content: URL { root.appendingPathComponent("Content") }
    var site: URL { root.appendingPathComponent("Site") }

    init(players: [String], rounds: Int = 9999) throws {
        folder = try TemporaryFolder()
        try expectSuccess(CLI.run(["init", "game", "--title", "Stress"], in: folder.url))
        for handle in players {
            let profile = "---\nname: \(handle.uppercased())\njoined: \(Moment.joined)\n---\n"
            try folder.write(profile, to: "game/Content/users/\(handle).md")
        }
        try expectSuccess(
            run(
                ["project", "new", "moon", "--title", "Moon", "--owner", players[0], "--rounds", "\(rounds)", "--round-length", "365d"],
                now: Moment.start, input: "The moon was late."))
    }

    /// Runs `prolific arguments… --content CONTENT --now NOW` and waits for it.
    func run(_ arguments: [String], now: String, input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", content.path, "--now", now], in: root, input: input)
    }

    /// `run`, failing unless it succeeds; returns what it printed.
    @discardableResult
    func succeed(_ arguments: [String], now: String, input: String = "") throws -> String {
        try expectSuccess(run(arguments, now: now, input: input)).stdout
    }

    /// `prolific check`: its result, for the caller to expect status 0.
    func check(now: String) throws -> CLI.Result { try run(["check"], now: now) }

    /// The content (temporary files included) at the last `checkIfChanged` that passed.
    private var checked: [String: Data]? = nil

    /// `check`, unless the content is byte for byte what it was at the last check that passed:
    /// it reads nothing else (and the tests only move `--now` forward), so it would pass again.
    /// Nil when skipped.
    func checkIfChanged(now: String) throws -> CLI.Result? {
        let content = Self.tree(content).filter { !$0.key.hasPrefix(".prolific/") }
        if content == checked { return nil }
        let result = try check(now: now)
        checked = result.status == 0 ? content : nil
        return result
    }

    /// Writes `text` to `relative` (inside the content folder), as a command would.
    func write(_ text: String, to relative: String) throws { try folder.write(text, to: "game/Content/\(relative)") }

    /// The path of `relative` (inside the content folder).
    func path(_ relative: String) -> String { content.appendingPathComponent(relative).path }

    func roundFolder(_ number: Int) -> String { "projects/moon/rounds/\(String(format: "%04d", number))" }

    /// Every file of the content (path inside it → bytes), without the derived `.prolific/` cache
    /// and without temporary files, which `temporaries` lists.
    func files() -> [String: Data] { Self.tree(content).filter { !$0.key.hasPrefix(".prolific/") && !Self.isTemporary($0.key) } }

    /// The temporary files a killed write left in the content, by path inside it.
    func temporaries() -> [String] { Self.tree(content).keys.filter(Self.isTemporary).sorted() }

    static func isTemporary(_ path: String) -> Bool { path.split(separator: "/").last?.hasPrefix(".prolific-tmp-") == true }

    /// Every regular file under `folder`, by path inside it, with its bytes; empty if there is none.
    static func tree(_ folder: URL) -> [String: Data] {
        let root = folder.standardizedFileURL.path + "/"
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + relative, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            result[relative] = FileManager.default.contents(atPath: root + relative)
        }
        return result
    }

    /// The paths of the files that differ between two trees: changed, added or removed.
    static func differences(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// A snippet file as `submit` writes it.
    static func submission(author: String, at now: String, body: String) -> String {
        "---\nauthor: \(author)\nsubmitted: \(now)\nending: false\n---\n\n\(body)\n"
    }

    /// A ballot file as `vote` writes it.
    static func ballot(voter: String, at now: String, for ids: [String]) -> String {
        "voter: \(voter)\ncast: \(now)\nfor:\n" + ids.map { "- \($0)\n" }.joined()
    }
}

/// The moments the stress games act at, as `--now` takes them: `Moment.start` plus some seconds.
enum Moment {
    static let joined = "2026-01-01T00:00:00Z"
    static let start = "2026-01-02T00:00:00Z"
    private static let startSeconds: TimeInterval = 1_767_312_000  // 2026-01-02T00:00:00Z

    /// `start` plus `seconds`.
    static func at(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: startSeconds + TimeInterval(seconds)))
    }

    /// The `yyyymmddhhmmss` of a submission id made at `moment`.
    static func idStamp(_ moment: String) -> String { moment.filter(\.isNumber) }
}

/// Fails the test with what the command printed unless it exited 0.
@discardableResult
func expectSuccess(_ result: CLI.Result) throws -> CLI.Result {
    guard result.status == 0 else {
        throw Shell.Failure(description: "exited \(result.status): \(result.stderr)\(result.stdout)")
    }
    return result
}
