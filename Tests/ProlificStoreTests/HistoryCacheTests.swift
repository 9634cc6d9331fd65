import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `close` takes the voting history from `.prolific/history.cache` when it can; the result must
/// always be the one reading every file gives.
@Suite struct HistoryCacheTests {
    /// Two projects: sun's round 1 closed with ballots, moon's round 1 open with snippets and ballots.
    func world() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-10-01T00:00:00Z").addUser(Make.handle("dan"), name: "Dan", bio: "")
        _ = try world.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(slug: Make.slug("sun"), title: "Sun", owner: Make.handle("bob"), rounds: 3, starter: "Hot."))
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("ann"), ending: false, body: "A.")
        _ = try world.game("2026-11-02T01:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "C.")
        for voter in ["bob", "dan"] {
            _ = try world.game("2026-11-03T00:00:00Z").vote(in: Make.slug("sun"), by: Make.handle(voter), for: ["ann-20261102000000"])
        }
        _ = try world.game("2026-11-04T00:00:00Z").close(Make.slug("sun"))
        _ = try world.game("2026-11-05T00:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("ann"), ending: false, body: "M.")
        _ = try world.game("2026-11-05T01:00:00Z").submit(to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "N.")
        for voter in ["dan", "cat"] {
            _ = try world.game("2026-11-06T00:00:00Z").vote(in: Make.slug("moon"), by: Make.handle(voter), for: ["ann-20261105000000"])
        }
        return world
    }

    func cacheFile(_ world: Playground) -> String { "\(world.root)/.prolific/history.cache" }

    func closeMoon(_ world: Playground) throws -> String {
        _ = try world.game("2026-11-07T00:00:00Z").close(Make.slug("moon"))
        return try world.directory.read("Content/projects/moon/rounds/0001/round.md")
    }

    @Test func aClosingWritesTheCacheAndTheNextUsesIt() throws {
        let world = try world()
        #expect(FileManager.default.fileExists(atPath: cacheFile(world)), "sun's close saved the history")
        let cached = try closeMoon(world)

        let fresh = try self.world()
        try FileManager.default.removeItem(atPath: cacheFile(fresh))
        #expect(try closeMoon(fresh) == cached)
        // And check, which never uses the cache, agrees.
        let (content, problems) = world.reader.loadAll()
        #expect(problems.isEmpty)
        #expect(content.map { ContentCheck.problems(in: $0) } == [])
    }

    @Test func aCorruptOrTruncatedCacheIsRebuilt() throws {
        let reference = try closeMoon(try world())
        for damage in [Data("garbage".utf8), Data()] {
            let world = try world()
            var bytes = try Data(contentsOf: URL(fileURLWithPath: cacheFile(world)))
            bytes = damage.isEmpty ? bytes.prefix(bytes.count / 2) : damage
            try bytes.write(to: URL(fileURLWithPath: cacheFile(world)))
            #expect(try closeMoon(world) == reference)
        }
    }

    @Test func aChangedClosedRoundIsReadAgain() throws {
        let reference = try closeMoon(try world())
        let world = try world()
        let layout = ContentLayout(root: world.root)
        // A build warmed the cache with sun's round.
        HistoryCache.warm(from: try world.reader.loadValid(), stamps: HistoryCache.Stamps.take(layout), layout: layout)
        let cached = try #require(HistoryCache.load(layout))
        #expect(cached.entries.count == 1)
        // Something touched sun's closed submissions folder: its stamp no longer matches, so the
        // cached history is not trusted and is rebuilt from the files.
        touch(world, "Content/projects/sun/rounds/0001/submissions")
        #expect(cached.entries.first?.stamp != sunStamp(layout))
        #expect(try closeMoon(world) == reference)
        #expect(HistoryCache.load(layout)?.entries.first?.stamp == sunStamp(layout))
    }

    /// Moves the times of the folder at `path` (in `world`'s directory) with a file made and
    /// removed in it.
    func touch(_ world: Playground, _ path: String) {
        let folder = world.directory.path(path)
        Thread.sleep(forTimeInterval: 0.01)
        #expect(FileManager.default.createFile(atPath: "\(folder)/.scratch", contents: Data()), "the folder's times are moved")
        try? FileManager.default.removeItem(atPath: "\(folder)/.scratch")
    }

    /// The stamp of sun's round 1 as the history keeps it: `close` recorded its ballots, so its
    /// votes folder is left out (`Stamp.asKept(for:)`).
    func sunStamp(_ layout: ContentLayout) -> HistoryCache.Stamp {
        HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1)).withoutVotes
    }

    /// Nothing reads the votes folder of a round counted from its record: a change in it (a
    /// ballot file added, which `check` warns about) leaves its stamp, so `close` takes the
    /// history as saved (and leaves the file), and a build's stamps are the ones `close` takes.
    @Test func aRecordedRoundsVotesFolderIsNotInItsStamp() throws {
        let reference = try closeMoon(try world())
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let sun = try #require(try world.reader.loadValid().projects.first { $0.slug == Make.slug("sun") }?.rounds.first)
        #expect(sun.countsRecord)
        HistoryCache.warm(from: try world.reader.loadValid(), stamps: HistoryCache.Stamps.take(layout), layout: layout)
        let cached = try #require(HistoryCache.load(layout))
        #expect(cached.entries.first?.stamp == sunStamp(layout))
        #expect(cached.entries.first?.stamp.round.suffix(2) == [-3, -3])
        let raw = HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1))
        touch(world, "Content/projects/sun/rounds/0001/votes")
        #expect(HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1)) != raw)
        #expect(HistoryCache.Stamps.take(layout).stamps["sun/0001"]?.asKept(for: sun) == cached.entries.first?.stamp)
        let file = cacheFile(world)
        let saved = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        #expect(try closeMoon(world) == reference)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == saved, "taken, not saved again")
        // A round not counted from its record keeps its votes folder in its stamp.
        var unrecorded = sun
        unrecorded.recordedBallots = nil
        #expect(raw.asKept(for: unrecorded) == raw)
        #expect(raw.asKept(for: sun) == raw.withoutVotes && raw.withoutVotes.leavesVotesOut && !raw.leavesVotesOut)
        // `close` stamps a round the last scan saw counting its record without its votes folder
        // while its round.md and submissions are the same; else in full.
        let now = HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1))
        #expect(now.round.prefix(4) == raw.round.prefix(4) && now != raw)
        #expect(HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1), seen: raw.withoutVotes) == raw.withoutVotes)
        #expect(HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1), seen: raw) == now)
        let moved = HistoryCache.Stamp(round: [raw.round[0] + 1] + raw.round[1..<4] + HistoryCache.Stamp.votesLeftOut)
        #expect(HistoryCache.stamp(layout, Make.slug("sun"), Make.number(1), seen: moved) == now)
    }

    /// What closing moon writes in a world of its own; then a world without `.prolific/`, with its
    /// stamps and content as a build takes them.
    func uncachedWorld() throws -> (
        reference: String, world: Playground, layout: ContentLayout, stamps: HistoryCache.Stamps, content: Content
    ) {
        let reference = try closeMoon(try world())
        let world = try world()
        let layout = ContentLayout(root: world.root)
        try FileManager.default.removeItem(atPath: world.directory.path("Content/.prolific"))
        return (reference, world, layout, HistoryCache.Stamps.take(layout), try world.reader.loadValid())
    }

    /// A build keeps in the history only the rounds closed before any tally `close` may still
    /// make can look: before `now` and before the earliest deadline of a round still open (a
    /// round closed late is tallied as of its deadline), but fewer than `lagLimit` left out (a
    /// `close` reading that many saves the history again).
    @Test func aBuildKeepsTheRoundsClosedBeforeAnyTallyStillToCome() {
        func day(_ d: Int) -> Timestamp { Timestamp(secondsSinceEpoch: Int64(d) * 86_400) }
        func round(_ number: Int, closes: Int, closed: Int?) -> Round {
            Round(
                number: Make.number(number), opened: day(0), closes: day(closes), closed: closed.map(day),
                origin: Origin(path: "Content/projects/p/rounds/\(number)/round.md", positions: [:]))
        }
        // Forty rounds closed on days 1 to 40, one a project.
        func content(openDeadline: Int?) -> Content {
            var projects = (1...40).map { d in
                Project(
                    slug: Make.slug("p\(d)"), title: "P", owner: Make.handle("ann"), created: day(0), roundLimit: 2,
                    roundLength: Make.span("7d"), status: .open, starter: "S.", rounds: [round(1, closes: d, closed: d)],
                    origin: Origin(path: "Content/projects/p\(d)/project.md", positions: [:]))
            }
            if let openDeadline { projects[0].rounds.append(round(2, closes: openDeadline, closed: nil)) }
            return Content(config: Config.defaults(), users: [:], projects: projects)
        }
        #expect(HistoryCache.roundsKept(of: content(openDeadline: nil), now: day(50)) == 40)
        #expect(HistoryCache.roundsKept(of: content(openDeadline: nil), now: day(40)) == 39, "closed at now: not before it")
        #expect(HistoryCache.roundsKept(of: content(openDeadline: 30), now: day(50)) == 29)
        #expect(HistoryCache.roundsKept(of: content(openDeadline: 60), now: day(35)) == 34)
        #expect(HistoryCache.lagLimit == 32)
        #expect(HistoryCache.roundsKept(of: content(openDeadline: 3), now: day(50)) == 40 - 31, "fewer than lagLimit left out")
    }

    /// Warmed with fewer rounds than closed, the cache holds the first of them in closing order,
    /// and the next close reads the rest and decides as one reading every file.
    @Test func aBuildMayWarmTheCacheWithTheFirstRoundsOnly() throws {
        let (reference, world, layout, stamps, content) = try uncachedWorld()
        HistoryCache.warm(from: content, stamps: stamps, layout: layout, kept: 0)
        #expect(HistoryCache.loadEntries(layout) == [])
        #expect(try closeMoon(world) == reference)
        // Sun's round 1 (Nov 4) and moon's (Nov 7) closed: one kept, the first.
        let closed = try world.reader.loadValid()
        HistoryCache.warm(from: closed, stamps: HistoryCache.Stamps.take(layout), layout: layout, kept: 1)
        #expect(HistoryCache.loadEntries(layout)?.map { "\($0.slug)/\($0.number.value)" } == ["sun/1"])
        HistoryCache.warm(from: closed, stamps: HistoryCache.Stamps.take(layout), layout: layout, kept: 2)
        #expect(HistoryCache.loadEntries(layout)?.map { "\($0.slug)/\($0.number.value)" } == ["sun/1", "moon/1"])
    }

    /// The past a build adds a round to stops before that round's cutoff: a saved history holding
    /// a round closed at or after it is no start of that past.
    @Test func aSavedHistoryPastTheAddedRoundsCutoffIsNoStart() throws {
        let (_, world, layout, _, _) = try uncachedWorld()
        _ = try closeMoon(world)
        _ = try world.game("2026-11-08T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "Two.")
        _ = try world.game("2026-11-09T00:00:00Z").vote(in: Make.slug("sun"), by: Make.handle("dan"), for: ["cat-20261108000000"])
        _ = try world.game("2026-11-10T00:00:00Z").close(Make.slug("sun"))
        var closed = try world.reader.loadValid()
        let stamps = HistoryCache.Stamps.take(layout)
        // Sun's round 2 as if it had been due on Nov 5: tallied as of then, after sun's round 1
        // (Nov 4) and before moon's (Nov 7).
        let s = try #require(closed.projects.firstIndex { $0.slug == Make.slug("sun") })
        closed.projects[s].rounds[1].closes = Make.time("2026-11-05T00:00:00Z")
        let sunRound1 = try #require(closed.projects[s].rounds.first)
        HistoryCache.warm(from: closed, stamps: stamps, layout: layout, kept: 2)
        #expect(HistoryCache.history(of: closed, leavingOut: ["sun/0002"], stamps: stamps, saved: HistoryCache.saved(layout)) == nil)
        HistoryCache.warm(from: closed, stamps: stamps, layout: layout, kept: 1)
        var expected = VotingHistory()
        expected.record(sunRound1)
        let past = try #require(HistoryCache.history(of: closed, leavingOut: ["sun/0002"], stamps: stamps, saved: HistoryCache.saved(layout)))
        #expect(past.roundsRecorded == 1 && past.pairs == expected.pairs && past.karma == expected.karma)
        // With no saved round past the cutoff, the rounds closed before it are recorded from the content.
        HistoryCache.warm(from: closed, stamps: stamps, layout: layout, kept: 0)
        #expect(HistoryCache.history(of: closed, leavingOut: ["sun/0002"], stamps: stamps, saved: HistoryCache.saved(layout))?.roundsRecorded == 1)
    }

    /// `build` reads everything anyway: it saves the cache a `close` would, so the next close
    /// reads only stamps, and that close decides exactly as one reading every file.
    @Test func aBuildWarmsTheCacheForTheNextClose() throws {
        let (reference, world, layout, stamps, content) = try uncachedWorld()
        HistoryCache.warm(from: content, stamps: stamps, layout: layout)
        let warmed = try #require(HistoryCache.load(layout))
        #expect(warmed.entries.map { "\($0.slug)/\($0.number.value)" } == ["sun/1"])
        #expect(warmed.scanned.keys.sorted() == ["moon", "moon/0001", "sun", "sun/0001", "sun/0002"])
        let saved = try Data(contentsOf: URL(fileURLWithPath: cacheFile(world)))
        HistoryCache.warm(from: content, stamps: stamps, layout: layout)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cacheFile(world))) == saved, "an up-to-date cache is left as it is")
        // A cache cut short is written again, though its entries are whole.
        try saved.dropLast(3).write(to: URL(fileURLWithPath: cacheFile(world)))
        #expect(HistoryCache.loadEntries(layout) == nil)
        HistoryCache.warm(from: content, stamps: stamps, layout: layout)
        #expect(HistoryCache.load(layout)?.history.snapshot == warmed.history.snapshot)
        #expect(HistoryCache.loadEntries(layout) == warmed.entries)
        #expect(try closeMoon(world) == reference)
    }

    /// A build that replays the game hands the replay's history to the cache instead of recording
    /// every round again: the next close decides exactly as one reading every file.
    @Test func aCacheWarmedWithTheReplaysHistoryServesTheNextClose() throws {
        let (reference, world, layout, stamps, content) = try uncachedWorld()
        let replayed = TallyTimeline(content: content).replayExplainedWithHistory().history
        var asked = false
        HistoryCache.warm(from: content, stamps: stamps, layout: layout) {
            asked = true
            return replayed
        }
        #expect(asked)
        let warmed = try #require(HistoryCache.load(layout))
        #expect(warmed.entries.map { "\($0.slug)/\($0.number.value)" } == ["sun/1"])
        #expect(warmed.history.karma == replayed.karma && warmed.history.pairs == replayed.pairs)
        // A history saved with the same entries but recorded from other files (an edit in place
        // that kept the stamps, another binary) is replaced by the replay's: a build after
        // `close` adds to it.
        HistoryCache(entries: warmed.entries, scanned: warmed.scanned, history: VotingHistory()).save(layout)
        #expect(HistoryCache.load(layout)?.history.pairs.isEmpty == true)
        HistoryCache.warm(from: content, stamps: stamps, layout: layout) { replayed }
        #expect(HistoryCache.load(layout)?.history.pairs == replayed.pairs)
        #expect(try closeMoon(world) == reference)
    }

    /// A build after `close` takes the past of the rounds it adds to its replay from the cache:
    /// only when the cache covers exactly the other closed rounds, with their stamps now.
    @Test func theCachedHistoryServesABuildOnlyForTheRoundsItCovers() throws {
        let (_, world, layout, stamps, content) = try uncachedWorld()
        let replayed = TallyTimeline(content: content).replayExplainedWithHistory().history
        HistoryCache.warm(from: content, stamps: stamps, layout: layout) { replayed }
        let past = try #require(HistoryCache.history(of: content, leavingOut: [], stamps: stamps, saved: HistoryCache.saved(layout)))
        #expect(past.pairs == replayed.pairs && past.karma == replayed.karma)
        #expect(HistoryCache.history(of: content, leavingOut: ["sun/0001"], stamps: stamps, saved: HistoryCache.saved(layout)) == nil, "one round too many")

        _ = try closeMoon(world)
        let closed = try world.reader.loadValid()
        let now = HistoryCache.Stamps.take(layout)
        #expect(HistoryCache.history(of: closed, leavingOut: ["moon/0001"], stamps: now, saved: HistoryCache.saved(layout))?.pairs == replayed.pairs)
        // Moon's round is not in it: recorded from the content, after sun's.
        let whole = TallyTimeline(content: closed).replayExplainedWithHistory().history
        let withMoon = HistoryCache.history(of: closed, leavingOut: [], stamps: now, saved: HistoryCache.saved(layout))
        #expect(withMoon?.pairs == whole.pairs && withMoon?.karma == whole.karma && withMoon?.pairs != replayed.pairs)
        var moved = now
        moved.stamps["sun/0001"]?.round[1] += 1
        #expect(HistoryCache.history(of: closed, leavingOut: ["moon/0001"], stamps: moved, saved: HistoryCache.saved(layout)) == nil, "sun's round changed")
        var racy = now
        racy.stamps["sun/0001"] = HistoryCache.Stamp(round: HistoryCache.Stamps.racy.round + [1, 2, 3, 4])
        #expect(HistoryCache.history(of: closed, leavingOut: ["moon/0001"], stamps: racy, saved: HistoryCache.saved(layout)) == nil, "racy")
    }

    /// A build derives the stamps from its inventory of the content instead of stat-ing every
    /// round again: they must be the ones `take` finds. A racy entry gets a stamp no file has,
    /// so every project and round is still there, and none of them matches.
    @Test func stampsFromTheBuildInventoryAreTheStampsTakeFinds() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let derived = HistoryCache.Stamps.from(inventory)
        let taken = HistoryCache.Stamps.take(layout)
        #expect(derived.stamps.keys.sorted() == ["moon", "moon/0001", "sun", "sun/0001", "sun/0002"])
        #expect(derived.stamps == taken.stamps)
        let racy = HistoryCache.Stamps.from(
            try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: 0)))
        #expect(racy.stamps.keys.sorted() == derived.stamps.keys.sorted())
        for (key, stamp) in racy.stamps { #expect(stamp != taken.stamps[key], "\(key)") }
        // A round without its votes folder, and a stray file beside a round's parts.
        try? FileManager.default.removeItem(atPath: world.directory.path("Content/projects/sun/rounds/0002/votes"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: world.directory.path("Content/projects/sun/rounds/0002/notes.md")))
        let after = HistoryCache.Stamps.from(
            try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max)))
        #expect(after.stamps == HistoryCache.Stamps.take(layout).stamps)
        #expect(after.stamps["sun/0002"]?.round[4] == -1, "no votes folder")
    }

    /// A closed round changed while a build read the content: the cache the build saves carries
    /// the stamps from before, so the next close reads that round again.
    @Test func aRoundChangedDuringABuildIsReadAgainByTheNextClose() throws {
        let reference = try closeMoon(try world())
        let world = try world()
        let layout = ContentLayout(root: world.root)
        try FileManager.default.removeItem(atPath: world.directory.path("Content/.prolific"))
        let stamps = HistoryCache.Stamps.take(layout)
        touch(world, "Content/projects/sun/rounds/0001/submissions")
        HistoryCache.warm(from: try world.reader.loadValid(), stamps: stamps, layout: layout)
        let now = sunStamp(layout)
        #expect(HistoryCache.load(layout)?.entries.first?.stamp != now, "saved with the stamp from before the read")
        #expect(try closeMoon(world) == reference)
        #expect(HistoryCache.load(layout)?.entries.first?.stamp == now, "the close read sun's round again")
    }

    /// A build right after `close` finds the closed round racy (changed less than 2 s before its
    /// inventory): it leaves the history as `close` left it, lacking only that round, which the
    /// next `close` adds, rather than save one that lists a racy stamp, which no `close` could
    /// take. Once the round's stamp vouches for it, a build lists it.
    @Test func aBuildRightAfterACloseLeavesTheHistoryAsCloseLeftIt() throws {
        let (_, world, layout, stamps, content) = try uncachedWorld()
        HistoryCache.warm(from: content, stamps: stamps, layout: layout)
        let before = try #require(HistoryCache.loadEntries(layout))
        _ = try closeMoon(world)
        let closed = try world.reader.loadValid()
        var racy = HistoryCache.Stamps.take(layout)
        racy.stamps["moon/0001"] = HistoryCache.Stamp(round: Array(repeating: HistoryCache.Stamps.racy.round[0], count: 6))
        HistoryCache.warm(from: closed, stamps: racy, layout: layout)
        #expect(HistoryCache.loadEntries(layout) == before)
        HistoryCache.warm(from: closed, stamps: HistoryCache.Stamps.take(layout), layout: layout)
        #expect(HistoryCache.loadEntries(layout)?.count == before.count + 1)
    }

    /// `close` saves the history when it couldn't take the saved one, or once that one lacks
    /// `lagLimit` rounds; a few rounds behind, it leaves it.
    @Test func closeSavesTheHistoryOnceItLagsByTheLimit() {
        #expect(!HistoryCache.closeSaves(isTaken: true, roundsRead: 0))
        #expect(!HistoryCache.closeSaves(isTaken: true, roundsRead: HistoryCache.lagLimit - 1))
        #expect(HistoryCache.closeSaves(isTaken: true, roundsRead: HistoryCache.lagLimit))
        #expect(HistoryCache.closeSaves(isTaken: false, roundsRead: 0))
        #expect(HistoryCache.closeSaves(isTaken: false, roundsRead: 3))
    }

    /// A `close` whose history lacks only the rounds closed since (fewer than `lagLimit`) reads
    /// them and leaves the file as it was; a build takes that history all the same, recording
    /// those rounds from the content it read, and has the history a replay of them records.
    @Test func aHistoryLackingTheRoundsClosedSinceIsLeftAndServesABuild() throws {
        let (_, world, layout, stamps, content) = try uncachedWorld()
        HistoryCache.warm(from: content, stamps: stamps, layout: layout)
        _ = try closeMoon(world)
        let saved = try Data(contentsOf: URL(fileURLWithPath: cacheFile(world)))
        #expect(HistoryCache.loadEntries(layout)?.map { "\($0.slug)/\($0.number.value)" } == ["sun/1"])
        // Sun's round 2: its close reads moon's round 1, which the history lacks, and saves nothing.
        _ = try world.game("2026-11-08T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "Two.")
        _ = try world.game("2026-11-09T00:00:00Z").vote(in: Make.slug("sun"), by: Make.handle("dan"), for: ["cat-20261108000000"])
        _ = try world.game("2026-11-10T00:00:00Z").close(Make.slug("sun"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cacheFile(world))) == saved, "the history file as it was")

        let closed = try world.reader.loadValid()
        let now = HistoryCache.Stamps.take(layout)
        let past = try #require(
            HistoryCache.history(of: closed, leavingOut: ["sun/0002"], stamps: now, saved: HistoryCache.saved(layout)))
        var expected = VotingHistory()
        for (slug, number) in [("sun", 1), ("moon", 1)] {
            expected.record(try #require(closed.projects.first { $0.slug == Make.slug(slug) }?.rounds.first { $0.number == Make.number(number) }))
        }
        #expect(past.pairs == expected.pairs && past.karma == expected.karma)
        let whole = TallyTimeline(content: closed).replayExplainedWithHistory().history
        let all = try #require(HistoryCache.history(of: closed, leavingOut: [], stamps: now, saved: HistoryCache.saved(layout)))
        #expect(all.pairs == whole.pairs && all.karma == whole.karma, "every closed round, two of them recorded from the content")
        // A saved round whose stamp moved is no start of the history.
        var moved = now
        moved.stamps["sun/0001"] = HistoryCache.Stamps.racy
        #expect(HistoryCache.history(of: closed, leavingOut: [], stamps: moved, saved: HistoryCache.saved(layout)) == nil)
    }

    /// The history file is written into a buffer of the size worked out beforehand (a debug
    /// build asserts the two agree): entries with stamps, handles with karma, records and strong
    /// pairs all come back as saved.
    @Test func aSavedHistoryWithEveryPartComesBackWhole() throws {
        let world = try Playground()
        let layout = ContentLayout(root: world.root)
        let ann = Make.handle("ann"), longer = Make.handle("a-rather-longer-handle")
        let snapshot = VotingHistory.Snapshot(
            handles: [ann, longer],
            records: [(0 << 32 | 1, 7, 6, 1.5), (1 << 32 | 0, 3, 0, 0.25)],
            karma: [Karma(snippets: 4, ballots: 9, wins: 2, projects: 1), Karma(snippets: 1, ballots: 0, wins: 0, projects: 0)],
            strong: [0 << 32 | 1], roundsRecorded: 7)
        let history = try #require(VotingHistory(snapshot: snapshot))
        let entries = [
            HistoryCache.Entry(
                slug: Make.slug("sun"), number: try #require(RoundNumber(3)),
                closed: Timestamp(secondsSinceEpoch: 1_790_000_000), stamp: HistoryCache.Stamp(round: [1, 2, 3, 4, 5, 6]))
        ]
        HistoryCache(entries: entries, scanned: [:], history: history).save(layout)
        let loaded = try #require(HistoryCache.load(layout))
        #expect(loaded.entries == entries)
        #expect(loaded.history.snapshot == snapshot)

        // A file with a count no history keeps (one a pull request could commit) is refused,
        // not read into a record that a replay's encoding would trap on.
        var negative = snapshot
        negative.records[0].chances = -1
        HistoryCache(entries: entries, scanned: [:], history: try #require(VotingHistory(snapshot: negative))).save(layout)
        #expect(HistoryCache.load(layout) == nil)
        var badKarma = snapshot
        badKarma.karma[1] = Karma(snippets: -3, ballots: 0, wins: 0, projects: 0)
        HistoryCache(entries: entries, scanned: [:], history: try #require(VotingHistory(snapshot: badKarma))).save(layout)
        #expect(HistoryCache.load(layout) == nil)
    }

    /// Records are written in batches of 512 and read in place: a history of more than two
    /// batches comes back whole, the entries alone are read without it, and a record whose
    /// pair names no handle, or whose expectation isn't finite, makes the file no history.
    @Test func manyRecordsComeBackWholeAndABadOneIsRefused() throws {
        let world = try Playground()
        let layout = ContentLayout(root: world.root)
        let handles = (0..<40).map { Make.handle("p\($0)") }
        var records: [(key: UInt64, chances: Int, backs: Int, expected: Double)] = []
        for voter in 0..<40 {
            for author in 0..<30 where author != voter {
                records.append((UInt64(voter) << 32 | UInt64(author), voter + author, author % 3, Double(voter) / 8))
            }
        }
        #expect(records.count > 2 * 512)
        let snapshot = VotingHistory.Snapshot(
            handles: handles, records: records, karma: Array(repeating: Karma(), count: 40), strong: [records[600].key],
            roundsRecorded: 12)
        let entries = [
            HistoryCache.Entry(
                slug: Make.slug("sun"), number: try #require(RoundNumber(1)),
                closed: Timestamp(secondsSinceEpoch: 1_790_000_000), stamp: HistoryCache.Stamp(round: [1, 2]))
        ]
        HistoryCache(entries: entries, scanned: [:], history: try #require(VotingHistory(snapshot: snapshot))).save(layout)
        #expect(try #require(HistoryCache.load(layout)).history.snapshot == snapshot)
        #expect(HistoryCache.loadEntries(layout) == entries)

        // The saved file with one record's bytes changed: its key's author (handle 50 of 40),
        // then its expectation (infinity).
        let path = HistoryCache.path(layout)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        let handleBytes = handles.reduce(0) { $0 + 8 + $1.rawValue.utf8.count + 32 }
        let entryBytes = 8 + 8 + "sun".utf8.count + 8 + 8 + 8 + 2 * 8
        let firstRecord = 8 + entryBytes + 8 + handleBytes + 8
        // There is a record there (records come in no particular order).
        let key = saved[firstRecord..<(firstRecord + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(records.contains { $0.key == key })
        for (offset, value) in [(0, UInt64(50)), (24, Double.infinity.bitPattern)] {
            var bytes = saved
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange((firstRecord + offset)..<(firstRecord + offset + 8), with: $0) }
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(HistoryCache.load(layout) == nil, "\(offset)")
            #expect(HistoryCache.loadEntries(layout) == nil, "\(offset): the entries alone are refused too")
        }
    }

    /// A strong pair the file names must be a pair of its handles with a record: not the key no
    /// pair has (the table's empty mark), nor one past the handles. Such a file (a pull request
    /// can commit one) is no history, rather than one whose tally traps.
    @Test func aStrongPairOutsideTheHandlesIsRefused() throws {
        let world = try Playground()
        let layout = ContentLayout(root: world.root)
        let snapshot = VotingHistory.Snapshot(
            handles: [Make.handle("ann"), Make.handle("bob")], records: [(0 << 32 | 1, 9, 9, 1.0)], karma: [Karma(), Karma()],
            strong: [0 << 32 | 1], roundsRecorded: 1)
        HistoryCache(entries: [], scanned: [:], history: try #require(VotingHistory(snapshot: snapshot))).save(layout)
        #expect(try #require(HistoryCache.load(layout)).history.snapshot == snapshot)
        // The file ends with the strong pairs' keys, then the rounds recorded.
        let path = HistoryCache.path(layout)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        for key: UInt64 in [.max, 2 << 32 | 1, 0 << 32 | 0] {
            var bytes = saved
            withUnsafeBytes(of: key.littleEndian) { bytes.replaceSubrange((bytes.count - 16)..<(bytes.count - 8), with: $0) }
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(HistoryCache.load(layout) == nil, "\(String(key, radix: 16))")
        }
    }

    /// The last scan's row for a file that is missing (stamped -1) never stands in for it: a
    /// committed scan file naming a project without its project.md doesn't make that project's
    /// start count; `close` reads the folder and refuses it, as it does without the scan file.
    @Test func aScanRowForAMissingFileIsNotTaken() throws {
        let world = try world()
        try world.directory.write("", to: "Content/projects/ghost/rounds/.keep")
        let missing = HistoryCache.Stamp(round: [-1, -1])
        HistoryCache(
            entries: [], scanned: ["ghost": HistoryCache.Scan(stamp: missing, time: Make.time("2026-10-02T00:00:00Z"), owner: Make.handle("dan"))],
            history: VotingHistory()
        ).saveScan(ContentLayout(root: world.root))
        #expect(throws: Diagnostics.self) { try closeMoon(world) }
    }

    /// Projects are scanned on every core, eight at a time, yet a `close` refused for other
    /// projects' broken files names the first of them in the folder's order, whichever core found
    /// one first, and changes nothing. The broken ones are the last of the first batch (p06,
    /// after moon) and the first of later ones, which the other core takes at once.
    @Test func aBrokenProjectElsewhereRefusesTheCloseNamingTheFirstInOrder() throws {
        let reference = try closeMoon(try world())
        let world = try world()
        let slugs = (0..<24).map { String(format: "p%02d", $0) }
        for slug in slugs {
            _ = try world.game("2026-11-01T00:00:00Z").newProject(
                Game.ProjectRequest(slug: Make.slug(slug), title: slug, owner: Make.handle("bob"), rounds: 3, starter: "S."))
        }
        let broken = ["p06", "p07", "p15"]
        for slug in broken {
            try world.directory.write("---\nowner: [\n---\nBroken.\n", to: "Content/projects/\(slug)/project.md")
        }
        let moon = "Content/projects/moon/rounds/0001/round.md"
        let files = [moon, "Content/\(HistoryCache.scanFile)", "Content/.prolific/history.cache"]
        func bytes() throws -> [Data] { try files.map { try Data(contentsOf: URL(fileURLWithPath: world.directory.path($0))) } }
        let before = try bytes()
        let errors = try #require(thrown { () throws(Diagnostics) in try world.game("2026-11-07T00:00:00Z").close(Make.slug("moon")) })
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.contains("projects/p06/project.md") }, "\(errors)")
        #expect(try bytes() == before)
        // Without those projects, the close is the one a game that never had them gives.
        for slug in slugs { try FileManager.default.removeItem(atPath: world.directory.path("Content/projects/\(slug)")) }
        #expect(try closeMoon(world) == reference)
    }

    /// A subtree's key is hashed as it goes, its entries' numbers 64 at a time: it must be the
    /// digest of the same bytes the digest leaving something out hashes whole, for a folder of
    /// more than 64 entries too.
    @Test func aBigFoldersKeyIsTheDigestOfItsWholeEntries() throws {
        let world = try world()
        for i in 0..<150 { try world.directory.write("x", to: "Content/projects/moon/extra/f\(i).md") }
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific"], racyAfter: .max))
        let whole = try #require(inventory.subtreeDigest("projects/moon"))
        #expect(inventory.subtreeDigest("projects/moon", leavingOut: "projects/moon/nothing-here") == whole)
        #expect(inventory.subtreeDigest("projects/moon", leavingOut: "projects/moon/extra") != whole)
    }

    @Test func binaryReaderNeverTrapsOnBadInput() {
        var reader = BinaryReader([1, 2, 3])
        #expect(reader.integer() == nil)
        var counts = BinaryReader(Array(repeating: 0xFF, count: 16))
        #expect(counts.count() == nil, "a negative or huge count is refused")
        var writer = BinaryWriter()
        writer.string("héllo")
        writer.double(2.5)
        var back = BinaryReader(writer.bytes)
        #expect(back.string() == "héllo" && back.double() == 2.5 && back.isAtEnd)
    }
}
