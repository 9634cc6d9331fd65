import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct GitEvidenceParseTests {
    /// One record of `git log --format=%x1e%ae%x1f%ct --name-only`.
    func commit(_ email: String, _ seconds: Int64, _ paths: String...) -> String {
        "\u{1e}\(email)\u{1f}\(seconds)\n\n" + paths.map { $0 + "\n" }.joined()
    }

    func t(_ seconds: Int64) -> Timestamp { Timestamp(secondsSinceEpoch: seconds) }

    @Test func readsFirstProfileCommitsAndLastBallotCommits() {
        let log = [
            commit("keeper@example.org", 1_000, "Content/prolific.yml", "Content/users/ann.md"),
            commit("Bob@Example.org", 2_000, "Content/users/bob.md"),
            commit("ann@example.org", 2_500, "Content/users/ann.md"),
            commit("bob@example.org", 3_000, "Content/users/bob.md"),
            commit("dan@example.org", 4_000, "Content/users/dan.md", "Content/projects/moon/rounds/0001/votes/dan.yml"),
            commit("dan@example.org", 5_000, "Content/projects/moon/rounds/0001/votes/dan.yml"),
            commit("eve@example.org", 5_500, "Content/projects/moon/rounds/0002/votes/eve.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        // ann's profile was added by a maintainer: it is seen, and her own later commit is no evidence.
        #expect(
            evidence.firstCommits == [Make.handle("bob"): t(2_000), Make.handle("dan"): t(4_000)])
        #expect(
            evidence.ballotCommits == [
                "moon/0001": [Make.handle("dan"): IdentityEvidence.Commit(identity: "dan@example.org", time: t(5_000))],
                "moon/0002": [Make.handle("eve"): IdentityEvidence.Commit(identity: "eve@example.org", time: t(5_500))],
            ])
    }

    @Test func identitiesAreLowercased() {
        let log = commit("Dan@Example.ORG", 4_000, "Content/projects/moon/rounds/0001/votes/dan.yml")
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(evidence.ballotCommits["moon/0001"]?[Make.handle("dan")]?.identity == "dan@example.org")
    }

    @Test func whoeverCommitsTheConfigIsAMaintainerAndNoEvidence() {
        // keeper commits prolific.yml only later, but is a maintainer for the whole history.
        let log = [
            commit("keeper@example.org", 1_000, "Content/users/cat.md", "Content/projects/moon/rounds/0001/votes/cat.yml"),
            commit("keeper@example.org", 6_000, "Content/prolific.yml"),
            commit("dan@example.org", 4_000, "Content/projects/moon/rounds/0001/votes/dan.yml"),
            // A maintainer re-committing dan's ballot does not replace dan's own commit as evidence.
            commit("keeper@example.org", 7_000, "Content/projects/moon/rounds/0001/votes/dan.yml"),
            // cat's profile was first added by a maintainer: cat's own later edit is not her first commit.
            commit("cat@example.org", 8_000, "Content/users/cat.md"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(evidence.firstCommits.isEmpty)
        #expect(
            evidence.ballotCommits == [
                "moon/0001": [Make.handle("dan"): IdentityEvidence.Commit(identity: "dan@example.org", time: t(4_000))]
            ])
    }

    @Test func listedMaintainersAreNoEvidence() {
        let log = [
            commit("boss@example.org", 1_000, "Content/users/cat.md", "Content/projects/moon/rounds/0001/votes/cat.yml"),
            commit("dan@example.org", 2_000, "Content/users/dan.md", "Content/projects/moon/rounds/0001/votes/dan.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: ["Boss@Example.org"])
        #expect(evidence.firstCommits == [Make.handle("dan"): t(2_000)])
        #expect(evidence.ballotCommits["moon/0001"]?.keys.map(\.rawValue) == ["dan"])
        // Without the listing, boss's commits are evidence like anyone's.
        let unlisted = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(unlisted.firstCommits[Make.handle("cat")] == t(1_000))
        #expect(unlisted.ballotCommits["moon/0001"]?[Make.handle("cat")]?.identity == "boss@example.org")
    }

    @Test func pathsOutsideThePrefixOrTheLayoutAreIgnored() {
        let log = [
            // Another content directory in the same repository, and its config.
            commit("eve@example.org", 1_000, "Other/users/eve.md", "Other/projects/moon/rounds/0001/votes/eve.yml"),
            commit("fay@example.org", 1_500, "Other/prolific.yml"),
            // Not a profile or a ballot.
            commit(
                "gus@example.org", 2_000, "Content/users/gus.txt", "Content/users/old/gus.md", "Content/users/Bad_Name.md",
                "Content/projects/moon/rounds/0001/submissions/gus-20261102100000.md",
                "Content/projects/moon/rounds/0001/votes/gus.yaml", "Content/projects/moon/rounds/1/votes/gus.yml",
                "Content/projects/moon/project.md"),
            // A malformed record is skipped.
            "\u{1e}no-time-here\n\nContent/users/hal.md\n",
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(evidence.isEmpty)
        // fay committed another directory's config, not this one's: her ballots still count as evidence.
        let fay = commit("fay@example.org", 3_000, "Content/projects/moon/rounds/0001/votes/fay.yml")
        #expect(GitEvidence.parse(log: log + fay, prefix: "Content/", maintainers: []).ballotCommits["moon/0001"]?.count == 1)
    }

    @Test func contentAtTheTopOfTheRepository() {
        let log = [
            commit("keeper@example.org", 1_000, "prolific.yml"),
            commit("keeper@example.org", 1_500, "users/ann.md"),
            commit("dan@example.org", 2_000, "users/dan.md", "projects/moon/rounds/0003/votes/dan.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "", maintainers: [])
        #expect(evidence.firstCommits == [Make.handle("dan"): t(2_000)])
        #expect(evidence.ballotCommits["moon/0003"]?[Make.handle("dan")] == IdentityEvidence.Commit(identity: "dan@example.org", time: t(2_000)))
    }

    @Test func anEmptyLogIsNoEvidence() {
        #expect(GitEvidence.parse(log: "", prefix: "Content/", maintainers: []).isEmpty)
    }
}

/// A real git repository in a temporary directory, with the content directory `Content/` inside it.
@Suite(.enabled(if: Git.isInstalled)) struct GitEvidenceRepositoryTests {
    @Test func puppetsCommittedByOneIdentityShareOneVote() throws {
        let playground = try Playground()
        let top = playground.directory.path
        let git = Git(folder: top)
        try git.run(["init", "--quiet"])
        let keeper = "keeper@example.org"
        try git.commit(["Content/prolific.yml"], as: keeper, at: "2026-09-30T00:00:00Z")

        // Profiles, added and committed by the maintainer. The puppets joined days apart (no cohort).
        for (name, joined) in [
            ("ann", "2026-10-01T00:00:00Z"), ("bob", "2026-10-01T00:00:00Z"), ("cat", "2026-10-01T00:00:00Z"),
            ("hal", "2026-10-02T00:00:00Z"), ("pip", "2026-10-03T00:00:00Z"), ("pop", "2026-10-06T00:00:00Z"),
        ] {
            _ = try playground.game(joined).addUser(Make.handle(name), name: name.uppercased(), bio: "")
        }
        try git.commit(["Content/users"], as: keeper, at: "2026-10-10T00:00:00Z")

        let moon = Make.slug("moon")
        _ = try playground.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(
                slug: moon, title: "The Moon", owner: Make.handle("ann"), rounds: 3, roundLength: Make.span("7d"),
                starter: "The moon was late."))
        try git.commit(["Content/projects"], as: keeper, at: "2026-11-01T00:00:00Z")
        let bob = try playground.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's turn.")
        let cat = try playground.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat's turn.")
        try git.commit(["Content/projects"], as: keeper, at: "2026-11-02T12:00:00Z")

        // Two handles' ballots committed by one person; the honest voter commits their own.
        let votes = "Content/projects/moon/rounds/0001/votes"
        for (voter, choice, identity, time) in [
            ("pip", bob, "puppet@example.org", "2026-11-03T10:00:00Z"),
            ("pop", bob, "puppet@example.org", "2026-11-03T11:00:00Z"),
            ("hal", cat, "hal@example.org", "2026-11-03T12:00:00Z"),
        ] {
            _ = try playground.game(time).vote(in: moon, by: Make.handle(voter), for: [choice.id.rawValue])
            try git.commit(["\(votes)/\(voter).yml"], as: identity, at: time)
        }

        let evidence = GitEvidence.read(layout: ContentLayout(root: playground.root), maintainers: [])
        // The maintainer's profiles are no evidence of when anyone joined.
        #expect(evidence.firstCommits.isEmpty)
        let ballots = try #require(evidence.ballotCommits["moon/0001"])
        #expect(ballots.count == 3)
        let pip = try #require(ballots[Make.handle("pip")]), pop = try #require(ballots[Make.handle("pop")])
        let hal = try #require(ballots[Make.handle("hal")])
        #expect(pip.identity == "puppet@example.org")
        #expect(pip.identity == pop.identity)
        #expect(hal.identity == "hal@example.org")
        #expect(hal.identity != pip.identity)
        #expect(pip.time == Make.time("2026-11-03T10:00:00Z"))
        #expect(pop.time == Make.time("2026-11-03T11:00:00Z"))

        // The audit of the open round, as if it closed now.
        let audit = try playground.game("2026-11-05T00:00:00Z").audit(moon, round: nil)
        #expect(audit.isPreview)
        #expect(audit.isFair)
        #expect(audit.cutoff == Make.time("2026-11-05T00:00:00Z"))
        let weighed = Dictionary(uniqueKeysWithValues: audit.outcome.ballots.map { ($0.voter.rawValue, $0) })
        #expect(weighed.keys.sorted() == ["hal", "pip", "pop"])
        for name in ["pip", "pop"] {
            let ballot = try #require(weighed[name])
            #expect(ballot.factors.map(\.value) == [0.5], "\(name)")
            #expect(ballot.factors.first?.reason.contains("same git identity") == true)
            #expect(ballot.weight == ballot.base * 0.5)
            #expect(ballot.explanation.contains("one of 2 voters committed by the same git identity → ×0.5"))
        }
        let honest = try #require(weighed["hal"])
        #expect(honest.factors.isEmpty)
        #expect(honest.weight == honest.base)
        #expect(!honest.explanation.contains("git identity"))
        // Every voter has the same base (no karma, weeks old): the puppets together weigh one honest vote.
        #expect(audit.outcome.ballots.allSatisfy { $0.base == honest.base })
        let scores = Dictionary(uniqueKeysWithValues: audit.outcome.record.scores.map { ($0.id, $0.score) })
        #expect(scores[bob.id] == scores[cat.id])
        #expect(scores[cat.id] == Tally.rounded(honest.base))

        // Closing records the same tally.
        let report = try playground.game("2026-11-08T00:00:00Z").close(moon)
        guard case .closed(let closed, _) = report.outcome else {
            Issue.record("the round was not closed")
            return
        }
        #expect(closed.tally?.method == "fair-1")
        #expect(closed.tally?.scores.first { $0.id == bob.id }?.score == Tally.rounded(honest.base))
        // And check, with the same evidence, agrees with it.
        let content = try #require(playground.reader.loadAll().0)
        #expect(ContentCheck.problems(in: content, evidence: evidence).filter { $0.severity == .error } == [])
        // Without the evidence the puppets count fully and bob's score is no longer what was recorded.
        #expect(!ContentCheck.problems(in: content).filter { $0.severity == .error }.isEmpty)
    }

    @Test func aBallotCastAfterItsCommitIsSuspect() throws {
        let playground = try Playground()
        let git = Git(folder: playground.directory.path)
        try git.run(["init", "--quiet"])
        try git.commit(["Content/prolific.yml"], as: "keeper@example.org", at: "2026-09-30T00:00:00Z")
        try playground.standardSetup()
        let moon = Make.slug("moon")
        let bob = try playground.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's turn.")
        try git.commit(["Content/users", "Content/projects"], as: "keeper@example.org", at: "2026-11-02T10:00:00Z")
        // cat's ballot says it was cast on the 4th, but was committed on the 3rd.
        _ = try playground.game("2026-11-04T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob.id.rawValue])
        try git.commit(["Content/projects"], as: "cat@example.org", at: "2026-11-03T00:00:00Z")

        let audit = try playground.game("2026-11-05T00:00:00Z").audit(moon, round: nil)
        #expect(audit.outcome.ballots.isEmpty)
        #expect(audit.outcome.record.ballots == 0)
        let evidence = GitEvidence.read(layout: ContentLayout(root: playground.root), maintainers: [])
        #expect(evidence.ballotCommits["moon/0001"]?[Make.handle("cat")]?.time == Make.time("2026-11-03T00:00:00Z"))
    }

    @Test func outsideARepositoryThereIsNoEvidence() throws {
        let playground = try Playground()
        try playground.standardSetup()
        // The temporary directory is not inside a repository (unless the machine's is).
        let inside = Git(folder: playground.root).output(["rev-parse", "--is-inside-work-tree"]) == "true"
        if !inside {
            #expect(GitEvidence.read(layout: ContentLayout(root: playground.root), maintainers: []).isEmpty)
        }
    }
}

/// Runs git for the tests, with fixed identities and times and no user or system configuration.
struct Git {
    var folder: String

    static let isInstalled: Bool = Git(folder: FileManager.default.temporaryDirectory.path).output(["--version"]) != nil

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func commit(_ paths: [String], as email: String, at time: String) throws {
        try run(["add", "--"] + paths)
        let seconds = Make.time(time).secondsSinceEpoch
        try run(
            ["-c", "user.email=\(email)", "-c", "user.name=\(email)", "commit", "--quiet", "-m", "at \(time)"],
            environment: ["GIT_AUTHOR_DATE": "\(seconds) +0000", "GIT_COMMITTER_DATE": "\(seconds) +0000"])
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws {
        let (status, output) = execute(arguments, environment: environment)
        guard status == 0 else { throw Failure(description: "git \(arguments.joined(separator: " ")) failed: \(output)") }
    }

    /// The trimmed output, or nil when git is missing or fails.
    func output(_ arguments: [String]) -> String? {
        let (status, output) = execute(arguments, environment: [:])
        return status == 0 ? output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    private func execute(_ arguments: [String], environment: [String: String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder, "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
