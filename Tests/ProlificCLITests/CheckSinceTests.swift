import Foundation
import ProlificStore
import Testing

/// `prolific check --since REV`, run as CI runs it on a pull request: a game in a git repository
/// whose base commit is the maintainer's, then commits by several players.
@Suite(.enabled(if: SinceRepository.gitIsInstalled)) struct CheckSinceTests {
    let folder: TemporaryFolder
    let repo: SinceRepository
    /// The maintainer's commit: ann and bo (each listing their email), ann's project moon with
    /// round 1 open from 2026-01-02 to 2026-01-05.
    let base: String

    init() throws {
        folder = try TemporaryFolder()
        repo = SinceRepository(folder: folder.url.appendingPathComponent("game"))
        _ = try CLI.run(["init", "game"], in: folder.url)
        for (handle, name) in [("ann", "Ann Abel"), ("bo", "Bo Berg")] {
            _ = try CLI.run(
                ["user", "add", handle, "--name", name, "--content", "game/Content", "--now", "2026-01-01T00:00:00Z"], in: folder.url)
            let profile = "game/Content/users/\(handle).md"
            try folder.write("---\nemails: [\(handle)@example.org]\n" + (try folder.read(profile)).dropFirst(4), to: profile)
        }
        _ = try CLI.run(
            ["project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "3d", "--content", "game/Content",
             "--now", "2026-01-02T00:00:00Z"],
            in: folder.url, input: "The moon was late.\n")
        try repo.git("init", "--quiet")
        base = try repo.commit(as: "Keeper", "keeper@example.org", at: "2026-01-02T00:00:00Z")
    }

    func prolific(_ arguments: String..., now: String = "2026-01-04T00:00:00Z", input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", "Content", "--now", now], in: repo.folder, input: input)
    }

    /// bo's own snippet, a snippet he commits in ann's name, ann's ballot, and bo's edit of it.
    func playWithImpostor() throws -> (forged: String, edited: String) {
        #expect(try prolific("submit", "moon", "--author", "bo", now: "2026-01-02T10:00:00Z", input: "Bo's.").status == 0)
        try repo.commit(as: "Bo Berg", "bo@example.org", at: "2026-01-02T10:00:00Z")
        #expect(try prolific("submit", "moon", "--author", "ann", now: "2026-01-02T11:00:00Z", input: "Not Ann's.").status == 0)
        let forged = try repo.commit(as: "Bo Berg", "bo@example.org", at: "2026-01-02T11:00:00Z")
        #expect(try prolific("vote", "moon", "--voter", "ann", "bo-20260102100000", now: "2026-01-03T00:00:00Z").status == 0)
        try repo.commit(as: "Ann Abel", "ann@example.org", at: "2026-01-03T00:00:00Z")
        let ballot = repo.folder.appendingPathComponent("Content/projects/moon/rounds/0001/votes/ann.yml")
        let text = try String(contentsOf: ballot, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "bo-20260102100000", with: "ann-20260102110000").utf8).write(to: ballot)
        let edited = try repo.commit(as: "Bo Berg", "bo@example.org", at: "2026-01-03T01:00:00Z")
        return (forged, edited)
    }

    @Test func ownChangesPassAndTheContentIsStillChecked() throws {
        #expect(try prolific("submit", "moon", "--author", "bo", now: "2026-01-02T10:00:00Z", input: "Bo's.").status == 0)
        try repo.commit(as: "Bo Berg", "bo@example.org", at: "2026-01-02T10:00:00Z")
        #expect(try prolific("vote", "moon", "--voter", "ann", "bo-20260102100000", now: "2026-01-03T00:00:00Z").status == 0)
        try repo.commit(as: "Ann Abel", "ann@example.org", at: "2026-01-03T00:00:00Z")
        let passed = try prolific("check", "--since", base)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(passed.stdout == "")
        #expect(passed.stderr.contains("Checked 2 users, 1 project, 1 round, 1 snippet and 1 ballot: 0 errors, 0 warnings."))
        #expect(passed.stderr.contains("Checked 2 commits since '\(base)': 0 changes not allowed."))

        // A problem in the content as a whole still fails the check, with or without --since.
        let ballot = repo.folder.appendingPathComponent("Content/projects/moon/rounds/0001/votes/ann.yml")
        try Data("voter: ann\ncast: 2026-01-03T00:00:00Z\nfor: [ann-20260102100000]\n".utf8).write(to: ballot)
        try repo.commit(as: "Ann Abel", "ann@example.org", at: "2026-01-03T01:00:00Z")
        let failed = try prolific("check", "--since", base)
        #expect(failed.status == 1)
        #expect(failed.stdout == "Content/projects/moon/rounds/0001/votes/ann.yml:3:7: error: 'ann-20260102100000' is not a submission of round 1\n")
    }

    @Test func everyChangeNotAllowedIsListedWithItsFileCommitAndRule() throws {
        let (forged, edited) = try playWithImpostor()
        let result = try prolific("check", "--since", base)
        #expect(result.status == 1)
        let snippet = "Content/projects/moon/rounds/0001/submissions/ann-20260102110000.md"
        let ballot = "Content/projects/moon/rounds/0001/votes/ann.yml"
        #expect(
            result.stdout.split(separator: "\n") == [
                // The content check: ann's ballot now names her own snippet.
                "\(ballot):4:3: error: @ann votes for their own snippet 'ann-20260102110000'",
                "\(snippet):1:1: error: [not-owner] only @ann may add this snippet; bo@example.org is not one of the emails in "
                    + "@ann's profile (commit \(forged.prefix(7)) by Bo Berg <bo@example.org>)",
                "\(ballot):1:1: error: [not-owner] only @ann may change this ballot; bo@example.org is not one of the emails in "
                    + "@ann's profile (commit \(edited.prefix(7)) by Bo Berg <bo@example.org>)",
            ])
        #expect(result.stderr.contains("Checked 4 commits since '\(base)': 2 changes not allowed."))
    }

    @Test func jsonGivesEachChangeItsCommitAuthorAndRule() throws {
        let (forged, _) = try playWithImpostor()
        let result = try prolific("check", "--since", base, "--json")
        #expect(result.status == 1)
        let problems = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(problems.count == 3)
        let change = try #require(problems.first { $0["commit"] as? String == forged })
        #expect(change["path"] as? String == "Content/projects/moon/rounds/0001/submissions/ann-20260102110000.md")
        #expect(change["line"] as? Int == 1 && change["column"] as? Int == 1)
        #expect(change["severity"] as? String == "error")
        #expect(change["author"] as? String == "Bo Berg <bo@example.org>")
        #expect(change["rule"] as? String == "not-owner")
        #expect(change["message"] as? String == "only @ann may add this snippet; bo@example.org is not one of the emails in @ann's profile")
        // A problem of the content as a whole has no commit.
        #expect(problems.filter { $0["commit"] == nil }.map { $0["message"] as? String } == ["@ann votes for their own snippet 'ann-20260102110000'"])
    }

    @Test func theForgeLoginComesFromTheOptionOrTheEnvironment() throws {
        let profile = repo.folder.appendingPathComponent("Content/users/bo.md")
        let text = try String(contentsOf: profile, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "emails:", with: "forge: bo-gh\nemails:").utf8).write(to: profile)
        try repo.commit(as: "Keeper", "keeper@example.org", at: "2026-01-02T00:00:00Z")
        let base = try #require(repo.output("rev-parse", "HEAD"))
        #expect(try prolific("submit", "moon", "--author", "bo", now: "2026-01-02T10:00:00Z", input: "Bo's.").status == 0)
        try repo.commit(as: "Bo Berg", "bo@example.org", at: "2026-01-02T10:00:00Z")

        #expect(try prolific("check", "--since", base, "--forge-login", "bo-gh").status == 0)
        let other = try prolific("check", "--since", base, "--forge-login", "mallory")
        #expect(other.status == 1)
        #expect(
            other.stdout.contains(
                "error: [forge-login] only @bo may add this snippet; @bo's profile names forge login 'bo-gh', "
                    + "but the pull request is by 'mallory'"))
        let fromEnvironment = try repo.prolific(["check", "--since", base], environment: ["PROLIFIC_FORGE_LOGIN": "mallory"])
        #expect(fromEnvironment.status == 1)
        #expect(fromEnvironment.stdout.contains("[forge-login]"))
        #expect(try repo.prolific(["check", "--since", base], environment: ["PROLIFIC_FORGE_LOGIN": "bo-gh"]).status == 0)
    }

    @Test func aBadRevisionOrNoRepositoryIsOneClearError() throws {
        let bad = try prolific("check", "--since", "no-such-branch")
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(
            bad.stderr
                == "error: 'no-such-branch' is not a commit of the repository; --since takes a revision such as origin/main or a commit id\n")
        // With --json, standard output is still a list of problems: this one.
        let json = try prolific("check", "--since", "no-such-branch", "--json")
        #expect(json.status == 1)
        #expect(json.stderr == bad.stderr)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        #expect(listed.count == 1)
        #expect(listed.first?["severity"] as? String == "error")
        #expect(
            listed.first?["message"] as? String
                == "'no-such-branch' is not a commit of the repository; --since takes a revision such as origin/main or a commit id")
        let login = try prolific("check", "--since", base, "--forge-login", "not a login")
        #expect(login.status != 0 && login.stderr.contains("--forge-login 'not a login' is not a forge login"))
        let alone = try prolific("check", "--forge-login", "bo-gh")
        #expect(alone.status != 0 && alone.stderr.contains("--forge-login goes with --since"))

        let elsewhere = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: elsewhere.url)
        if SinceRepository(folder: elsewhere.url).output("rev-parse", "--show-prefix") == nil {
            let outside = try CLI.run(["check", "--content", "game/Content", "--since", "HEAD"], in: elsewhere.url)
            #expect(outside.status == 1)
            #expect(
                outside.stderr
                    == "error: 'game/Content' is not in a git repository; --since judges the commits since a revision, so it needs one\n")
            let outsideJSON = try CLI.run(["check", "--content", "game/Content", "--since", "HEAD", "--json"], in: elsewhere.url)
            #expect(outsideJSON.status == 1)
            #expect(outsideJSON.stderr == outside.stderr)
            let listed = try JSONSerialization.jsonObject(with: Data(outsideJSON.stdout.utf8)) as? [[String: Any]]
            #expect(listed?.map { $0["message"] as? String } == [String(outside.stderr.dropFirst("error: ".count).dropLast())])
        }
    }
}

/// git for these tests: no user or system configuration, fixed identities and times.
struct SinceRepository {
    let folder: URL

    static let gitIsInstalled: Bool = SinceRepository(folder: FileManager.default.temporaryDirectory).output("--version") != nil

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Commits everything as `name <email>` at `time`; returns the commit's id.
    @discardableResult
    func commit(as name: String, _ email: String, at time: String) throws -> String {
        try git("add", "-A")
        let seconds = try #require(ISO8601DateFormatter().date(from: time)).timeIntervalSince1970
        let date = "\(Int(seconds)) +0000"
        let (status, output) = run(
            ["git", "-c", "user.name=\(name)", "-c", "user.email=\(email)", "commit", "--quiet", "--allow-empty", "-m", "at \(time)"],
            environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        guard status == 0 else { throw Failure(description: "git commit failed: \(output)") }
        return try #require(self.output("rev-parse", "HEAD"))
    }

    func git(_ arguments: String...) throws {
        let (status, output) = run(["git"] + arguments)
        guard status == 0 else { throw Failure(description: "git \(arguments.joined(separator: " ")) failed: \(output)") }
    }

    /// The trimmed output, or nil when git fails.
    func output(_ arguments: String...) -> String? {
        let (status, output) = run(["git"] + arguments)
        return status == 0 ? output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// Runs the prolific under test here with `--content Content`, with extra environment variables.
    func prolific(_ arguments: [String], environment: [String: String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments + ["--content", "Content", "--now", "2026-01-04T00:00:00Z"]
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let waitForExit = try process.spawn()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        waitForExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments.first == "git"
            ? ["git", "-C", folder.path, "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"] + arguments.dropFirst()
            : arguments
        var env = ProcessInfo.processInfo.environment
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let waitForExit: () -> Void
        do { waitForExit = try process.spawn() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        waitForExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
