import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `close` records the ballots it counted in round.md (`votes`), beside the seal; a build counts
/// the record and leaves the sealed `votes/` files unread; `check` reads them and compares.
@Suite struct BallotRecordTests {
    let moon = Make.slug("moon")
    let round = "Content/projects/moon/rounds/0001"

    /// Round 1 of moon closed with two snippets and ballots by ann and cat (cat's names both).
    func closedRound() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        let bob = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        let cat = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat's part.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("ann"), for: [bob.id.rawValue, cat.id.rawValue])
        _ = try world.game("2026-11-03T01:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob.id.rawValue])
        _ = try world.game("2026-11-05T00:00:00Z").close(moon)
        return world
    }

    /// What `check` reports about the seals and records.
    func checked(_ world: Playground) throws -> [String] {
        var reader = world.reader
        let digests = ReadDigests()
        reader.digests = digests
        let (content, _) = reader.loadAll()
        return RoundSeal(layout: reader.layout).problems(in: try #require(content), loaderDigests: digests).map(\.description)
    }

    @Test func closeRecordsEachBallotItCounted() throws {
        let world = try closedRound()
        let text = try world.directory.read("\(round)/round.md")
        #expect(
            text.contains(
                """
                votes:
                  ann: 2026-11-03T00:00:00Z bob-20261102100000 cat-20261102110000
                  cat: 2026-11-03T01:00:00Z bob-20261102100000
                sealed:
                """))
        let recorded = try #require(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.first?.recordedBallots)
        #expect(recorded.map(\.voter) == [Make.handle("ann"), Make.handle("cat")])
        #expect(recorded[0].choices == [Make.id("bob-20261102100000"), Make.id("cat-20261102110000")])
        #expect(try checked(world).isEmpty)
    }

    /// A build counts the record: an edit in place of a sealed ballot file (which `check` reports)
    /// changes nothing it reads; `check` reads the file.
    @Test func aBuildCountsTheRecordAndCheckReadsTheFiles() throws {
        let world = try closedRound()
        try world.directory.writeInPlace("voter: ann\ncast: 2026-11-03T00:00:00Z\nfor:\n- cat-20261102110000\n", to: "\(round)/votes/ann.yml")
        let built = try #require(world.reader.loadAll().0?.projects.first?.rounds.first)
        #expect(built.ballots.first?.choices == [Make.id("bob-20261102100000"), Make.id("cat-20261102110000")])
        #expect(built.ballots.first?.origin.path == world.directory.path("\(round)/round.md"))
        var reader = world.reader
        reader.digests = ReadDigests()
        let read = try #require(reader.loadAll().0?.projects.first?.rounds.first)
        #expect(read.ballots.first?.choices == [Make.id("cat-20261102110000")])
        #expect(read.recordedBallots?.first?.choices == [Make.id("bob-20261102100000"), Make.id("cat-20261102110000")])
        // The seal reports the edit; the record is not compared with a file the seal reports.
        let problems = try checked(world)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("votes/ann.yml:1:1: error: changed after round 1 closed") == true)
    }

    /// A round closed before records existed (a seal, no `votes`) is read from its files, as
    /// before, and kept in the project cache without a record.
    @Test func aSealedRoundWithoutARecordIsReadFromItsFiles() throws {
        let world = try closedRound()
        let path = "\(round)/round.md"
        let text = try world.directory.read(path)
        let unrecorded = text.replacingOccurrences(
            of: "votes:\n  ann: 2026-11-03T00:00:00Z bob-20261102100000 cat-20261102110000\n  cat: 2026-11-03T01:00:00Z bob-20261102100000\n",
            with: "")
        #expect(unrecorded != text)
        try world.directory.write(unrecorded, to: path)
        try world.directory.writeInPlace("voter: ann\ncast: 2026-11-03T00:00:00Z\nfor:\n- cat-20261102110000\n", to: "\(round)/votes/ann.yml")
        let project = try #require(world.reader.loadAll().0?.projects.first)
        let built = try #require(project.rounds.first)
        #expect(built.recordedBallots == nil)
        #expect(built.ballots.first?.choices == [Make.id("cat-20261102110000")])
        #expect(built.ballots.first?.origin.path == world.directory.path("\(round)/votes/ann.yml"))
        let (_, _, inventory) = world.reader.loadAllTakingInventory(cache: nil, racyAfter: .max)
        var paths: [String] = []
        try #require(inventory).forEachEntry { path, _ in paths.append(String(decoding: path, as: UTF8.self)) }
        #expect(paths.contains("projects/moon/rounds/0001/votes/ann.yml"))
        let codec = ProjectCodec(layout: ContentLayout(root: world.root))
        let decoded = try #require(codec.decode(codec.encode(project)))
        #expect(decoded == project && decoded.rounds.first?.recordedBallots == nil)
    }

    /// An edit of the record alone: the sealed file no longer matches it.
    @Test func checkReportsAnEditedRecordAtItsLine() throws {
        let world = try closedRound()
        let path = "\(round)/round.md"
        let text = try world.directory.read(path)
        try world.directory.write(
            text.replacingOccurrences(of: "  cat: 2026-11-03T01:00:00Z bob-20261102100000", with: "  cat: 2026-11-03T01:00:00Z cat-20261102110000"),
            to: path)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  cat: ") }) + 1
        #expect(
            try checked(world) == [
                "\(world.directory.path(path)):\(line):8: error: the recorded vote of @cat (cast 2026-11-03T01:00:00Z, for cat-20261102110000) "
                    + "differs from \(world.directory.path("\(round)/votes/cat.yml")) (cast 2026-11-03T01:00:00Z, for bob-20261102100000)"
            ])
        // A line taken out of the record, and one added for a voter without a file.
        try world.directory.write(
            text.replacingOccurrences(of: "  cat: 2026-11-03T01:00:00Z bob-20261102100000\n", with: "  dan: 2026-11-03T01:00:00Z bob-20261102100000\n"),
            to: path)
        let problems = try checked(world)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("error: 'votes' has no line for @cat, whose ballot") })
        #expect(problems.contains { $0.contains(":\(line):8: error: a vote is recorded for @dan, who has no ballot file") })
    }

    /// A file added after the close is the seal's warning alone: the record is what was counted.
    @Test func aBallotAddedAfterTheCloseIsOnlyTheSealsWarning() throws {
        let world = try closedRound()
        try world.directory.write("voter: bob\ncast: 2026-11-04T00:00:00Z\nfor:\n- cat-20261102110000\n", to: "\(round)/votes/bob.yml")
        let problems = try checked(world)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("votes/bob.yml:1:1: warning: added after round 1 closed") == true)
        let built = try #require(world.reader.loadAll().0?.projects.first?.rounds.first)
        #expect(built.ballots.map(\.voter) == [Make.handle("ann"), Make.handle("cat")])
        // `check` re-counts the tally from the record, as the build shows it: no error.
        var reader = world.reader
        reader.digests = ReadDigests()
        let read = try #require(reader.loadAll().0)
        #expect(read.projects.first?.rounds.first?.ballots.count == 3, "check reads the files")
        let counted = read.countingRecordedBallots()
        #expect(counted.projects.first?.rounds.first?.ballots.map(\.voter) == [Make.handle("ann"), Make.handle("cat")])
        #expect(ContentCheck.problems(in: counted, evidence: IdentityEvidence()).filter { $0.severity == .error } == [])
    }

    /// A recorded ballot's problems point at its line of the record.
    @Test func aRecordedBallotIsReportedAtItsLine() throws {
        let world = try closedRound()
        let built = try #require(world.reader.loadAll().0?.projects.first?.rounds.first)
        let text = try world.directory.read("\(round)/round.md")
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  cat: ") }) + 1
        let cat = try #require(built.ballots.last)
        #expect(cat.position(of: "cast") == TextPosition(line: line, column: 8))
        #expect(cat.position(of: "for.0") == TextPosition(line: line, column: 8))
    }

    @Test func theRecordReadsBackAsWritten() throws {
        let ballots = [
            Ballot(voter: Make.handle("ann"), cast: Make.time("2026-11-03T00:00:00Z"), choices: [Make.id("bob-20261102100000")], origin: Origin(path: "")),
            Ballot(voter: Make.handle("a-b"), cast: Make.time("2026-11-03T02:00:00Z"), choices: [Make.id("ann-20261102100000"), Make.id("bob-20261102100000")], origin: Origin(path: "")),
        ]
        var round = Round(number: Make.number(1), opened: Make.time("2026-11-01T00:00:00Z"), closes: Make.time("2026-11-08T00:00:00Z"), origin: Origin(path: ""))
        round.closed = Make.time("2026-11-08T00:00:00Z")
        round.seal = Seal(digest: String(repeating: "a", count: 64), files: [])
        round.recordedBallots = ballots
        let text = try RoundFile.render(round)
        // In the order of the files' names: `a-b.yml` before `ann.yml`.
        #expect(text.contains("votes:\n  a-b: 2026-11-03T02:00:00Z ann-20261102100000 bob-20261102100000\n  ann: 2026-11-03T00:00:00Z bob-20261102100000\n"))
        let parsed = try RoundFile.parse(text, path: "round.md", number: Make.number(1))
        let recorded = try #require(parsed.recordedBallots)
        #expect(recorded.map(\.voter) == [Make.handle("a-b"), Make.handle("ann")])
        #expect(recorded.map(\.choices) == [ballots[1].choices, ballots[0].choices])
        #expect(recorded.allSatisfy { $0.origin.isIdentical(to: parsed.origin) })
        #expect(try RoundFile.render(parsed) == text)
    }

    @Test func theFileOrderIsTheNamesOrder() {
        let handles = ["a", "a-b", "a0", "ab", "b", "u1", "u10", "u2"].map(Make.handle)
        for x in handles {
            for y in handles {
                #expect(
                    RoundFile.precedesAsFileName(x, y) == "\(x).yml".utf8.lexicographicallyPrecedes("\(y).yml".utf8), "\(x) \(y)")
            }
        }
    }

    @Test func aBadRecordIsAnErrorAtItsLine() throws {
        let base = """
            ---
            opened: 2026-11-01T00:00:00Z
            closes: 2026-11-08T00:00:00Z
            closed: 2026-11-08T00:00:00Z
            votes:
              ann: 2026-11-03T00:00:00Z  bob-20261102100000
              Bob: 2026-11-03T00:00:00Z bob-20261102100000
              cat: noon bob-20261102100000
            sealed:
              sha256: \(String(repeating: "a", count: 64))
              files: {}
            ---

            """
        let problems = thrown { () throws(Diagnostics) in try RoundFile.parse(base, path: "round.md", number: Make.number(1)) }
        #expect(
            problems == [
                "round.md:6:8: error: a recorded vote is '<voter>: <cast time> <submission id> …', found '2026-11-03T00:00:00Z  bob-20261102100000'",
                "round.md:7:8: error: 'Bob' is not a voter's handle: \(Handle.rule)",
                "round.md:8:8: error: a recorded vote is '<voter>: <cast time> <submission id> …', found 'noon bob-20261102100000'",
            ])
        let unsealed = base.replacingOccurrences(of: "sealed:\n  sha256: \(String(repeating: "a", count: 64))\n  files: {}\n", with: "")
            .replacingOccurrences(of: "  Bob: 2026-11-03T00:00:00Z bob-20261102100000\n  cat: noon bob-20261102100000\n", with: "")
            .replacingOccurrences(of: "  bob-", with: " bob-")
        #expect(
            thrown { () throws(Diagnostics) in try RoundFile.parse(unsealed, path: "round.md", number: Make.number(1)) } == [
                "round.md:6:3: error: 'votes' records the ballots of a closed, sealed round: it needs 'closed' and 'sealed' beside it"
            ])
        // Sealed but not closed (a round reopened by hand): the record is refused too.
        let reopened = base.replacingOccurrences(of: "closed: 2026-11-08T00:00:00Z\n", with: "")
            .replacingOccurrences(of: "  Bob: 2026-11-03T00:00:00Z bob-20261102100000\n  cat: noon bob-20261102100000\n", with: "")
            .replacingOccurrences(of: "  bob-", with: " bob-")
        #expect(
            thrown { () throws(Diagnostics) in try RoundFile.parse(reopened, path: "round.md", number: Make.number(1)) } == [
                "round.md:5:3: error: 'votes' records the ballots of a closed, sealed round: it needs 'closed' and 'sealed' beside it"
            ])
    }

    /// A ballot file with an empty `for` (which `check` reports, and the tally skips) is recorded
    /// as it is, and the record reads back.
    @Test func aBallotWithoutChoicesIsRecordedAndReadBack() throws {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        try world.directory.write("voter: ann\ncast: 2026-11-03T00:00:00Z\nfor: []\n", to: "\(round)/votes/ann.yml")
        _ = try world.game("2026-11-05T00:00:00Z").close(moon)
        // Quoted: a lone time would read back as a YAML timestamp.
        #expect(try world.directory.read("\(round)/round.md").contains("votes:\n  ann: \"2026-11-03T00:00:00Z\"\n"))
        let recorded = try #require(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.first?.recordedBallots)
        #expect(recorded.map(\.voter) == [Make.handle("ann")] && recorded[0].choices.isEmpty)
    }

    /// The votes/ folder of a recorded round is taken into the inventory by its own entry, none
    /// of its files: a build reads none of them. The stamp vouches for the folder (`SealedRounds`),
    /// so a rebuild doesn't look at it either (`BuildCommandTests.aRecordedRoundsVotesFolderIsNotLookedAt`).
    @Test func theInventoryTakesARecordedVotesFolderByItself() throws {
        let world = try closedRound()
        let (_, _, inventory) = world.reader.loadAllTakingInventory(cache: nil, racyAfter: .max)
        var paths: [String] = []
        try #require(inventory).forEachEntry { path, _ in paths.append(String(decoding: path, as: UTF8.self)) }
        #expect(paths.contains("projects/moon/rounds/0001/votes"))
        #expect(!paths.contains { $0.hasPrefix("projects/moon/rounds/0001/votes/") })
        #expect(paths.contains("projects/moon/rounds/0001/submissions/bob-20261102100000.md"))
    }

    /// The project cache keeps the record, shared with the ballots or apart from them.
    @Test func theProjectCacheKeepsTheRecord() throws {
        let world = try closedRound()
        let project = try #require(world.reader.loadAll().0?.projects.first)
        let codec = ProjectCodec(layout: ContentLayout(root: world.root))
        let decoded = try #require(codec.decode(codec.encode(project)))
        #expect(decoded == project)
        #expect(decoded.rounds.first?.recordedBallots?.first?.origin.isIdentical(to: decoded.rounds[0].origin) == true)
        var apart = project
        apart.rounds[0].ballots.removeLast()
        let decodedApart = try #require(codec.decode(codec.encode(apart)))
        #expect(decodedApart == apart)
        #expect(decodedApart.rounds.first?.recordedBallots?.count == 2)
    }
}
