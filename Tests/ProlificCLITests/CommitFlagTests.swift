import Foundation
import Testing

/// `--commit` on every command that changes content: one commit per command, of exactly its files.
@Suite struct CommitFlagTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
    }

    func run(_ arguments: String..., now: String = "2026-01-01T02:00:00Z", input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url, input: input)
    }

    /// Runs git in the game folder with a fixed identity and no user or system configuration.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try Shell.run(["git"] + arguments, in: folder.url.appendingPathComponent("game"), environment: Shell.gitEnvironment).output
    }

    /// Makes the game folder a repository whose own configuration says who commits, since
    /// `prolific` runs git with the user's configuration, which a test machine may lack.
    func makeRepository() throws {
        try git("init", "--quiet")
        try git("config", "user.name", "Keeper")
        try git("config", "user.email", "keeper@example.org")
        try git("config", "commit.gpgsign", "false")
    }

    /// The subject of the last commit and the files it changed, with their status letters.
    func lastCommit() throws -> (subject: String, files: [String]) {
        let subject = try git("log", "-1", "--format=%s").trimmingCharacters(in: .whitespacesAndNewlines)
        let files = try git("show", "--format=", "--name-status", "HEAD").split(separator: "\n").map(String.init)
        return (subject, files)
    }

    /// `close --commit` moves git's `HEAD` but changes none of the evidence the replay reads (who
    /// committed each profile and ballot): the build after it adds the closed round to the last
    /// build's replay instead of replaying the game.
    @Test func aBuildAfterACommittedCloseAddsTheRoundToTheReplay() throws {
        try makeRepository()
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "init")
        for name in ["ann", "bo"] { _ = try run("user", "add", name, "--name", name, "--commit", now: "2026-01-01T00:00:00Z") }
        _ = try run(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "2d", "--commit",
            now: "2026-01-01T00:00:00Z", input: "Start.")
        _ = try run("submit", "moon", "--author", "bo", "--commit", now: "2026-01-01T01:00:00Z", input: "Bo's.")
        _ = try run("vote", "moon", "--voter", "ann", "bo-20260101010000", "--commit")
        _ = try run("close", "moon", "--commit", now: "2026-01-02T00:00:00Z")
        _ = try run("submit", "moon", "--author", "bo", "--commit", now: "2026-01-02T01:00:00Z", input: "More.")
        _ = try run("vote", "moon", "--voter", "ann", "bo-20260102010000", "--commit", now: "2026-01-02T02:00:00Z")
        // Files changed in the last two seconds vouch for nothing: a replay is saved only when
        // the closed round's files are older.
        Thread.sleep(forTimeInterval: 2.1)
        let first = try run("build", "--out", "site", "--timings", now: "2026-01-02T03:00:00Z")
        #expect(first.status == 0 && first.stderr.contains("1 closed round replayed"), "\(first.stderr)")
        // The first close read git's whole history and kept it; this build reads only the close's,
        // the submission's and the ballot's commits.
        #expect(first.stderr.contains("git's evidence: 3 commits added to the last read"), "\(first.stderr)")
        let closed = try run("close", "moon", "--commit", now: "2026-01-03T00:00:00Z")
        #expect(closed.stderr.contains("Committed "), "\(closed.stderr)")
        Thread.sleep(forTimeInterval: 2.1)
        let second = try run("build", "--out", "site", "--timings", now: "2026-01-03T01:00:00Z")
        // With the tally `close` made and handed over: git's word on its ballots is the same.
        #expect(second.stderr.contains("1 closed round added to the last build's replay of 1, as close tallied it"), "\(second.stderr)")
        #expect(second.stderr.contains("git's evidence: 1 commit added to the last read"), "\(second.stderr)")
        // Nothing committed since: kept as it was.
        let third = try run("build", "--out", "site", "--timings", now: "2026-01-03T02:00:00Z")
        #expect(third.stderr.contains("git's evidence kept from the last read (HEAD unmoved)"), "\(third.stderr)")
        // A snippet and a ballot committed to the open round: nothing a closed round's tally reads.
        _ = try run("submit", "moon", "--author", "bo", "--commit", now: "2026-01-03T02:00:00Z", input: "Third.")
        _ = try run("vote", "moon", "--voter", "ann", "bo-20260103020000", "--commit", now: "2026-01-03T03:00:00Z")
        Thread.sleep(forTimeInterval: 2.1)
        let fourth = try run("build", "--out", "site", "--timings", now: "2026-01-03T04:00:00Z")
        #expect(fourth.stderr.contains("git's evidence: 2 commits added to the last read"), "\(fourth.stderr)")
        #expect(fourth.stderr.contains("replay of 2 closed rounds kept from the last build"), "\(fourth.stderr)")
    }

    /// `check` reads git's evidence from the cache `build` keeps, with the commits since, and
    /// changes nothing in the content directory, not even that cache.
    @Test func checkReadsTheKeptEvidenceAndWritesNothing() throws {
        try makeRepository()
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "init")
        _ = try run("user", "add", "ann", "--name", "Ann", "--commit")
        let cache = folder.url.appendingPathComponent("game/Content/.prolific/evidence.cache")
        #expect(try run("check").status == 0)
        #expect(!FileManager.default.fileExists(atPath: cache.path), "check saved git's evidence")
        #expect(try run("build", "--out", "site", "--quiet").status == 0)
        let kept = try Data(contentsOf: cache)
        _ = try run("user", "add", "bo", "--name", "Bo", "--commit")
        let checked = try run("check")
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(try Data(contentsOf: cache) == kept)
    }

    /// A build reads git's evidence beside the content, but keeps it only once the content has
    /// loaded: a build refused for its content leaves the cache as it was, and the next one
    /// adds the commits since to it.
    @Test func aRefusedBuildKeepsNoEvidence() throws {
        try makeRepository()
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "init")
        _ = try run("user", "add", "ann", "--name", "Ann", "--commit")
        #expect(try run("build", "--out", "site", "--quiet").status == 0)
        let cache = folder.url.appendingPathComponent("game/Content/.prolific/evidence.cache")
        let kept = try Data(contentsOf: cache)
        _ = try run("user", "add", "bo", "--name", "Bo", "--commit")
        let profile = folder.url.appendingPathComponent("game/Content/users/bo.md")
        let good = try Data(contentsOf: profile)
        try Data("---\nname: [Bo\n---\n".utf8).write(to: profile)
        let refused = try run("build", "--out", "site", "--quiet")
        #expect(refused.status != 0 && refused.stderr.contains("users/bo.md"), "\(refused.stderr)")
        #expect(try Data(contentsOf: cache) == kept, "a refused build saved git's evidence")
        try good.write(to: profile)
        let built = try run("build", "--out", "site", "--timings")
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr.contains("git's evidence: 1 commit added to the last read"), "\(built.stderr)")
        #expect(try Data(contentsOf: cache) != kept)
    }

    @Test func everyMutatingCommandCommitsItsOwnFiles() throws {
        try makeRepository()
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "init")

        #expect(try run("user", "add", "ann", "--name", "Ann", "--commit", now: "2026-01-01T00:00:00Z").status == 0)
        #expect(try lastCommit() == ("prolific: add user @ann", ["A\tContent/users/ann.md"]))
        _ = try run("user", "add", "bo", "--name", "Bo", "--commit", now: "2026-01-01T00:00:00Z")

        let started = try run(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "2d", "--commit",
            now: "2026-01-01T00:00:00Z", input: "Start.")
        #expect(started.stderr.contains("Committed "), "\(started.stderr)")
        #expect(
            try lastCommit() == (
                "prolific: start project moon",
                ["A\tContent/projects/moon/project.md", "A\tContent/projects/moon/rounds/0001/round.md"]
            ))

        // Standard output stays what scripts read; the commit is reported on standard error.
        let submitted = try run("submit", "moon", "--author", "bo", "--commit", now: "2026-01-01T01:00:00Z", input: "Bo's.")
        #expect(submitted.stdout == "bo-20260101010000\n")
        #expect(try lastCommit() == ("prolific: submit bo-20260101010000 to moon", ["A\tContent/projects/moon/rounds/0001/submissions/bo-20260101010000.md"]))

        _ = try run("vote", "moon", "--voter", "ann", "bo-20260101010000", "--commit")
        #expect(try lastCommit() == ("prolific: vote of @ann in round 1 of moon", ["A\tContent/projects/moon/rounds/0001/votes/ann.yml"]))

        _ = try run("follow", "bo", "--project", "moon", "--commit")
        #expect(try lastCommit() == ("prolific: @bo follows project 'moon'", ["M\tContent/users/bo.md"]))
        let unchanged = try run("follow", "bo", "--project", "moon", "--commit")
        #expect(unchanged.status == 0 && unchanged.stderr.contains("Nothing to commit"))
        _ = try run("unfollow", "bo", "--project", "moon", "--commit")
        #expect(try lastCommit().subject == "prolific: @bo unfollows project 'moon'")

        _ = try run("close", "moon", "--commit", now: "2026-01-02T00:00:00Z")
        #expect(
            try lastCommit() == (
                "prolific: close round 1 of moon (winner bo-20260101010000)",
                ["M\tContent/projects/moon/rounds/0001/round.md", "A\tContent/projects/moon/rounds/0002/round.md"]
            ))

        _ = try run("new", "submission", "moon", "--author", "ann", "--file", "-", "--commit", now: "2026-01-02T01:00:00Z", input: "Ann's.")
        #expect(try lastCommit().subject == "prolific: new submission ann-20260102010000 to moon")
        _ = try run("new", "ballot", "moon", "--voter", "bo", "ann-20260102010000", "--commit", now: "2026-01-02T02:00:00Z")
        #expect(try lastCommit().subject == "prolific: new ballot of @bo in round 2 of moon")

        let due = try run("close", "--due", "--commit", now: "2026-01-05T00:00:00Z")
        #expect(due.status == 0, "\(due.stderr)")
        #expect(try lastCommit().subject == "prolific: close round 2 of moon (winner ann-20260102010000)")
        #expect(try git("status", "--porcelain").isEmpty)

        // Nothing due: said once, without a "nothing to commit" after it.
        let nothing = try run("close", "--due", "--commit", now: "2026-01-05T00:00:00Z")
        #expect(nothing.status == 0 && nothing.stdout == "No round is due at 2026-01-05T00:00:00Z.\n")
        #expect(nothing.stderr.isEmpty, "\(nothing.stderr)")

        _ = try run("user", "remove", "bo", "--commit", now: "2026-01-05T01:00:00Z")
        #expect(try lastCommit().subject == "prolific: remove user @bo")
    }

    @Test func withoutARepositoryCommitIsRefusedBeforeAnythingChanges() throws {
        // The temporary folder is not inside a repository (unless the machine's is).
        guard (try? git("rev-parse", "--is-inside-work-tree")) == nil else { return }
        let before = try folder.snapshot("game/Content")
        let result = try run("user", "add", "ann", "--name", "Ann", "--commit")
        #expect(result.status == 1)
        #expect(result.stderr == "error: --commit: 'game/Content' is not in a git repository; run 'git init' in the game's folder, 'game', or leave out --commit\n")
        #expect(try folder.snapshot("game/Content") == before)
    }

    @Test func aFailedCommitLeavesTheChangeAndSaysSo() throws {
        try makeRepository()
        try folder.write("#!/bin/sh\necho 'hooks say no' >&2\nexit 1\n", to: "game/.git/hooks/pre-commit")
        chmod(folder.url.appendingPathComponent("game/.git/hooks/pre-commit").path, 0o755)
        let result = try run("user", "add", "ann", "--name", "Ann", "--commit")
        #expect(result.status == 1)
        #expect(result.stdout == "Added @ann (Ann).\n")
        #expect(result.stderr.contains("error: --commit: the change was made but not committed: 'git commit' failed: hooks say no"))
        #expect(folder.exists("game/Content/users/ann.md"))
    }
}
