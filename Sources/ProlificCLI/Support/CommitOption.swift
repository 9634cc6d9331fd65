import ArgumentParser
import ProlificCore
import ProlificStore

/// `--commit`, for every command that changes content: commits exactly the files the command
/// changed, with a message that says what it did.
///
/// A command calls `prepare` before its action, so a `--commit` that can't commit (no repository,
/// no git identity) is refused before anything changes, and `finish` after it. The commit is
/// reported on standard error, so what a command prints on standard output (an id, a path) stays
/// the same for scripts.
struct CommitOption: ParsableArguments {
    @Flag(
        name: .customLong("commit"),
        help: "Commit the changed files with git (the content directory must be in a git repository).")
    var enabled = false

    /// Before the action: with --commit, refuses unless git can commit in the content directory.
    func prepare(_ game: Game) throws(Diagnostics) {
        if enabled { try GitCommit.checkReady(root: game.layout.root) }
    }

    /// After the action: with --commit, commits the files `game` changed with `message` (a subject
    /// line, then optionally a blank line and more). Nothing changed is said, not an error, unless
    /// `quietIfUnchanged`: for a command that already said it had nothing to do.
    func finish(_ game: Game, message: @autoclosure () -> String, quietIfUnchanged: Bool = false) throws(Diagnostics) {
        guard enabled else { return }
        let text = message()
        if let hash = try GitCommit.commit(game.changes.paths, root: game.layout.root, message: text) {
            let subject = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
            Terminal.error("Committed \(hash): \(subject)")
        } else if !quietIfUnchanged {
            Terminal.error("Nothing to commit: no file changed.")
        }
    }
}
