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

    func c(_ identity: String, _ seconds: Int64) -> IdentityEvidence.Commit {
        IdentityEvidence.Commit(identity: identity, time: t(seconds))
    }

    /// The lists are in commit order, whatever order the log came in: a pull request merged
    /// late brings commits older than ones already read.
    @Test func commitsTakeTheirPlacesByTimeThenIdentity() {
        let log = [
            commit("bob@example.org", 3_000, "Content/users/bob.md", "Content/projects/moon/rounds/0001/votes/bob.yml"),
            commit("keeper@example.org", 5_000, "Content/prolific.yml"),
            commit("bob@example.org", 1_000, "Content/users/bob.md"),
            commit("ann@example.org", 3_000, "Content/projects/moon/rounds/0001/votes/bob.yml"),
            commit("keeper@example.org", 4_000, "Content/prolific.yml"),
            commit("bob@example.org", 2_000, "Content/users/bob.md"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(
            evidence.profileCommits[Make.handle("bob")]
                == [c("bob@example.org", 1_000), c("bob@example.org", 2_000), c("bob@example.org", 3_000)])
        // The same second: by identity.
        #expect(evidence.ballotCommits["moon/0001"]?[Make.handle("bob")] == [c("ann@example.org", 3_000), c("bob@example.org", 3_000)])
        // A maintainer from their earliest commit of prolific.yml.
        #expect(evidence.configCommitters == ["keeper@example.org": t(4_000)])
    }

    @Test func collectsEveryCommitOfEachProfileAndBallotInOrder() {
        let log = [
            commit("keeper@example.org", 1_000, "Content/prolific.yml", "Content/users/ann.md"),
            commit("Bob@Example.org", 2_000, "Content/users/bob.md"),
            commit("ann@example.org", 2_500, "Content/users/ann.md"),
            commit("bob@example.org", 3_000, "Content/users/bob.md"),
            commit("dan@example.org", 4_000, "Content/users/dan.md", "Content/projects/moon/rounds/0001/votes/dan.yml"),
            commit("dan@example.org", 5_000, "Content/projects/moon/rounds/0001/votes/dan.yml"),
            commit("eve@example.org", 5_500, "Content/projects/moon/rounds/0002/votes/eve.yml"),
            commit("keeper@example.org", 6_000, "Content/prolific.yml"),
            commit("Dan@Example.org", 6_500, "Content/prolific.yml"),
            commit("keeper@example.org", 7_000, "Content/projects/moon/rounds/0001/votes/dan.yml"),
            commit("dan@example.org", 7_500, "Content/projects/sun/rounds/0001/votes/dan.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        // Nothing is filtered: a maintainer's commits are kept with everyone's, oldest first.
        #expect(
            evidence.profileCommits == [
                Make.handle("ann"): [c("keeper@example.org", 1_000), c("ann@example.org", 2_500)],
                Make.handle("bob"): [c("bob@example.org", 2_000), c("bob@example.org", 3_000)],
                Make.handle("dan"): [c("dan@example.org", 4_000)],
            ])
        #expect(
            evidence.ballotCommits == [
                "moon/0001": [
                    Make.handle("dan"): [c("dan@example.org", 4_000), c("dan@example.org", 5_000), c("keeper@example.org", 7_000)]
                ],
                "moon/0002": [Make.handle("eve"): [c("eve@example.org", 5_500)]],
                "sun/0001": [Make.handle("dan"): [c("dan@example.org", 7_500)]],
            ])
        // Whoever committed prolific.yml, from their first commit of it.
        #expect(evidence.configCommitters == ["keeper@example.org": t(1_000), "dan@example.org": t(6_500)])
        #expect(evidence.maintainers.isEmpty)
    }

    @Test func identitiesAreLowercased() {
        let log = [
            commit("Dan@Example.ORG", 4_000, "Content/projects/moon/rounds/0001/votes/dan.yml", "Content/users/dan.md"),
            commit("Keeper@Example.ORG", 5_000, "Content/prolific.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        #expect(evidence.ballotCommits["moon/0001"]?[Make.handle("dan")] == [c("dan@example.org", 4_000)])
        #expect(evidence.profileCommits[Make.handle("dan")] == [c("dan@example.org", 4_000)])
        #expect(evidence.configCommitters == ["keeper@example.org": t(5_000)])
    }

    @Test func listedMaintainersAreKeptLowercasedAndTheirCommitsRecorded() {
        let log = [
            commit("boss@example.org", 1_000, "Content/users/cat.md", "Content/projects/moon/rounds/0001/votes/cat.yml"),
            commit("dan@example.org", 2_000, "Content/users/dan.md", "Content/projects/moon/rounds/0001/votes/dan.yml"),
        ].joined()
        let listed = GitEvidence.parse(log: log, prefix: "Content/", maintainers: ["Boss@Example.org", "keeper@example.org"])
        #expect(listed.maintainers == ["boss@example.org", "keeper@example.org"])
        let unlisted = GitEvidence.parse(log: log, prefix: "Content/", maintainers: [])
        // The listing is for the tally to apply at each cutoff: the commits are the same.
        #expect(listed.profileCommits == unlisted.profileCommits)
        #expect(listed.ballotCommits == unlisted.ballotCommits)
        #expect(listed.profileCommits[Make.handle("cat")] == [c("boss@example.org", 1_000)])
        #expect(listed.ballotCommits["moon/0001"]?[Make.handle("cat")] == [c("boss@example.org", 1_000)])
        #expect(listed.configCommitters.isEmpty)
    }

    @Test func pathsOutsideThePrefixOrTheLayoutAreIgnored() {
        let log = [
            // Another content directory in the same repository, and its config.
            commit("eve@example.org", 1_000, "Other/users/eve.md", "Other/projects/moon/rounds/0001/votes/eve.yml"),
            // As long as the prefix, so that only the prefix check tells them apart.
            commit("ida@example.org", 1_200, "Archive/users/ida.md", "Archive/projects/moon/rounds/0001/votes/ida.yml"),
            commit("ida@example.org", 1_300, "users/ida.md", "projects/moon/rounds/0001/votes/ida.yml"),
            commit("fay@example.org", 1_500, "Other/prolific.yml", "prolific.yml", "Content/config/prolific.yml"),
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
        #expect(evidence.configCommitters.isEmpty)
        // The same commits, in this directory, are read.
        let fay = commit("fay@example.org", 3_000, "Content/projects/moon/rounds/0001/votes/fay.yml", "Content/prolific.yml")
        let read = GitEvidence.parse(log: log + fay, prefix: "Content/", maintainers: [])
        #expect(read.ballotCommits == ["moon/0001": [Make.handle("fay"): [c("fay@example.org", 3_000)]]])
        #expect(read.configCommitters == ["fay@example.org": t(3_000)])
        #expect(read.profileCommits.isEmpty)
    }

    @Test func contentAtTheTopOfTheRepository() {
        let log = [
            commit("keeper@example.org", 1_000, "prolific.yml"),
            commit("keeper@example.org", 1_500, "users/ann.md"),
            commit("dan@example.org", 2_000, "users/dan.md", "projects/moon/rounds/0003/votes/dan.yml"),
        ].joined()
        let evidence = GitEvidence.parse(log: log, prefix: "", maintainers: [])
        #expect(evidence.profileCommits == [Make.handle("ann"): [c("keeper@example.org", 1_500)], Make.handle("dan"): [c("dan@example.org", 2_000)]])
        #expect(evidence.ballotCommits == ["moon/0003": [Make.handle("dan"): [c("dan@example.org", 2_000)]]])
        #expect(evidence.configCommitters == ["keeper@example.org": t(1_000)])
    }

    @Test func anEmptyLogIsNoEvidence() {
        let evidence = GitEvidence.parse(log: "", prefix: "Content/", maintainers: ["keeper@example.org"])
        #expect(evidence.isEmpty)
        #expect(evidence.configCommitters.isEmpty)
    }
}

/// A real git repository in a temporary directory, with the content directory `Content/` inside it.
@Suite(.enabled(if: Git.isInstalled)) struct GitEvidenceRepositoryTests {
    func commit(_ identity: String, _ time: String) -> IdentityEvidence.Commit {
        IdentityEvidence.Commit(identity: identity, time: Make.time(time))
    }

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
        // The maintainer committed prolific.yml first, then every profile.
        #expect(evidence.configCommitters == [keeper: Make.time("2026-09-30T00:00:00Z")])
        #expect(evidence.profileCommits.count == 6)
        #expect(evidence.profileCommits.values.allSatisfy { $0 == [commit(keeper, "2026-10-10T00:00:00Z")] })
        let ballots = try #require(evidence.ballotCommits["moon/0001"])
        #expect(ballots.count == 3)
        #expect(ballots[Make.handle("pip")] == [commit("puppet@example.org", "2026-11-03T10:00:00Z")])
        #expect(ballots[Make.handle("pop")] == [commit("puppet@example.org", "2026-11-03T11:00:00Z")])
        #expect(ballots[Make.handle("hal")] == [commit("hal@example.org", "2026-11-03T12:00:00Z")])

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

        // Commits after the round leave its tally alone: `check` stays clean.
        func errors(_ evidence: IdentityEvidence? = nil) throws -> [String] {
            let content = try #require(playground.reader.loadAll().0)
            let read = evidence ?? GitEvidence.read(layout: playground.reader.layout, maintainers: Set(content.config.maintainers))
            return ContentCheck.problems(in: content, evidence: read).filter { $0.severity == .error }.map(\.description)
        }
        // The puppet commits prolific.yml: a maintainer from now on, but not when the round was tallied.
        try playground.directory.append("# Kept by the puppet from now on.\n", to: "Content/prolific.yml")
        try git.commit(["Content/prolific.yml"], as: "puppet@example.org", at: "2026-11-09T00:00:00Z")
        let afterConfig = GitEvidence.read(layout: playground.reader.layout, maintainers: [])
        #expect(afterConfig.configCommitters["puppet@example.org"] == Make.time("2026-11-09T00:00:00Z"))
        #expect(try errors() == [])
        // Had it been committed before the cutoff, the puppets' ballots would be no evidence: the check can fail.
        var early = afterConfig
        early.configCommitters["puppet@example.org"] = Make.time("2026-11-07T00:00:00Z")
        #expect(try !errors(early).isEmpty)

        // pip's ballot committed again by pip, pop's by the maintainer.
        for (voter, identity) in [("pip", "pip@example.org"), ("pop", keeper)] {
            try playground.directory.append("# Committed again.\n", to: "\(votes)/\(voter).yml")
            try git.commit(["\(votes)/\(voter).yml"], as: identity, at: "2026-11-10T00:00:00Z")
        }
        let afterBallots = GitEvidence.read(layout: playground.reader.layout, maintainers: [])
        #expect(
            afterBallots.ballotCommits["moon/0001"]?[Make.handle("pip")]
                == [commit("puppet@example.org", "2026-11-03T10:00:00Z"), commit("pip@example.org", "2026-11-10T00:00:00Z")])
        #expect(afterBallots.ballotCommits["moon/0001"]?[Make.handle("pop")]?.last == commit(keeper, "2026-11-10T00:00:00Z"))
        #expect(try errors() == [])
        // Either commit before the cutoff would part the puppets.
        for voter in ["pip", "pop"] {
            var early = afterBallots
            early.ballotCommits["moon/0001"]![Make.handle(voter)]![1].time = Make.time("2026-11-07T00:00:00Z")
            #expect(try !errors(early).isEmpty, "\(voter)")
        }
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
        #expect(evidence.ballotCommits["moon/0001"]?[Make.handle("cat")] == [commit("cat@example.org", "2026-11-03T00:00:00Z")])
    }

    /// A voter's re-vote, committed by the maintainer who merged it, counts (it used to be dropped
    /// as cast after the voter's own earlier commit).
    @Test func aReVoteCommittedByAMaintainerCounts() throws {
        let playground = try Playground()
        let git = Git(folder: playground.directory.path)
        try git.run(["init", "--quiet"])
        let keeper = "keeper@example.org"
        try git.commit(["Content/prolific.yml"], as: keeper, at: "2026-09-30T00:00:00Z")
        try playground.standardSetup()
        let moon = Make.slug("moon")
        let bob = try playground.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's turn.")
        try git.commit(["Content/users", "Content/projects"], as: keeper, at: "2026-11-02T10:00:00Z")
        // cat votes and commits her ballot; the next day she votes again, and the maintainer commits it.
        let ballot = "Content/projects/moon/rounds/0001/votes/cat.yml"
        _ = try playground.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob.id.rawValue])
        try git.commit([ballot], as: "cat@example.org", at: "2026-11-03T00:00:00Z")
        let again = try playground.game("2026-11-04T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob.id.rawValue])
        #expect(again.replaced)

        // Until it is committed, the re-vote is later than cat's last commit: suspect.
        let uncommitted = try playground.game("2026-11-05T00:00:00Z").audit(moon, round: nil)
        #expect(uncommitted.outcome.record.ballots == 0)

        try git.commit([ballot], as: keeper, at: "2026-11-04T00:00:00Z")
        let evidence = GitEvidence.read(layout: playground.reader.layout, maintainers: [])
        #expect(
            evidence.ballotCommits["moon/0001"]?[Make.handle("cat")]
                == [commit("cat@example.org", "2026-11-03T00:00:00Z"), commit(keeper, "2026-11-04T00:00:00Z")])
        let audit = try playground.game("2026-11-05T00:00:00Z").audit(moon, round: nil)
        #expect(audit.outcome.ballots.map(\.voter.rawValue) == ["cat"])
        #expect(audit.outcome.record.ballots == 1)

        let report = try playground.game("2026-11-08T00:00:00Z").close(moon)
        guard case .closed(let closed, _) = report.outcome else {
            Issue.record("the round was not closed")
            return
        }
        #expect(closed.tally?.ballots == 1)
        let content = try #require(playground.reader.loadAll().0)
        #expect(ContentCheck.problems(in: content, evidence: evidence).filter { $0.severity == .error } == [])
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

/// A commit whose clock ran ahead of its children's: `git log OLD..HEAD` stops its walk before
/// marking it as one OLD reaches, and lists it again (found by a review's fuzzing). The
/// evidence's lists are sets, so the kept read is still the whole read.
@Suite(.enabled(if: Git.isInstalled)) struct GitEvidenceSkewTests {
    @Test func aCommitListedTwiceCountsOnce() throws {
        let repository = try TestRepository()
        let (top, git, layout) = (repository.top, repository.git, repository.layout)
        func write(_ path: String) throws {
            let url = top.appendingPathComponent("Content/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("\(path)\n".utf8).write(to: url)
        }
        try write("users/xan.md")
        try git.commit(["Content"], as: "xan@example.org", at: "2000-01-01T00:00:00Z")
        for day in 1...8 {
            try write("projects/moon/rounds/0001/votes/v\(day).yml")
            try git.commit(["Content"], as: "v\(day)@example.org", at: "1999-12-1\(day)T00:00:00Z")
        }
        let old = try #require(git.output(["rev-parse", "HEAD"]))
        _ = GitEvidence.read(layout: layout, maintainers: [], kept: true)
        try git.run(["checkout", "--quiet", "-b", "side", "HEAD~8"])
        try write("users/zed.md")
        try git.commit(["Content"], as: "zed@example.org", at: "2020-01-01T00:00:00Z")
        try git.run(["checkout", "--quiet", "main"])
        try git.run(
            ["-c", "user.email=boss@example.org", "-c", "user.name=boss", "merge", "--quiet", "--no-ff", "-m", "merge", "side"],
            environment: ["GIT_AUTHOR_DATE": "1609459200 +0000", "GIT_COMMITTER_DATE": "1609459200 +0000"])
        let since = try #require(GitEvidence.newCommits(from: old, to: "HEAD", in: top.path))
        #expect(since.contains("xan@example.org"), "git no longer lists the commit again: this case tests nothing")

        let (kept, how) = GitEvidence.readNoting(layout: layout, maintainers: [], kept: true)
        #expect(how == .added(commits: 2))
        let whole = GitEvidence.read(layout: layout, maintainers: [])
        #expect(kept.profileCommits == whole.profileCommits && kept.ballotCommits == whole.ballotCommits)
        #expect(kept.profileCommits[Make.handle("xan")] == [IdentityEvidence.Commit(identity: "xan@example.org", time: Make.time("2000-01-01T00:00:00Z"))])
    }
}

/// A new git repository in a temporary folder, its content folder `Content`.
struct TestRepository {
    let temporary: TemporaryDirectory
    let top: URL
    let git: Git
    let layout: ContentLayout

    init() throws {
        temporary = try TemporaryDirectory()
        top = URL(fileURLWithPath: temporary.path)
        git = Git(folder: top.path)
        try git.run(["init", "--quiet"])
        layout = ContentLayout(root: top.appendingPathComponent("Content").path)
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
        let waitForExit: () -> Void
        do { waitForExit = try process.spawn() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        waitForExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension TemporaryDirectory {
    /// Adds `text` at the end of the file at `relative`.
    func append(_ text: String, to relative: String) throws {
        try write(try read(relative) + text, to: relative)
    }
}

/// The evidence kept in `.prolific/evidence.cache` and added to: at every step of a history, a
/// kept read gives what reading the whole history gives, and it adds to the kept evidence only
/// when the last HEAD is an ancestor of HEAD (commits on top of it, merged or not).
@Suite(.enabled(if: Git.isInstalled)) struct GitEvidenceKeptTests {
    /// A build reads the evidence beside the content and keeps it only once the content has
    /// loaded: the read leaves the cache as it was until `save`, and gives what `readNoting` gives.
    @Test func anUnsavedReadWritesNothingUntilSaved() throws {
        let repository = try TestRepository()
        let (temporary, git, layout) = (repository.temporary, repository.git, repository.layout)
        try temporary.write("title: T\n", to: "Content/prolific.yml")
        try temporary.write("ann\n", to: "Content/users/ann.md")
        try git.commit(["Content"], as: "ann@example.org", at: "2026-10-01T00:00:00Z")
        _ = GitEvidence.read(layout: layout, maintainers: [], kept: true)
        let cache = "\(layout.root)/\(EvidenceCache.file)"
        let kept = try Data(contentsOf: URL(fileURLWithPath: cache))
        try temporary.write("bob\n", to: "Content/users/bob.md")
        try git.commit(["Content/users"], as: "bob@example.org", at: "2026-10-02T00:00:00Z")

        let read = GitEvidence.readUnsaved(layout: layout, at: GitEvidence.Place(layout), kept: true)
        #expect(read.how == .added(commits: 1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) == kept, "the read saved the cache")
        let evidence = read.evidence(maintainers: ["Boss@Example.org"])
        let noted = GitEvidence.readNoting(layout: layout, maintainers: ["Boss@Example.org"], kept: true, saving: false).evidence
        #expect(evidence.maintainers == ["boss@example.org"] && evidence.maintainers == noted.maintainers)
        #expect(evidence.profileCommits == noted.profileCommits && evidence.profileCommits[Make.handle("bob")]?.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) == kept)

        read.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) != kept)
        #expect(GitEvidence.readUnsaved(layout: layout, at: GitEvidence.Place(layout), kept: true).how == .kept)
        // Outside a repository: no evidence, and no maintainers either, as `readNoting` gives.
        let outside = GitEvidence.readUnsaved(layout: layout, at: nil, kept: true)
        #expect(outside.how == .none && outside.evidence(maintainers: ["boss@example.org"]).maintainers.isEmpty)
    }

    @Test func aKeptReadIsTheWholeReadAtEveryStep() throws {
        let repository = try TestRepository()
        let (top, git, layout) = (repository.top, repository.git, repository.layout)
        func write(_ path: String, _ text: String) throws {
            let url = top.appendingPathComponent("Content/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func whole() -> IdentityEvidence { GitEvidence.read(layout: layout, maintainers: ["boss@example.org"]) }
        func kept() -> IdentityEvidence { GitEvidence.read(layout: layout, maintainers: ["boss@example.org"], kept: true) }
        func expectSame(_ a: IdentityEvidence, _ step: String) {
            let b = whole()
            #expect(a.profileCommits == b.profileCommits, "\(step)")
            #expect(a.ballotCommits == b.ballotCommits, "\(step)")
            #expect(a.configCommitters == b.configCommitters, "\(step)")
            #expect(a.maintainers == b.maintainers, "\(step)")
        }
        /// A ballot no commit made, planted in the kept evidence before a step: it is still there
        /// after the step's kept read only if that read added to the kept evidence.
        let planted = "planted/0001"
        func plant() throws {
            var cache = try #require(EvidenceCache.load(layout, prefix: "Content/"))
            cache.ballotCommits[planted] = [Make.handle("zed"): [IdentityEvidence.Commit(identity: "z@example.org", time: Make.time("2026-01-01T00:00:00Z"))]]
            cache.save(layout, prefix: "Content/")
        }
        /// The step's kept read: whether it added to the kept evidence, and that what it gives
        /// (the planted ballot aside) is what the whole history gives. The planted ballot is
        /// then taken out of the cache.
        func expectKeptRead(addsTo: Bool, _ step: String) throws {
            var read = kept()
            #expect((read.ballotCommits[planted] != nil) == addsTo, "\(step)")
            read.ballotCommits[planted] = nil
            expectSame(read, step)
            var cache = try #require(EvidenceCache.load(layout, prefix: "Content/"))
            cache.ballotCommits[planted] = nil
            cache.save(layout, prefix: "Content/")
        }

        try write("prolific.yml", "title: T\n")
        try git.commit(["Content/prolific.yml"], as: "keeper@example.org", at: "2026-10-01T00:00:00Z")
        try write("users/ann.md", "ann\n")
        try write("users/bob.md", "bob\n")
        try git.commit(["Content/users"], as: "ann@example.org", at: "2026-10-02T00:00:00Z")
        expectSame(kept(), "the first read")

        // A chain of commits on top is added to, even one dated before the last.
        try plant()
        try write("projects/moon/rounds/0001/votes/ann.yml", "a\n")
        try git.commit(["Content/projects"], as: "ann@example.org", at: "2026-10-03T00:00:00Z")
        try write("users/bob.md", "bob 2\n")
        try git.commit(["Content/users"], as: "bob@example.org", at: "2026-09-01T00:00:00Z")
        try expectKeptRead(addsTo: true, "a chain")
        try plant()
        try expectKeptRead(addsTo: true, "nothing new")

        // A pull request merged with a merge commit, its commits older than main's last: added to,
        // each commit in its place by time.
        try plant()
        try git.run(["checkout", "--quiet", "-b", "side", "HEAD~1"])
        try write("projects/moon/rounds/0001/votes/cat.yml", "c\n")
        try git.commit(["Content/projects"], as: "cat@example.org", at: "2026-10-04T00:00:00Z")
        try write("projects/moon/rounds/0001/votes/ann.yml", "a on the side\n")
        try git.commit(["Content/projects"], as: "ann@example.org", at: "2026-10-02T12:00:00Z")
        try git.run(["checkout", "--quiet", "main"])
        func merge(_ branch: String, at seconds: Int) throws {
            try git.run(
                ["-c", "user.email=boss@example.org", "-c", "user.name=boss", "merge", "--quiet", "--no-ff", "-m", "merge", branch],
                environment: ["GIT_AUTHOR_DATE": "\(seconds) +0000", "GIT_COMMITTER_DATE": "\(seconds) +0000"])
        }
        try merge("side", at: 1_790_000_000)
        // `close` reads only what one round's tally reads: that part of a whole read, and the
        // cache is left as it was (the planted ballot is still there for the kept read below).
        let wanted = GitEvidence.Wanted(
            round: try #require(RoundNumber(folderName: "0001")), of: Make.slug("moon"), voters: [Make.handle("ann"), Make.handle("cat")])
        let (part, how) = GitEvidence.readNoting(layout: layout, maintainers: ["boss@example.org"], kept: true, wanted: wanted)
        #expect(how == .added(commits: 2))
        let all = whole()
        #expect(part.profileCommits == all.profileCommits.filter { ["ann", "cat"].contains($0.key.rawValue) })
        #expect(part.ballotCommits == all.ballotCommits.filter { $0.key == "moon/0001" } && part.ballotCommits["moon/0001"]?.count == 2)
        #expect(part.configCommitters == all.configCommitters && part.maintainers == all.maintainers)
        try expectKeptRead(addsTo: true, "a merge")
        // HEAD unmoved: the part is decoded from the cache alone.
        let (unmoved, unmovedHow) = GitEvidence.readNoting(layout: layout, maintainers: ["boss@example.org"], kept: true, wanted: wanted)
        #expect(unmovedHow == .kept)
        #expect(unmoved.profileCommits == part.profileCommits && unmoved.ballotCommits == part.ballotCommits)
        #expect(unmoved.configCommitters == part.configCommitters)
        #expect(
            kept().ballotCommits["moon/0001"]?[Make.handle("ann")]?.map(\.time)
                == ["2026-10-02T12:00:00Z", "2026-10-03T00:00:00Z"].map(Make.time))
        #expect(kept().profileCommits[Make.handle("bob")]?.map(\.time) == ["2026-09-01T00:00:00Z", "2026-10-02T00:00:00Z"].map(Make.time))

        // A side branch whose change main made too, so the merge changes nothing: git's default
        // simplification leaves its commit out of a whole log, the evidence doesn't.
        try plant()
        try git.run(["checkout", "--quiet", "-b", "twin"])
        try write("projects/moon/rounds/0001/votes/dan.yml", "d\n")
        try git.commit(["Content/projects"], as: "dan@example.org", at: "2026-10-04T01:00:00Z")
        try git.run(["checkout", "--quiet", "main"])
        try write("projects/moon/rounds/0001/votes/dan.yml", "d\n")
        try git.commit(["Content/projects"], as: "boss@example.org", at: "2026-10-04T02:00:00Z")
        try merge("twin", at: 1_790_000_050)
        try expectKeptRead(addsTo: true, "a merge that changes nothing")
        #expect(
            whole().ballotCommits["moon/0001"]?[Make.handle("dan")]
                == [
                    IdentityEvidence.Commit(identity: "dan@example.org", time: Make.time("2026-10-04T01:00:00Z")),
                    IdentityEvidence.Commit(identity: "boss@example.org", time: Make.time("2026-10-04T02:00:00Z")),
                ])

        // A rewritten history (the last HEAD is no longer an ancestor): read again.
        try write("users/ann.md", "ann 3\n")
        try git.commit(["Content/users"], as: "ann@example.org", at: "2026-10-05T00:00:00Z")
        try plant()
        try expectKeptRead(addsTo: true, "a commit on top of the merge")
        try plant()
        try write("users/ann.md", "ann 2\n")
        try git.run(["add", "Content/users"])
        try git.run(
            ["-c", "user.email=ann@example.org", "-c", "user.name=ann", "commit", "--quiet", "--amend", "-m", "amended"],
            environment: ["GIT_AUTHOR_DATE": "1790000100 +0000", "GIT_COMMITTER_DATE": "1790000100 +0000"])
        try expectKeptRead(addsTo: false, "a rewrite")

        // A commit on top of that: added to again.
        try plant()
        try write("projects/moon/rounds/0001/votes/bob.yml", "b\n")
        try git.commit(["Content/projects"], as: "bob@example.org", at: "2026-10-06T00:00:00Z")
        try expectKeptRead(addsTo: true, "after the rewrite")

        // A long history is read in parts on every core: the parts hold every commit once.
        let head = try #require(git.output(["rev-parse", "HEAD"]))
        func evidence(of logs: [String]) -> IdentityEvidence {
            var evidence = IdentityEvidence()
            for log in logs { GitEvidence.fold(log: log, prefix: "Content/", into: &evidence) }
            return evidence
        }
        let one = try #require(GitEvidence.wholeLogs(head: head, in: top.path, splittingFrom: .max))
        let parts = try #require(GitEvidence.wholeLogs(head: head, in: top.path, splittingFrom: 1))
        #expect(one.count == 1 && parts.count == (Parallel.workers == 1 ? 1 : min(Parallel.workers * 4, 16)))
        #expect(parts.map { $0.split(separator: "\u{1e}").count }.reduce(0, +) == one[0].split(separator: "\u{1e}").count)
        let split = evidence(of: parts), wholeRead = evidence(of: one)
        #expect(split.profileCommits == wholeRead.profileCommits && split.ballotCommits == wholeRead.ballotCommits)
        #expect(split.configCommitters == wholeRead.configCommitters)

        // The user's configuration doesn't change what is read: the first commit's files are
        // there, and paths are the repository's.
        try git.run(["config", "log.showRoot", "false"])
        try git.run(["config", "diff.relative", "true"])
        try FileManager.default.removeItem(atPath: layout.root + "/" + EvidenceCache.file)
        #expect(whole().configCommitters == ["keeper@example.org": Make.time("2026-10-01T00:00:00Z")])
        expectSame(kept(), "with log.showRoot and diff.relative set")

        // A shallow clone keeps nothing: a fetch may fill in the history behind its oldest commit.
        let clone = top.appendingPathComponent("clone")
        try git.run(["clone", "--quiet", "--depth", "1", "file://" + top.path, clone.path])
        let shallow = ContentLayout(root: clone.appendingPathComponent("Content").path)
        _ = GitEvidence.read(layout: shallow, maintainers: [], kept: true)
        #expect(!FileManager.default.fileExists(atPath: shallow.root + "/" + EvidenceCache.file))

        // A torn cache is no cache.
        let path = layout.root + "/" + EvidenceCache.file
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(EvidenceCache.load(layout, prefix: "Content/") == nil)
        expectSame(kept(), "a torn cache")
    }
}
