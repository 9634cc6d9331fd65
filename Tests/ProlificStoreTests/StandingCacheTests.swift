import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A rebuild counts the standings of the projects whose files changed and takes every other
/// project's part from `.prolific/standing.cache`; the sum must always be the count from scratch.
@Suite struct StandingCacheTests {
    /// The replay cache's game (sun's round 1 closed: a win, karma; moon's round 1 open with a
    /// snippet and a ballot), and its content.
    func world() throws -> (Playground, Content) {
        let world = try ReplayCacheTests().world()
        return (world, try #require(world.reader.loadAll().0))
    }

    func cache(_ world: Playground, binary: String = "1 2 3") throws -> StandingCache {
        try #require(StandingCache(layout: ContentLayout(root: world.root), binary: binary))
    }

    /// The cache's standings of `content` and how it had them, with the count from scratch.
    func standings(
        _ cache: StandingCache, _ content: Content, _ keys: [Slug: String]
    ) -> (kept: [Handle: Standing.Counts], outcome: StandingCache.Outcome, fresh: [Handle: Standing.Counts]) {
        let (standing, outcome) = cache.standing(of: content, keys: keys, badges: Badge.defaults)
        return (standing.counts, outcome, Standing(content: content).counts)
    }

    /// `content` with one more ballot in moon's open round, by bob.
    func withBallot(_ content: Content) throws -> Content {
        var content = content
        let p = try #require(content.projects.firstIndex { $0.slug == Make.slug("moon") })
        let r = content.projects[p].rounds.count - 1
        content.projects[p].rounds[r].ballots.append(
            Ballot(
                voter: Make.handle("bob"), cast: Make.time("2026-11-05T02:00:00Z"),
                choices: [content.projects[p].rounds[r].submissions[0].id], origin: Origin(path: "")))
        return content
    }

    @Test func theSumKeptIsTheCountFromScratchAfterEveryChange() throws {
        let (world, content) = try world()
        let cache = try cache(world)
        let keys = [Make.slug("sun"): "s1", Make.slug("moon"): "m1"]

        var result = standings(cache, content, keys)
        #expect(result.outcome == .counted(projects: 2))
        #expect(result.kept == result.fresh)
        #expect(result.kept[Make.handle("ann")]?.wins == 1 && result.kept[Make.handle("ann")]?.karma.wins == 1)

        // The same keys: nothing is counted, and a change the keys don't show isn't seen, which
        // proves the parts came from the file.
        let voted = try withBallot(content)
        result = standings(cache, voted, keys)
        #expect(result.outcome == .updated(projects: 0))
        #expect(result.kept == Standing(content: content).counts)
        #expect(result.kept != result.fresh)

        // moon's files changed: its part is counted again, sun's is kept.
        var moved = keys
        moved[Make.slug("moon")] = "m2"
        result = standings(cache, voted, moved)
        #expect(result.outcome == .updated(projects: 1))
        #expect(result.kept == result.fresh)
        #expect(result.kept[Make.handle("bob")]?.ballots == 2)

        // sun went: its part comes out, down to players left with nothing.
        var withoutSun = voted
        withoutSun.projects.removeAll { $0.slug == Make.slug("sun") }
        result = standings(cache, withoutSun, [Make.slug("moon"): "m2"])
        #expect(result.outcome == .updated(projects: 0))
        #expect(result.kept == result.fresh)
        #expect(result.kept[Make.handle("bob")]?.wins == 0 && result.kept[Make.handle("bob")]?.projects == 0)

        // sun came back, once without a key (racy): counted each time, never kept in the sum.
        result = standings(cache, voted, [Make.slug("moon"): "m2"])
        #expect(result.outcome == .updated(projects: 1))
        #expect(result.kept == result.fresh)
        result = standings(cache, voted, [Make.slug("moon"): "m2"])
        #expect(result.kept == result.fresh)
        result = standings(cache, voted, moved)
        #expect(result.outcome == .updated(projects: 1))
        #expect(result.kept == result.fresh)
        result = standings(cache, voted, moved)
        #expect(result.outcome == .updated(projects: 0))
        #expect(result.kept == result.fresh)
    }

    @Test func anotherBinaryOrATornFileCountsEveryProject() throws {
        let (world, content) = try world()
        let keys = [Make.slug("sun"): "s1", Make.slug("moon"): "m1"]
        _ = standings(try cache(world), content, keys)

        let other = standings(try cache(world, binary: "1 2 4"), content, keys)
        #expect(other.outcome == .counted(projects: 2))
        #expect(other.kept == other.fresh)

        let path = try cache(world).path()
        var bytes = try FileSystem.readBytes(path)
        bytes[bytes.count / 2] ^= 0xFF
        try AtomicFile.write(bytes: bytes, to: path)
        let torn = standings(try cache(world), content, keys)
        #expect(torn.outcome == .counted(projects: 2))
        #expect(torn.kept == torn.fresh)
        #expect(standings(try cache(world), content, keys).outcome == .updated(projects: 0), "the file is whole again")
    }

    @Test func playersWithoutAPartAreCountedAsZero() throws {
        let (world, content) = try world()
        var joined = content
        let dan = User(handle: Make.handle("dan"), name: "Dan", joined: Make.time("2026-10-02T00:00:00Z"), origin: Origin(path: ""))
        joined.users[dan.handle] = dan
        let result = standings(try cache(world), joined, [:])
        #expect(result.kept[Make.handle("dan")] == Standing.Counts())
        #expect(result.kept == result.fresh)
    }
}
