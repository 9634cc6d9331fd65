import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `close` hands its tally to the next build (`HandedTallies`), which takes it only when it can
/// tell the tally read what its own would: it must always be what replaying the files gives.
@Suite struct HandedTalliesTests {
    /// sun's round 1 closed, moon's round 1 open with ann's snippet and cat's ballot; a build
    /// stamp in place (a file of any content: what `close` notes is its version).
    func world() throws -> Playground {
        let world = try ReplayCacheTests().world()
        try world.directory.write("a build's stamp", to: "Content/\(BuildStamp.file)")
        return world
    }

    let moon = "moon/0001"

    /// The tallies `close` kept after the build stamp in place, if any.
    func handed(_ world: Playground) throws -> HandedTallies? {
        let layout = ContentLayout(root: world.root)
        let key = try #require(HandedTallies.key(layout))
        return HandedTallies.read(layout, key: key, after: try #require(FileInventory.stamp(BuildStamp.path(layout))))
    }

    /// The content and its inventory as they are now (every entry vouched for: no racy window).
    func now(_ world: Playground) throws -> (Content, FileInventory) {
        let content = try #require(world.reader.loadAll().0)
        return (content, try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max)))
    }

    /// Each project folder's key in `inventory`, as a build stamp records them.
    func keys(_ inventory: FileInventory, _ slugs: [String]) -> [String: SubtreeKeys] {
        var keys: [String: SubtreeKeys] = [:]
        for slug in slugs {
            if let key = inventory.subtreeKey("projects/\(slug)") { keys["projects/\(slug)"] = SubtreeKeys(key: key) }
        }
        return keys
    }

    /// The handed tally is the one a whole replay gives, whether each project's past is checked
    /// by its rounds' stamps (no keys recorded: the stamps `close` took with `stat` are the
    /// ones the build's inventory gives) or taken for a folder whose key is as recorded.
    @Test func theBuildTakesTheTallyCloseHandedAsAWholeReplayGivesIt() throws {
        let world = try world()
        let (_, before) = try now(world)
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let handed = try #require(try handed(world))
        #expect(handed.entries.map(\.round) == [moon])
        #expect(handed.entries.first?.past.keys.map(\.rawValue).sorted() == ["moon", "sun"])
        let (content, inventory) = try now(world)
        let whole = TallyTimeline(content: content).replayExplained()
        let expected = try #require(whole.first { $0.slug == Make.slug("moon") })
        try #require(expected.explained?.ballots.count == 1)
        for recorded in [[:], keys(before, ["sun"]), keys(before, ["moon", "sun"])] {
            let taken = handed.replayed([moon], content: content, inventory: inventory, recorded: recorded, evidence: IdentityEvidence())
            #expect(taken == [expected], "\(recorded.keys.sorted())")
        }
        // Only rounds it has: one it lacks, and the build tallies them itself.
        #expect(handed.replayed([moon, "sun/0001"], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()) == nil)
    }

    /// A build counts the handed rounds its content has closed (`closedRounds`) in their own
    /// projects only, told by the slug before each key's last slash: another project whose slug
    /// starts the same has none of them.
    @Test func theRoundsHandedOverAreCountedInTheirOwnProjectsOnly() throws {
        let world = try world()
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let handed = try #require(try handed(world))
        let (content, _) = try now(world)
        // sun's round 1 closed too, but was not handed over.
        #expect(handed.closedRounds(in: content) == 1)
        var renamed = content
        let m = try #require(renamed.projects.firstIndex { $0.slug == Make.slug("moon") })
        renamed.projects[m].slug = Make.slug("moon-2")
        #expect(handed.closedRounds(in: renamed) == 0)
        #expect(HandedTallies.slugs(of: ["moon/0001", "moon-2/0003", "sun"]) == ["moon", "moon-2", "sun"])
    }

    /// What the round's tally reads, changed after `close`: the build tallies it itself.
    @Test func aRoundOrVoterChangedSinceTheCloseIsTalliedAgain() throws {
        let world = try world()
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let handed = try #require(try handed(world))
        // A build counts the ballots round.md records (`BallotRecordTests`): the record changes.
        let ballot = "Content/projects/moon/rounds/0001/round.md"
        let profile = "Content/users/cat.md"
        let (ballotText, profileText) = (try world.directory.read(ballot), try world.directory.read(profile))
        func taken() throws -> [TallyTimeline.Replayed]? {
            let (content, inventory) = try now(world)
            return handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence())
        }
        try #require(try taken() != nil)
        // The ballot cast later (still before the close): a tally reads when it was cast.
        try world.directory.write(ballotText.replacingOccurrences(of: "cat: 2026-11-05T01:00:00Z", with: "cat: 2026-11-05T02:00:00Z"), to: ballot)
        #expect(try world.directory.read(ballot) != ballotText)
        #expect(try taken() == nil, "a ballot changed")
        try world.directory.write(ballotText, to: ballot)
        #expect(try taken() != nil)
        // The voter joined earlier: their vote weighs differently.
        try world.directory.write(profileText.replacingOccurrences(of: "2026-10-01", with: "2026-09-01"), to: profile)
        #expect(try world.directory.read(profile) != profileText)
        #expect(try taken() == nil, "a voter's join time changed")
        try world.directory.write(profileText, to: profile)
        #expect(try taken() != nil)
        // Git's word on the ballot: another identity made it, after it was cast.
        var evidence = IdentityEvidence()
        evidence.ballotCommits[moon] = [Make.handle("cat"): [IdentityEvidence.Commit(identity: "c@x", time: Make.time("2026-11-05T00:30:00Z"))]]
        let (content, inventory) = try now(world)
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: evidence) == nil)
    }

    /// The past, changed after `close` in a project whose folder the build checks: the build
    /// tallies the round itself. A project taken by its folder's key is not looked at.
    @Test func aPastChangedSinceTheCloseIsTalliedAgain() throws {
        let world = try world()
        let (_, before) = try now(world)
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let handed = try #require(try handed(world))
        // sun's closed round, its round.md written again (a newline more).
        let roundFile = "Content/projects/sun/rounds/0001/round.md"
        try world.directory.write(try world.directory.read(roundFile) + "\n", to: roundFile)
        let (content, inventory) = try now(world)
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()) == nil)
        // sun's key is the one recorded before: its files are not what it says, and it would
        // be taken (a build only records what its inventory saw; the key's ctime rules it out).
        #expect(inventory.subtreeKey("projects/sun") != before.subtreeKey("projects/sun"))
        let stale = keys(before, ["sun"])
        var marked = stale
        marked["projects/sun"] = SubtreeKeys(key: try #require(inventory.subtreeKey("projects/sun")))
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: stale, evidence: IdentityEvidence()) == nil)
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: marked, evidence: IdentityEvidence()) != nil)
        // A project started since: not in the past `close` read.
        _ = try world.game("2026-11-06T00:00:00Z").newProject(
            Game.ProjectRequest(slug: Make.slug("star"), title: "Star", owner: Make.handle("cat"), rounds: 3, starter: "Bright."))
        let (grown, grownInventory) = try now(world)
        #expect(handed.replayed([moon], content: grown, inventory: grownInventory, recorded: marked, evidence: IdentityEvidence()) == nil)
    }

    /// The tallies are kept after one build stamp: a build since (a stamp written again) takes
    /// none of them. Rounds closed after the same stamp are kept together; a damaged file is
    /// none.
    @Test func talliesAreKeptAfterOneBuildStampOnly() throws {
        let world = try world()
        _ = try world.game("2026-11-05T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("ann"), ending: false, body: "S2.")
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        _ = try world.game("2026-11-06T00:01:00Z").close(Make.slug("sun"))
        #expect(try handed(world)?.entries.map(\.round) == [moon, "sun/0002"])
        let (content, inventory) = try now(world)
        let both = try #require(
            try handed(world)?.replayed([moon, "sun/0002"], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()))
        let whole = TallyTimeline(content: content).replayExplained()
        #expect(both == Array(whole.suffix(2)) && whole.count == 3)

        let path = "\(world.root)/\(HandedTallies.file)"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = bytes
        damaged[damaged.count / 2] ^= 1
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(try handed(world) == nil)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try handed(world) != nil)
        // Another build's stamp: what was kept after the last one is not read, and the next
        // `close` starts anew.
        Thread.sleep(forTimeInterval: 0.01)
        try world.directory.write("another build's stamp", to: "Content/\(BuildStamp.file)")
        #expect(try handed(world) == nil)
        _ = try world.game("2026-11-07T00:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "M2.")
        _ = try world.game("2026-11-08T00:00:00Z").close(Make.slug("moon"))
        #expect(try handed(world)?.entries.map(\.round) == ["moon/0002"])
        // Without a build stamp, nothing is kept: no build would take it.
        try FileManager.default.removeItem(atPath: "\(world.root)/\(BuildStamp.file)")
        try FileManager.default.removeItem(atPath: path)
        _ = try world.game("2026-11-09T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "S3.")
        _ = try world.game("2026-11-10T00:00:00Z").close(Make.slug("sun"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Every part of the round and context a tally reads is in the digest: changing any one
    /// changes it (and a build then tallies the round itself).
    @Test func theDigestOfATallysInputsCoversEachPartItReads() throws {
        let world = try world()
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let content = try #require(world.reader.loadAll().0)
        let round = try #require(content.projects.first { $0.slug == Make.slug("moon") }?.rounds.first)
        try #require(round.ballots.count == 1 && round.submissions.count == 1)
        let context = TallyContext(
            history: VotingHistory(), joined: [Make.handle("cat"): Make.time("2026-10-01T00:00:00Z")],
            identities: [Make.handle("cat"): "c@x"], suspect: [Make.handle("cat"): "cast late"])
        let slug = Make.slug("moon")
        let base = HandedTallies.inputs(of: round, slug: slug, context: context)
        #expect(HandedTallies.inputs(of: round, slug: slug, context: context) == base)
        var rounds: [String: Round] = [:]
        func changed(_ name: String, _ change: (inout Round) -> Void) {
            var copy = round
            change(&copy)
            rounds[name] = copy
        }
        let later = Make.time("2026-11-05T12:00:00Z")
        changed("number") { $0.number = Make.number(2) }
        changed("opened") { $0.opened = later }
        changed("closes") { $0.closes = later }
        changed("closed") { $0.closed = later }
        changed("hidden") { $0.hidden = [Round.Hidden(id: Make.id("ann-20261105000000"), by: "bob", at: later, reason: "spam")] }
        changed("snippet id") { $0.submissions[0].id = Make.id("ann-20261105000001") }
        changed("snippet author") { $0.submissions[0].author = Make.handle("bob") }
        changed("snippet text") { $0.submissions[0].body += " More." }
        changed("voter") { $0.ballots[0].voter = Make.handle("bob") }
        changed("cast") { $0.ballots[0].cast = later }
        changed("choices") { $0.ballots[0].choices = [] }
        changed("a ballot more") { $0.ballots.append($0.ballots[0]) }
        for (name, changedRound) in rounds {
            #expect(HandedTallies.inputs(of: changedRound, slug: slug, context: context) != base, "\(name)")
        }
        #expect(HandedTallies.inputs(of: round, slug: Make.slug("sun"), context: context) != base, "slug")
        var contexts: [String: TallyContext] = [:]
        contexts["joined"] = TallyContext(
            history: VotingHistory(), joined: [Make.handle("cat"): later], identities: context.identities, suspect: context.suspect)
        contexts["identities"] = TallyContext(
            history: VotingHistory(), joined: context.joined, identities: [Make.handle("cat"): "d@x"], suspect: context.suspect)
        contexts["suspect"] = TallyContext(
            history: VotingHistory(), joined: context.joined, identities: context.identities, suspect: [:])
        for (name, changedContext) in contexts {
            #expect(HandedTallies.inputs(of: round, slug: slug, context: changedContext) != base, "\(name)")
        }
        // What a tally doesn't read is not in it: the round's record and seal, which `close`
        // writes after tallying.
        var recorded = round
        recorded.tally = nil
        recorded.seal = nil
        recorded.winner = nil
        #expect(HandedTallies.inputs(of: recorded, slug: slug, context: context) == base)
    }

    /// A project's part of a past holds its start when it came before the cutoff, and each round
    /// closed before it with its number, closing and stamp.
    @Test func aProjectsPartOfThePastCoversItsStartAndClosedRounds() throws {
        let cutoff = Make.time("2026-11-10T00:00:00Z")
        let start = (created: Make.time("2026-11-01T00:00:00Z"), owner: Make.handle("ann"))
        let stamp = HistoryCache.Stamp(round: [10, 20, 30, 40, 50, 60])
        let rounds = [(number: Make.number(1), closed: Make.time("2026-11-05T00:00:00Z"), stamp: stamp)]
        let base = HandedTallies.pastPart(start: start, rounds: rounds, cutoff: cutoff)
        #expect(HandedTallies.pastPart(start: start, rounds: rounds, cutoff: cutoff) == base)
        let later = Make.time("2026-11-06T00:00:00Z")
        var others: [String: [UInt8]] = [:]
        others["created"] = HandedTallies.pastPart(start: (later, start.owner), rounds: rounds, cutoff: cutoff)
        others["owner"] = HandedTallies.pastPart(start: (start.created, Make.handle("bob")), rounds: rounds, cutoff: cutoff)
        others["number"] = HandedTallies.pastPart(start: start, rounds: [(Make.number(2), rounds[0].closed, stamp)], cutoff: cutoff)
        others["closed"] = HandedTallies.pastPart(start: start, rounds: [(Make.number(1), later, stamp)], cutoff: cutoff)
        others["stamp"] = HandedTallies.pastPart(
            start: start, rounds: [(Make.number(1), rounds[0].closed, HistoryCache.Stamp(round: [10, 20, 30, 40, 50, 61]))], cutoff: cutoff)
        others["a round more"] = HandedTallies.pastPart(start: start, rounds: rounds + [(Make.number(2), later, stamp)], cutoff: cutoff)
        others["no round"] = HandedTallies.pastPart(start: start, rounds: [], cutoff: cutoff)
        for (name, part) in others { #expect(part != base, "\(name)") }
        // What came after the cutoff is no part of the past, in whatever order the rounds come.
        let after = Make.time("2026-11-11T00:00:00Z")
        #expect(HandedTallies.pastPart(start: start, rounds: rounds + [(Make.number(2), after, stamp)], cutoff: cutoff) == base)
        #expect(
            HandedTallies.pastPart(start: start, rounds: [(Make.number(2), after, stamp)] + rounds, cutoff: cutoff) == base)
        #expect(
            HandedTallies.pastPart(start: (after, start.owner), rounds: rounds, cutoff: cutoff)
                == HandedTallies.pastPart(start: (after, Make.handle("bob")), rounds: rounds, cutoff: cutoff))
    }

    /// A round recorded as decided by the plain count, and a round not added that closed after
    /// the cutoff of one that is (its tally may have seen it: `replayAdding`'s rule), are
    /// tallied by the build itself.
    @Test func aPlainCountOrALaterClosingIsTalliedAgain() throws {
        let world = try world()
        _ = try world.game("2026-11-05T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("ann"), ending: false, body: "S2.")
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let handed = try #require(try handed(world))
        var (content, inventory) = try now(world)
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()) != nil)
        let m = try #require(content.projects.firstIndex { $0.slug == Make.slug("moon") })
        content.projects[m].rounds[0].tally?.method = Tally.method
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()) == nil)
        // sun's round 2 closes a day later, and is taken as one the replay holds.
        _ = try world.game("2026-11-07T00:00:00Z").close(Make.slug("sun"))
        (content, inventory) = try now(world)
        #expect(handed.replayed([moon], content: content, inventory: inventory, recorded: [:], evidence: IdentityEvidence()) == nil)
    }

    /// The stamps of a few projects, from their folders' entries, are those of the whole
    /// inventory; a folder not walked on its own gives none.
    @Test func stampsOfSomeProjectsAreTheWholeInventorysOnes() throws {
        let world = try world()
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let (_, inventory) = try now(world)
        let whole = HistoryCache.Stamps.from(inventory).stamps
        let some = try #require(HistoryCache.Stamps.from(inventory, projects: [Make.slug("moon")])).stamps
        #expect(!some.isEmpty && some.keys.allSatisfy { $0 == "moon" || $0.hasPrefix("moon/") })
        #expect(some == whole.filter { $0.key == "moon" || $0.key.hasPrefix("moon/") })
        #expect(some["moon/0001"]?.round.count == 6 && some["moon"] != nil)
        #expect(HistoryCache.Stamps.from(inventory, projects: [Make.slug("moon"), Make.slug("star")]) == nil)
    }

    /// A file with a good checksum but counts its bytes can't hold is refused; so is a tally
    /// whose build stamp changed while `close` ran (a build may have recorded files it read
    /// before they changed).
    @Test func aFileClaimingTooMuchOrAStampChangedMeanwhileIsNoTally() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let key = try #require(HandedTallies.key(layout))
        let after = try #require(FileInventory.stamp(BuildStamp.path(layout)))
        func sealed(_ fill: (inout BinaryWriter) -> Void) -> [UInt8] {
            var w = BinaryWriter()
            w.integer(HandedTallies.magic)
            w.text(key)
            for value in [after.kind, after.inode, after.size, after.modified, after.changed] { w.signed(value) }
            fill(&w)
            CacheSeal.seal(&w)
            return w.bytes
        }
        let path = "\(world.root)/\(HandedTallies.file)"
        let files: [String: [UInt8]] = [
            "no entries": sealed { $0.varint(0) },
            "too many entries": sealed { $0.varint(UInt64(HandedTallies.limit + 1)) },
            "parts past the end": sealed { w in
                w.varint(1)
                w.text("moon/0001")
                w.raw([UInt8](repeating: 1, count: 32))
                w.varint(1 << 40)
            },
            "an outcome past the end": sealed { w in
                w.varint(1)
                w.text("moon/0001")
                w.raw([UInt8](repeating: 1, count: 32))
                w.varint(0)
                w.varint(1 << 20)
            },
        ]
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let read = HandedTallies.read(layout, key: key, after: after)
            #expect(name == "no entries" ? read?.entries.isEmpty == true : read == nil, "\(name)")
        }
        try FileManager.default.removeItem(atPath: path)
        // Tallied after one stamp, kept when another is in place: nothing is kept.
        let content = try #require(world.reader.loadAll().0)
        let round = try #require(content.projects.first { $0.slug == Make.slug("moon") }?.rounds.first)
        let outcome = FairTally.Outcome(record: TallyRecord(method: FairTally.method, ballots: 0, scores: []), winner: nil, ballots: [])
        let past = HandedTallies.Past(projects: [], rounds: [], cutoff: Make.time("2026-11-06T00:00:00Z"))
        let context = TallyContext(history: VotingHistory(), joined: [:])
        Thread.sleep(forTimeInterval: 0.01)
        try world.directory.write("a build's stamp, written again", to: "Content/\(BuildStamp.file)")
        HandedTallies.hand(outcome, of: round, slug: Make.slug("moon"), context: context, past: past, after: after, layout: layout)
        #expect(!FileManager.default.fileExists(atPath: path))
        let now = try #require(FileInventory.stamp(BuildStamp.path(layout)))
        HandedTallies.hand(outcome, of: round, slug: Make.slug("moon"), context: context, past: past, after: now, layout: layout)
        #expect(HandedTallies.read(layout, key: key, after: now)?.entries.map(\.round) == [moon])
    }
}
