import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `close` seals a round's files in round.md; `check` names every later addition, edit or removal.
@Suite struct RoundSealTests {
    let moon = Make.slug("moon")

    /// Round 1 of moon closed with two snippets and one ballot.
    func closedRound() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        let bob = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        _ = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat's part.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("ann"), for: [bob.id.rawValue])
        _ = try world.game("2026-11-05T00:00:00Z").close(moon)
        return world
    }

    /// The seal problems as `check` finds them: against the digests of the files the loader read.
    func sealProblems(_ world: Playground) throws -> [String] {
        var reader = world.reader
        let digests = ReadDigests()
        reader.digests = digests
        let content = try reader.loadValid()
        return RoundSeal(layout: reader.layout).problems(in: content, loaderDigests: digests).map(\.description)
    }

    /// `check` tests a seal against the bytes it parsed: a file the loader read is not read again.
    @Test func theSealsAreTestedAgainstTheBytesTheLoaderRead() throws {
        let world = try closedRound()
        _ = try world.game("2026-11-06T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Next.")
        let ballot = world.directory.path("Content/projects/moon/rounds/0001/votes/ann.yml")
        var reader = world.reader
        let digests = ReadDigests()
        reader.digests = digests
        let content = try reader.loadValid()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ballot))
        #expect(digests.digests(in: world.reader.layout.votesFolder(moon, Make.number(1))) == ["ann.yml": RoundSeal.sha256(Array(bytes))])
        #expect(digests.digests(in: world.reader.layout.submissionsFolder(moon, Make.number(2))).isEmpty, "the open round is not hashed")
        #expect(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.last?.submissions.count == 1)
        // An edit after the load goes unseen with the loader's digests, and is seen by a new read.
        try (try String(contentsOfFile: ballot, encoding: .utf8) + "\n").write(toFile: ballot, atomically: true, encoding: .utf8)
        #expect(RoundSeal(layout: reader.layout).problems(in: content, loaderDigests: digests).isEmpty)
        let reread = RoundSeal(layout: reader.layout).problems(in: content).map(\.description)
        #expect(reread.count == 1 && reread.first?.hasPrefix("\(ballot):1:1: error: changed after round 1") == true)
    }

    @Test func closeRecordsTheSha256OfEverySnippetAndBallot() throws {
        let world = try closedRound()
        let text = try world.directory.read("Content/projects/moon/rounds/0001/round.md")
        // sha256 of the exact bytes, as `sha256sum` would print them.
        let ballot = try Data(contentsOf: URL(fileURLWithPath: world.directory.path("Content/projects/moon/rounds/0001/votes/ann.yml")))
        #expect(text.contains("    votes/ann.yml: \(RoundSeal.sha256(Array(ballot)))\n"))
        #expect(text.contains("    submissions/bob-20261102100000.md: "))
        #expect(text.contains("    submissions/cat-20261102110000.md: "))
        let round = try #require(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.first)
        let seal = try #require(round.seal)
        #expect(seal.files.map(\.path) == ["submissions/bob-20261102100000.md", "submissions/cat-20261102110000.md", "votes/ann.yml"])
        #expect(seal.digest == RoundSeal.sha256(Array(Seal.manifest(seal.files).utf8)))
        #expect(try sealProblems(world).isEmpty)
    }

    @Test func theOpenRoundIsNotSealed() throws {
        let world = try closedRound()
        let project = try world.reader.loadProjectStrictly(moon, depth: .all)
        #expect(project.rounds.map { $0.seal == nil } == [false, true])
    }

    @Test func checkNamesAnEditedBallot() throws {
        let world = try closedRound()
        let ballot = world.directory.path("Content/projects/moon/rounds/0001/votes/ann.yml")
        try (try String(contentsOfFile: ballot, encoding: .utf8) + "\n").write(toFile: ballot, atomically: true, encoding: .utf8)
        let problems = try sealProblems(world)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("\(ballot):1:1: error: changed after round 1 closed on 2026-11-05T00:00:00Z") == true)
    }

    @Test func checkNamesAnAddedFileAndARemovedOne() throws {
        let world = try closedRound()
        let round = "Content/projects/moon/rounds/0001"
        try world.directory.write("ann: 1\n", to: "\(round)/votes/zed.yml")
        try FileManager.default.removeItem(atPath: world.directory.path("\(round)/submissions/cat-20261102110000.md"))
        var reader = world.reader
        let digests = ReadDigests()
        reader.digests = digests
        let (content, _) = reader.loadAll()
        let problems = RoundSeal(layout: reader.layout).problems(in: try #require(content), loaderDigests: digests)
            .map(\.description)
        #expect(problems.count == 2)
        #expect(problems[0].hasPrefix(world.directory.path("\(round)/submissions/cat-20261102110000.md:1:1: error: removed after round 1")))
        #expect(problems[1].hasPrefix(world.directory.path("\(round)/votes/zed.yml:1:1: warning: added after round 1")))
    }

    /// A sealed file the loader read but couldn't parse is tested by the digest of what it read.
    @Test func aSealedFileThatNoLongerParsesIsChanged() throws {
        let world = try closedRound()
        let ballot = world.directory.path("Content/projects/moon/rounds/0001/votes/ann.yml")
        try "for: [\n".write(toFile: ballot, atomically: true, encoding: .utf8)
        var reader = world.reader
        let digests = ReadDigests()
        reader.digests = digests
        let (content, loadProblems) = reader.loadAll()
        #expect(loadProblems.contains { $0.path == ballot && $0.severity == .error })
        #expect(digests.digests(in: reader.layout.votesFolder(moon, Make.number(1)))["ann.yml"] == RoundSeal.sha256(Array("for: [\n".utf8)))
        let problems = RoundSeal(layout: reader.layout).problems(in: try #require(content), loaderDigests: digests)
        #expect(problems.map(\.path) == [ballot])
        #expect(problems.first?.message.hasPrefix("changed after round 1 closed") == true)
    }

    @Test func aHandEditedListIsReported() throws {
        let world = try closedRound()
        let path = "Content/projects/moon/rounds/0001/round.md"
        let text = try world.directory.read(path)
        let edited = text.replacingOccurrences(of: "    votes/ann.yml: ", with: "    votes/ann.yml: 0").replacingOccurrences(
            of: "(votes/ann.yml: 0[0-9a-f]{63})[0-9a-f]", with: "$1", options: .regularExpression)
        #expect(edited != text)
        try world.directory.write(edited, to: path)
        let problems = try sealProblems(world)
        #expect(problems.contains { $0.contains("error: the sealed file list was edited") })
        #expect(problems.contains { $0.contains("votes/ann.yml:1:1: error: changed after round 1") })
    }

    @Test func aMalformedSealIsAnErrorAtItsLine() throws {
        let world = try closedRound()
        let path = "Content/projects/moon/rounds/0001/round.md"
        let text = try world.directory.read(path)
        try world.directory.write(text.replacingOccurrences(of: "    votes/ann.yml: ", with: "    ../ann.yml: "), to: path)
        let (_, problems) = world.reader.loadAll()
        #expect(problems.contains { $0.message == "'../ann.yml' is not a path inside the round folder" && $0.position?.line ?? 0 > 1 })
    }

    @Test func hidingASnippetAfterTheCloseKeepsTheSeal() throws {
        let world = try closedRound()
        let before = try #require(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.first?.seal)
        let text = try RoundFile.render(try #require(try world.reader.loadProjectStrictly(moon, depth: .all).rounds.first))
        #expect(try RoundFile.parse(text, path: "round.md", number: Make.number(1)).seal == before)
    }
}
