import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A build takes the replay of every closed round from `.prolific/replay.cache` while nothing but
/// open rounds changed; what it gets must always be what replaying the files gives.
@Suite struct ReplayCacheTests {
    /// sun's round 1 closed by the fair tally, moon's round 1 open with a snippet and a ballot.
    func world() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(slug: Make.slug("sun"), title: "Sun", owner: Make.handle("bob"), rounds: 3, starter: "Hot."))
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("ann"), ending: false, body: "A.")
        _ = try world.game("2026-11-02T01:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "C.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: Make.slug("sun"), by: Make.handle("bob"), for: ["ann-20261102000000"])
        _ = try world.game("2026-11-04T00:00:00Z").close(Make.slug("sun"))
        _ = try world.game("2026-11-05T00:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("ann"), ending: false, body: "M.")
        _ = try world.game("2026-11-05T01:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("cat"), for: ["ann-20261105000000"])
        return world
    }

    /// The content as it is now, and a cache for it, every entry vouched for (no racy window: the
    /// files of a test were all written this second).
    func cache(
        _ world: Playground, evidence: IdentityEvidence = IdentityEvidence(), binary: String = "1 2 3"
    ) throws -> (Content, ReplayCache?) {
        let content = try #require(world.reader.loadAll().0)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        return (content, ReplayCache(layout: ContentLayout(root: world.root), inventory: inventory, content: content, evidence: evidence, binary: binary))
    }

    /// The replay saved with a mark no replay gives, so a load that finds it proves the cache answered.
    func saveMarked(_ world: Playground, evidence: IdentityEvidence = IdentityEvidence()) throws -> [TallyTimeline.Replayed] {
        let (content, cache) = try cache(world, evidence: evidence)
        var replayed = TallyTimeline(content: content).replayExplained()
        try #require(replayed.count == 1 && replayed[0].explained != nil)
        replayed[0].explained?.record.ballots = 99
        try #require(cache).save(replayed)
        return replayed
    }

    /// The replay a load kept whole, if it did.
    func kept(_ found: ReplayCache.Found?) -> ReplayedRounds? {
        guard case .kept(let kept) = found else { return nil }
        return kept
    }

    /// Whether `kept` holds exactly the rounds of `replayed`, each with the same explanation.
    func holds(_ kept: ReplayedRounds?, _ replayed: [TallyTimeline.Replayed]) -> Bool {
        guard let kept, kept.count == replayed.count else { return false }
        return replayed.allSatisfy { kept.explained($0.slug, $0.round.number) == $0.explained }
    }

    /// The files' digest is taken project by project: a project whose folder has the key a
    /// kept part was taken with has that part, and one whose key changed is hashed again.
    @Test func aProjectsPartOfTheFilesDigestIsKeptByItsFoldersKey() throws {
        let world = try world()
        let (_, cache) = try cache(world)
        let cacheValue = try #require(cache)
        let fresh = cacheValue.filesDigests()
        let parts = try #require(fresh.parts)
        #expect(parts.map(\.slug.rawValue) == ["moon", "sun"])
        let kept = Dictionary(uniqueKeysWithValues: parts.map { ($0.slug, $0) })
        #expect(cacheValue.filesDigests(kept: kept).second == fresh.second)
        #expect(cacheValue.filesDigests(kept: kept).parts == parts)
        // Proof that a kept part is taken: one marked under the same key changes the digest.
        var marked = kept
        marked[Make.slug("sun")]?.digest = Array(repeating: 7, count: 32)
        #expect(cacheValue.filesDigests(kept: marked).second != fresh.second)
        // Under another key it is not taken: the project is hashed again.
        marked[Make.slug("sun")]?.key = Array(repeating: 1, count: 32)
        #expect(cacheValue.filesDigests(kept: marked).second == fresh.second)
        // A closed round's file written again: its project's key, and the digest, change.
        let snippet = world.reader.layout.submissionFile(Make.slug("sun"), Make.number(1), Make.id("cat-20261102010000"))
        let text = try String(contentsOfFile: snippet, encoding: .utf8)
        try (text + "\n").write(toFile: snippet, atomically: true, encoding: .utf8)
        let (_, changed) = try self.cache(world)
        #expect(try #require(changed).filesDigests(kept: kept).second != fresh.second)
        // An open round's ballot is not in it.
        _ = try world.game("2026-11-05T02:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("bob"), for: ["ann-20261105000000"])
        let (_, afterBallot) = try self.cache(world)
        #expect(try #require(afterBallot).filesDigests(kept: kept).second == (try #require(changed)).filesDigests().second)
    }

    @Test func aReplayRoundTripsThroughItsBytesWithEveryField() throws {
        let world = try world()
        let (content, cache) = try cache(world)
        let cacheValue = try #require(cache)
        var replayed = TallyTimeline(content: content).replayExplained()
        var explained = try #require(replayed[0].explained)
        // Every field the real replay leaves at its default, set.
        let id = Make.id("cat-20261102010000")
        explained.ballots[0].factors = [.init(value: 0.5, reason: "one of 2 voters committed by the same git identity")]
        explained.ballots[0].shares.append(
            FairTally.Share(
                id: id, weight: 1.0 / 3.0, habit: 0.25, record: VotingHistory.PairRecord(chances: 7, backs: 6, expected: 2.5),
                mutual: true))
        explained.winner = nil
        replayed[0].explained = explained
        // A round decided by the plain count has no explanation.
        let plain = try #require(content.projects.first { $0.slug == Make.slug("moon") })
        var closedPlain = plain.rounds[0]
        closedPlain.closed = Make.time("2026-11-06T00:00:00Z")
        replayed.append(TallyTimeline.Replayed(slug: plain.slug, round: closedPlain, outcome: replayed[0].outcome, explained: nil))
        var withPlain = content
        withPlain.projects = content.projects.map { $0.slug == plain.slug ? { var p = $0; p.rounds[0] = closedPlain; return p }($0) : $0 }
        let saved = cacheValue.save(replayed)
        let kept = try #require(self.kept(cacheValue.load(for: withPlain)))
        #expect(holds(kept, replayed))
        #expect(holds(saved, replayed))
        // The bytes that stand for each round are the same whether saved or loaded, and differ
        // between the two rounds.
        for result in replayed {
            #expect(kept.encoded(result.slug, result.round.number) == saved.encoded(result.slug, result.round.number))
        }
        #expect(kept.encoded(replayed[0].slug, replayed[0].round.number) != kept.encoded(plain.slug, closedPlain.number))
        #expect(kept.explained(Make.slug("moon"), closedPlain.number) == nil)
        // Whether a round has an explanation is known without decoding it.
        #expect(kept.hasExplanation(replayed[0].slug, replayed[0].round.number))
        #expect(!kept.hasExplanation(plain.slug, closedPlain.number))
        #expect(saved.hasExplanation(replayed[0].slug, replayed[0].round.number) && !saved.hasExplanation(plain.slug, closedPlain.number))
        #expect(kept.explained(Make.slug("sun"), RoundNumber(2)!) == nil, "a round not replayed")
    }

    /// A build without a cache (its key can't be had: racy files) gives each round the bytes a
    /// saved or kept replay gives it: round pages are fingerprinted by them, and other bytes
    /// would render every round page again, then again in the next build.
    @Test func aReplayWithoutACacheHasTheBytesACacheGives() throws {
        let world = try world()
        let (content, cache) = try cache(world)
        let replayed = TallyTimeline(content: content).replayExplained()
        let cacheValue = try #require(cache)
        let saved = cacheValue.save(replayed)
        let kept = try #require(self.kept(cacheValue.load(for: content)))
        let unsaved = ReplayCache.encoded(replayed)
        #expect(holds(unsaved, replayed))
        for result in replayed {
            let bytes = unsaved.encoded(result.slug, result.round.number)
            #expect(bytes != nil)
            #expect(bytes == saved.encoded(result.slug, result.round.number))
            #expect(bytes == kept.encoded(result.slug, result.round.number))
        }
    }

    /// What a round page reads of a replay (each round's bytes and whether it is explained,
    /// `SiteBuilder.replayIdentity`) is the same for the replay a build saved and the one the
    /// next build loads, and differs for a round whose explanation does; a replay without
    /// bytes has none.
    @Test func aSavedReplayAndTheLoadedOneShowTheSame() throws {
        let world = try world()
        let (content, cache) = try cache(world)
        let cacheValue = try #require(cache)
        func shown(_ replay: ReplayedRounds?, _ rounds: [TallyTimeline.Replayed]) -> [ArraySlice<UInt8>?]? {
            guard let replay else { return nil }
            return rounds.map { replay.hasExplanation($0.slug, $0.round.number) ? replay.encoded($0.slug, $0.round.number) : nil }
        }
        let replayed = TallyTimeline(content: content).replayExplained()
        try #require(replayed.contains { $0.explained != nil })
        let saved = try #require(shown(cacheValue.save(replayed), replayed))
        #expect(saved.contains { $0 != nil })
        #expect(shown(kept(cacheValue.load(for: content)), replayed) == saved)
        #expect(shown(ReplayCache.encoded(replayed), replayed) == saved)
        #expect(replayed.allSatisfy { ReplayedRounds(replayed).encoded($0.slug, $0.round.number) == nil })
        var changed = replayed
        let first = try #require(changed.firstIndex { $0.explained != nil })
        changed[first].explained?.ballots[0].weight += 0.001
        let other = try #require(shown(cacheValue.save(changed), replayed))
        #expect(other != saved && other[first] != saved[first])
        #expect(shown(kept(cacheValue.load(for: content)), replayed) == other)
    }

    /// A build reads the file's bytes aside, before the content has loaded (`sealedBytes`), and
    /// hands them to `load`: what it finds is what reading them there finds; bytes whose seal
    /// doesn't hold are none, and a stale file's bytes still answer only for their own files.
    @Test func theBytesReadAsideLoadAsTheFileDoes() throws {
        let world = try world()
        let marked = try saveMarked(world)
        let layout = ContentLayout(root: world.root)
        let (content, cache) = try cache(world)
        let cacheValue = try #require(cache)
        let bytes = try #require(ReplayCache.sealedBytes(layout))
        #expect(holds(kept(cacheValue.load(for: content, sealed: bytes)), marked))
        #expect(holds(kept(cacheValue.load(for: content)), marked))
        let path = "\(world.root)/\(ReplayCache.file)"
        try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: path))
        #expect(ReplayCache.sealedBytes(layout) == nil, "cut short")
        #expect(holds(kept(cacheValue.load(for: content, sealed: bytes)), marked), "the bytes read aside, not the file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        _ = try world.game("2026-11-05T02:00:00Z").close(Make.slug("moon"))
        let (later, laterCache) = try self.cache(world)
        #expect(kept(try #require(laterCache).load(for: later, sealed: bytes)) == nil, "a round closed since")
    }

    @Test func changedExplanationsGiveChangedBytes() throws {
        let world = try world()
        let (content, cache) = try cache(world)
        let cacheValue = try #require(cache)
        let replayed = TallyTimeline(content: content).replayExplained()
        let before = try #require(cacheValue.save(replayed).encoded(replayed[0].slug, replayed[0].round.number))
        var changed = replayed
        changed[0].explained?.ballots[0].weight += 0.001
        let after = try #require(cacheValue.save(changed).encoded(replayed[0].slug, replayed[0].round.number))
        #expect(before != after)
        #expect(holds(kept(cacheValue.load(for: content)), changed))
    }

    @Test func aBallotOrSnippetInAnOpenRoundKeepsTheReplay() throws {
        let world = try world()
        let marked = try saveMarked(world)
        #expect(holds(kept(try cache(world).1?.load(for: try cache(world).0)), marked), "the same files")

        _ = try world.game("2026-11-05T02:00:00Z").vote(in: Make.slug("moon"), by: Make.handle("bob"), for: ["ann-20261105000000"])
        _ = try world.game("2026-11-05T03:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("cat"), ending: false, body: "N.")
        let (content, cache) = try cache(world)
        #expect(holds(kept(cache?.load(for: content)), marked))

        // A profile's name, bio and follows are nothing the replay reads; its join time is.
        let profile = "Content/users/ann.md"
        let text = try world.directory.read(profile)
        try world.directory.write(text.replacingOccurrences(of: "name: ANN", with: "name: Dr Ann"), to: profile)
        #expect(text.contains("name: ANN"))
        #expect(holds(kept(try self.cache(world).1?.load(for: try self.cache(world).0)), marked), "a new name")
    }

    /// A tally reads the commits of its own round's ballots and each voter's first profile
    /// commit: an open round's ballot committed (a merged pull request) or a profile's later
    /// commit keeps the replay; a closed round's ballot committed again, or a profile with an
    /// earlier first commit, doesn't. A round closed since brings its ballots' commits along.
    @Test func gitEvidenceNoTallyReadsKeepsTheReplay() throws {
        let world = try world()
        func commit(_ identity: String, _ time: String) -> IdentityEvidence.Commit {
            IdentityEvidence.Commit(identity: "\(identity)@example.org", time: Make.time(time))
        }
        let saved = IdentityEvidence(
            profileCommits: [Make.handle("ann"): [commit("ann", "2026-10-01T00:00:00Z")]],
            ballotCommits: [
                "sun/0001": [Make.handle("bob"): [commit("bob", "2026-11-03T00:00:00Z")]],
                "moon/0001": [Make.handle("cat"): [commit("cat", "2026-11-05T01:00:00Z")]],
            ])
        let marked = try saveMarked(world, evidence: saved)
        func load(_ evidence: IdentityEvidence) throws -> ReplayCache.Found? {
            try cache(world, evidence: evidence).1?.load(for: try cache(world).0)
        }
        #expect(holds(kept(try load(saved)), marked), "the same evidence")

        var later = saved
        later.ballotCommits["moon/0001"]?[Make.handle("cat")]?.append(commit("cat", "2026-11-05T02:00:00Z"))
        later.ballotCommits["moon/0001"]?[Make.handle("bob")] = [commit("bob", "2026-11-05T03:00:00Z")]
        later.profileCommits[Make.handle("ann")]?.append(commit("ann", "2026-11-05T04:00:00Z"))
        #expect(holds(kept(try load(later)), marked), "an open round's ballots and profiles' later commits")

        var recommitted = saved
        recommitted.ballotCommits["sun/0001"]?[Make.handle("bob")]?.append(commit("bob", "2026-11-03T01:00:00Z"))
        #expect(try load(recommitted) == nil, "a closed round's ballot committed again")
        var earlier = saved
        earlier.profileCommits[Make.handle("ann")]?.insert(commit("ann", "2026-09-01T00:00:00Z"), at: 0)
        #expect(try load(earlier) == nil, "a profile's earlier first commit")

        // moon's round closes: the saved replay is a base, and what is saved then covers its ballots' commits.
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))
        let (content, closed) = try cache(world, evidence: saved)
        guard case .adding(let base) = try #require(closed).load(for: content) else {
            Issue.record("the saved replay is not taken as a base")
            return
        }
        #expect(base.added == ["moon/0001"])
        try #require(closed).save(TallyTimeline(content: content, evidence: saved).replayExplained())
        #expect(kept(try cache(world, evidence: saved).1?.load(for: content)) != nil)
        #expect(try cache(world, evidence: later).1?.load(for: content) == nil, "the closed round's ballots committed again")
    }

    @Test func aChangeOutsideOpenRoundsReplaysAgain() throws {
        let world = try world()
        _ = try saveMarked(world)
        // Git's evidence and the binary are read through the key, not the files.
        let commit = IdentityEvidence.Commit(identity: "ann@example.org", time: Make.time("2026-11-05T01:00:00Z"))
        let committed = IdentityEvidence(ballotCommits: ["sun/0001": [Make.handle("bob"): [commit]]])
        #expect(try cache(world, evidence: committed).1?.load(for: try cache(world).0) == nil, "a ballot's commit")
        let maintained = IdentityEvidence(maintainers: ["ann@example.org"])
        #expect(try cache(world, evidence: maintained).1?.load(for: try cache(world).0) == nil, "a maintainer")
        #expect(try cache(world, binary: "1 2 4").1?.load(for: try cache(world).0) == nil, "another binary")

        let profile = "Content/users/ann.md"
        let before = try world.directory.read(profile)
        try world.directory.write(before.replacingOccurrences(of: "2026-10-01", with: "2026-09-01"), to: profile)
        #expect(try cache(world).1?.load(for: try cache(world).0) == nil, "a player joined earlier")
        try world.directory.write(before, to: profile)

        _ = try saveMarked(world)
        let project = "Content/projects/sun/project.md"
        let start = try world.directory.read(project)
        try world.directory.write(start.replacingOccurrences(of: "2026-11-01", with: "2026-10-30"), to: project)
        #expect(start.contains("2026-11-01"))
        #expect(try cache(world).1?.load(for: try cache(world).0) == nil, "a project started earlier")
        try world.directory.write(start, to: project)

        _ = try saveMarked(world)
        try world.directory.write("Draft.\n", to: "Content/projects/sun/notes.md")
        #expect(try cache(world).1?.load(for: try cache(world).0) == nil, "a file beside a project's rounds")
    }

    /// After `close`, the saved replay lacks the round closed: the load says which, the tally
    /// added is the one a whole replay gives, and the file saved is the one a whole replay saves.
    @Test func aRoundClosedSinceIsAddedToTheSavedReplay() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        do {
            let (content, cache) = try cache(world)
            let (replayed, history) = TallyTimeline(content: content).replayExplainedWithHistory()
            try #require(cache).save(replayed)
            let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
            HistoryCache.warm(from: content, stamps: .from(inventory), layout: layout) { history }
        }
        let path = "\(world.root)/\(ReplayCache.file)"
        let beforeClose = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!ReplayCache.lacksClosedRounds(layout, content: try cache(world).0), "the hint: no round closed since")
        _ = try world.game("2026-11-06T00:00:00Z").close(Make.slug("moon"))

        let (content, closedCache) = try cache(world)
        #expect(ReplayCache.lacksClosedRounds(layout, content: content), "the hint: a round closed since")
        for start in [beforeClose.prefix(20), Data("not a replay".utf8)] {
            try start.write(to: URL(fileURLWithPath: path))
            #expect(!ReplayCache.lacksClosedRounds(layout, content: content), "no hint from a file that can't be read")
        }
        try beforeClose.write(to: URL(fileURLWithPath: path))
        let cacheValue = try #require(closedCache)
        guard case .adding(let base) = cacheValue.load(for: content) else {
            Issue.record("the saved replay is not taken as a base")
            return
        }
        #expect(base.added == ["moon/0001"])
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let past = try #require(HistoryCache.history(of: content, leavingOut: base.added, stamps: .from(inventory), saved: HistoryCache.saved(layout)))
        let timeline = TallyTimeline(content: content)
        let (added, history) = try #require(timeline.replayAdding(base.added, to: past))
        let (whole, wholeHistory) = timeline.replayExplainedWithHistory()
        #expect(added == Array(whole.suffix(1)) && whole.count == 2)
        #expect(history.pairs == wholeHistory.pairs && history.karma == wholeHistory.karma)

        let saved = cacheValue.save(adding: added, to: base)
        #expect(holds(saved, whole))
        // Each project's identity: moon's made anew with its round, sun's kept as it was saved;
        // the same as a whole replay's, and as the file gives back.
        #expect(saved.identities == ReplayCache.encoded(whole).identities && saved.identities.count == 2)
        #expect(saved.identities[Make.slug("sun")] == base.identities[Make.slug("sun")] && base.identities[Make.slug("moon")] == nil)
        #expect(saved.identities[Make.slug("moon")]?.rounds == 1 && saved.identities[Make.slug("moon")]?.digest.count == 32)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        cacheValue.save(whole)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the file a whole replay saves")
        #expect(holds(kept(cacheValue.load(for: content)), whole))
        #expect(kept(cacheValue.load(for: content))?.identities == saved.identities)
        for result in whole {
            #expect(saved.encoded(result.slug, result.round.number) == kept(cacheValue.load(for: content))?.encoded(result.slug, result.round.number))
        }

        // Anything else changed besides, and the game is replayed.
        try beforeClose.write(to: URL(fileURLWithPath: path))
        guard case .adding = try cache(world).1?.load(for: try cache(world).0) else {
            Issue.record("the saved replay is not taken as a base")
            return
        }
        let profile = "Content/users/ann.md"
        try world.directory.write(try world.directory.read(profile).replacingOccurrences(of: "2026-10-01", with: "2026-09-01"), to: profile)
        #expect(try cache(world).1?.load(for: try cache(world).0) == nil, "a player joined earlier")
    }

    @Test func aTornCacheOrOneNamingAnotherRoundIsAMiss() throws {
        let world = try world()
        _ = try saveMarked(world)
        let (content, cache) = try cache(world)
        let path = "\(world.root)/\(ReplayCache.file)"
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        for damage in [good.prefix(good.count - 1), good.prefix(16), Data(count: good.count), good.dropLast(8) + Data(count: 8)] {
            try damage.write(to: URL(fileURLWithPath: path))
            #expect(cache?.load(for: content) == nil)
        }
        try good.write(to: URL(fileURLWithPath: path))
        var without = content
        without.projects.removeAll { $0.slug == Make.slug("sun") }
        #expect(cache?.load(for: without) == nil, "sun's round is not in the content")
    }

    @Test func racyFilesAreNoMatchAndNotSaved() throws {
        let world = try world()
        _ = try saveMarked(world)
        let layout = ContentLayout(root: world.root)
        let content = try #require(world.reader.loadAll().0)
        let inventory = try #require(BuildStamp.inventory(of: layout))
        let cache = try #require(ReplayCache(layout: layout, inventory: inventory, content: content, evidence: IdentityEvidence(), binary: "1 2 3"))
        #expect(cache.load(for: content) == nil, "written this second")
        let path = "\(world.root)/\(ReplayCache.file)"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let replayed = TallyTimeline(content: content).replayExplained()
        #expect(holds(cache.save(replayed), replayed))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not saved")
    }
}
