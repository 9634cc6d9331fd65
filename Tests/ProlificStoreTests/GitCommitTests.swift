import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `--commit`: exactly the files an action changed, in one commit, nothing else.
@Suite(.enabled(if: Git.isInstalled)) struct GitCommitTests {
    let moon = Make.slug("moon")
    let world: Playground
    let git: Git

    /// A game repository whose top holds `Content/`, with everything committed.
    init() throws {
        world = try Playground()
        try world.standardSetup()
        git = Git(folder: world.directory.path)
        try git.run(["init", "--quiet"])
        // GitCommit runs git as the user would, so the identity must be the repository's own.
        try git.run(["config", "user.name", "Keeper"])
        try git.run(["config", "user.email", "keeper@example.org"])
        try git.run(["config", "commit.gpgsign", "false"])
        try git.commit(["Content"], as: "keeper@example.org", at: "2026-11-01T00:00:00Z")
    }

    @Test func commitsOnlyTheActionsFiles() throws {
        // Someone's unrelated, staged edit stays staged and out of the commit.
        try world.directory.append("# a note\n", to: "Content/prolific.yml")
        try git.run(["add", "Content/prolific.yml"])
        let game = world.game("2026-11-02T10:00:00Z")
        try GitCommit.checkReady(root: world.root)
        _ = try game.submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        let hash = try GitCommit.commit(game.changes.paths, root: world.root, message: "prolific: submit\n\nbody")
        #expect(hash != nil && hash == git.output(["rev-parse", "--short", "HEAD"]))
        #expect(git.output(["show", "--format=", "--name-only", "HEAD"]) == "Content/projects/moon/rounds/0001/submissions/bob-20261102100000.md")
        #expect(git.output(["log", "-1", "--format=%B"]) == "prolific: submit\n\nbody")
        #expect(git.output(["diff", "--cached", "--name-only"]) == "Content/prolific.yml")
    }

    @Test func removedFilesAreCommittedAsRemovals() throws {
        let profile = world.directory.path("Content/users/cat.md")
        try FileManager.default.removeItem(atPath: profile)
        let never = world.directory.path("Content/users/dee.md")
        #expect(try GitCommit.commit([never], root: world.root, message: "nothing") == nil)
        #expect(try GitCommit.commit([profile, never], root: world.root, message: "prolific: remove @cat") != nil)
        #expect(git.output(["show", "--format=", "--name-status", "HEAD"]) == "D\tContent/users/cat.md")
    }

    @Test func anUnchangedFileIsNothingToCommit() throws {
        let head = git.output(["rev-parse", "HEAD"])
        #expect(try GitCommit.commit([world.directory.path("Content/users/ann.md")], root: world.root, message: "x") == nil)
        #expect(try GitCommit.commit([], root: world.root, message: "x") == nil)
        #expect(git.output(["rev-parse", "HEAD"]) == head)
    }

    @Test func outsideARepositoryItIsRefusedBeforeAnything() throws {
        let elsewhere = try Playground()
        guard Git(folder: elsewhere.root).output(["rev-parse", "--is-inside-work-tree"]) != "true" else { return }
        #expect(
            thrown { () throws(Diagnostics) in try GitCommit.checkReady(root: elsewhere.root) }
                == [
                    "error: --commit: '\(elsewhere.root)' is not in a git repository; run 'git init' in the game's folder, "
                        + "'\(elsewhere.root.dropLast("/Content".count))', or leave out --commit"
                ])
    }

    @Test func theGamesFolderHoldsTheContentDirectory() {
        #expect(GitCommit.gameFolder(of: "game/Content") == "game")
        #expect(GitCommit.gameFolder(of: "game/Content/") == "game")
        #expect(GitCommit.gameFolder(of: "Content") == ".")
        #expect(GitCommit.gameFolder(of: "/srv/tales/Content") == "/srv/tales")
        #expect(GitCommit.gameFolder(of: "/Content") == "/")
        #expect(GitCommit.gameFolder(of: ".") == "..")
    }

    @Test func aFailingCommitSaysTheChangeWasMade() throws {
        // A hook that refuses every commit stands in for any failure of git.
        try world.directory.write("#!/bin/sh\necho 'no commits today' >&2\nexit 1\n", to: ".git/hooks/pre-commit")
        chmod(world.directory.path(".git/hooks/pre-commit"), 0o755)
        let game = world.game("2026-11-02T10:00:00Z")
        _ = try game.submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        let failure = thrown { () throws(Diagnostics) in try GitCommit.commit(game.changes.paths, root: world.root, message: "x") }
        #expect(failure == ["error: --commit: the change was made but not committed: 'git commit' failed: no commits today"])
        #expect(world.directory.exists("Content/projects/moon/rounds/0001/submissions/bob-20261102100000.md"))
    }

    @Test func pathsAreTakenRelativeToTheContentDirectory() {
        #expect(GitCommit.relativePath("Content/users/ann.md", root: "Content") == "users/ann.md")
        #expect(GitCommit.relativePath("Content/users/ann.md", root: "Content/") == "users/ann.md")
        #expect(GitCommit.relativePath("./users/ann.md", root: ".") == "users/ann.md")
        #expect(GitCommit.relativePath("/srv/game/Content/prolific.yml", root: "/srv/game/Content") == "prolific.yml")
    }
}
