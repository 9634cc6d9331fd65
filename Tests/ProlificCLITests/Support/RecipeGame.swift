import Foundation

/// A game in a git repository with a bare `origin` beside it, set in the real present: the
/// workflows and the cron script run `prolific` on the clock, as they would on a server.
///
/// Project `moon` opened 10 days ago with rounds of 7 days: its round is due, with snippets by bo
/// and cy and ann's ballot for cy's. Project `sun` opened an hour ago: its round is open. Each
/// player `x` commits as `x@example.org` and is `x-gh` on the forge.
final class RecipeGame {
    let folder: TemporaryFolder
    var game: URL { folder.url.appendingPathComponent("game") }
    var origin: URL { folder.url.appendingPathComponent("origin.git") }
    /// What every program the test starts sees: git without the machine's configuration.
    let environment: [String: String]

    init() throws {
        folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data().write(to: home.appendingPathComponent(".gitconfig"))
        environment = [
            "HOME": home.path, "GIT_CONFIG_GLOBAL": home.appendingPathComponent(".gitconfig").path,
            "GIT_CONFIG_NOSYSTEM": "1",
            "PATH": CLI.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
        ]
        try Shell.run(["git", "init", "--quiet", "--bare", "--initial-branch=main", origin.path], in: folder.url, environment: environment)
        try prolific(["init", "game", "--title", "Recipes"], in: folder.url)
        try git("init", "--quiet", "--initial-branch=main")
        try git("config", "user.name", "Keeper")
        try git("config", "user.email", "keeper@example.org")
        try git("config", "commit.gpgsign", "false")
        try git("remote", "add", "origin", origin.path)

        for handle in ["ann", "bo", "cy"] {
            try prolific(["user", "add", handle, "--name", handle.capitalized, "--now", Self.ago(days: 20)])
            // Who may commit the player's files, for `check --since`: their email and forge login.
            let profile = game.appendingPathComponent("Content/users/\(handle).md")
            var parts = try String(contentsOf: profile, encoding: .utf8).components(separatedBy: "\n---\n")
            parts[0] += "\nemails: [\(handle)@example.org]\nforge: \(handle)-gh"
            try Data(parts.joined(separator: "\n---\n").utf8).write(to: profile)
        }
        try prolific(
            ["project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "7d", "--now", Self.ago(days: 10)],
            input: "The moon was late.")
        try prolific(
            ["project", "new", "sun", "--title", "Sun", "--owner", "ann", "--round-length", "7d", "--now", Self.ago(hours: 1)],
            input: "The sun was early.")
        try prolific(["submit", "moon", "--author", "bo", "--now", Self.ago(days: 9)], input: "Bo's turn.")
        let cy = try prolific(["submit", "moon", "--author", "cy", "--now", Self.ago(days: 9, hours: -1)], input: "Cy's turn.")
        cyMoon = cy.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try prolific(["vote", "moon", "--voter", "ann", cyMoon, "--now", Self.ago(days: 8)])
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "The game so far")
        try git("push", "--quiet", "--set-upstream", "origin", "main")
    }

    /// cy's snippet in moon's due round: the winner when it closes.
    private(set) var cyMoon = ""

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try Shell.run(["git"] + arguments, in: game, environment: environment).output
    }

    /// Runs the prolific under test in the game's folder (or in `directory`).
    @discardableResult
    func prolific(_ arguments: [String], in directory: URL? = nil, input: String = "") throws -> Shell.Result {
        try Shell.run([CLI.executable.path] + arguments, in: directory ?? game, environment: environment, input: input)
    }

    /// The subjects of the commits on origin's main, newest first.
    func originLog() throws -> [String] {
        try Shell.run(["git", "--git-dir", origin.path, "log", "--format=%s", "main"], in: folder.url, environment: environment)
            .output.split(separator: "\n").map(String.init)
    }

    /// A moment before now, as `--now` takes it.
    static func ago(days: Int = 0, hours: Int = 0) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let seconds = Date().timeIntervalSince1970.rounded(.down) - Double(days * 86_400 + hours * 3_600)
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
