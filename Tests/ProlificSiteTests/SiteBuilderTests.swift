import Foundation
import ProlificCore
import ProlificStore
import Testing
@testable import ProlificSite

@Suite struct SiteBuilderTests {
    static let now = Timestamp(iso8601: "2026-01-12T12:00:00Z")!

    /// Every file built from the `check/valid` fixture, but the theme's static files, compared
    /// with golden files (PROLIFIC_RECORD=1 rewrites them): pages, feeds, calendar, search index,
    /// badge cards.
    @Test func goldenPages() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let pages = try SiteFixtures.build(content, now: Self.now)
        let statics = Set(try Theme.builtIn().staticFiles.map(\.path))
        let built = Set(pages.keys).subtracting(statics)
        let golden = SiteFixtures.root.appendingPathComponent("site/golden")
        if SiteFixtures.recording {
            try? FileManager.default.removeItem(at: golden)
            for name in built {
                let file = golden.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(pages[name, default: ""].utf8).write(to: file)
            }
        }
        let recorded = Set(
            (FileManager.default.enumerator(atPath: golden.path)?.allObjects as? [String] ?? []).filter {
                !$0.hasSuffix("/") && !FileManager.default.isDirectory(golden.appendingPathComponent($0).path)
            })
        #expect(built == recorded, "the built files are the golden ones")
        for name in built.sorted() {
            let file = golden.appendingPathComponent(name)
            #expect(pages[name] == (try? String(contentsOf: file, encoding: .utf8)), "\(name) differs from its golden file")
        }
    }

    /// Every file of a build with `memory`, by path.
    static func build(_ content: Content, projectKeys: [Slug: String], memory: PageMemory?) throws -> [String: OutputFile] {
        var files: [String: OutputFile] = [:]
        try SiteBuilder(content: content, theme: try Theme.builtIn(), now: now, projectKeys: projectKeys)
            .build(memory: memory) { (batch: [OutputFile]) throws(Diagnostics) in
                for file in batch { files[file.path] = file }
            }
        return files
    }

    /// A page of the list of stories in progress is kept until its stories change: the oldest
    /// of 31 completes, and of the list's three pages the middle one is kept, while the first
    /// (which counts them) and the last (which loses it) are made again, each byte for byte as a
    /// fresh build makes it.
    @Test func aPageOfStoriesInProgressIsKeptUntilItsStoriesChange() throws {
        let original = try SitePagesTests.startedEarlier(try SitePagesTests.fixture(), count: 30)
        var keys = Dictionary(uniqueKeysWithValues: original.projects.map { ($0.slug, "files-1") })
        let first = try Self.build(original, projectKeys: keys, memory: nil)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        let list = ["in-progress/index.html", "in-progress/page/2/index.html", "in-progress/page/3/index.html"]
        #expect(try list.map { try #require(first[$0]) }.count == 3)
        var completed = original
        let oldest = try #require(completed.projects.firstIndex { $0.slug.rawValue == "story-30" })
        completed.projects[oldest].status = .complete
        keys[completed.projects[oldest].slug] = "files-2"
        let again = try Self.build(completed, projectKeys: keys, memory: memory)
        let fresh = try Self.build(completed, projectKeys: keys, memory: nil)
        #expect(try #require(again[list[1]]).keepsPrevious)
        for path in [list[0], list[2], "index.html"] {
            let made = try #require(again[path])
            #expect(!made.keepsPrevious, "\(path) is made again")
            let asFresh = made.contents == fresh[path]?.contents
            #expect(asFresh, "\(path) as a fresh build makes it")
        }
    }

    /// A page of the players' list is kept by what it shows of its own players: a change to a
    /// player on page 2 makes page 2 again and keeps page 1.
    @Test func aPageOfThePlayersListIsKeptUntilOneOfItsPlayersChanges() throws {
        let original = try SitePagesTests.manyPlayers(
            try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path))
        let moon = try #require(Slug("moon"))
        let first = try Self.build(original, projectKeys: [moon: "files-1"], memory: nil)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        var renamed = original
        let last = try #require(Handle("p150"))
        renamed.users[last]?.name = "Player One Hundred and Fifty"
        let again = try Self.build(renamed, projectKeys: [moon: "files-1"], memory: memory)
        #expect(try #require(again["users/index.html"]).keepsPrevious)
        let second = try #require(again["users/page-2.html"])
        #expect(!second.keepsPrevious)
        #expect(String(decoding: second.contents, as: UTF8.self).contains("Player One Hundred and Fifty"))
        // Unchanged, both are kept.
        let same = try Self.build(original, projectKeys: [moon: "files-1"], memory: memory)
        #expect(try #require(same["users/index.html"]).keepsPrevious && (try #require(same["users/page-2.html"])).keepsPrevious)
        // A player who joins at the end of the list changes the count every page shows: page 1
        // is made again, as a fresh build makes it.
        var joined = original
        let last2 = try #require(Handle("zz"))
        joined.users[last2] = User(handle: last2, name: "Zed", joined: Self.now, origin: Origin(path: "users/zz.md"))
        let withZed = try Self.build(joined, projectKeys: [moon: "files-1"], memory: memory)
        let fresh = try Self.build(joined, projectKeys: [moon: "files-1"], memory: nil)
        let page1 = try #require(withZed["users/index.html"])
        #expect(!page1.keepsPrevious)
        #expect(page1.contents == fresh["users/index.html"]?.contents)
        #expect(String(decoding: page1.contents, as: UTF8.self).contains("154 players"))
    }

    /// A closed round's page is kept by its inputs (its project's files, the replay's
    /// explanations, the names it shows, the site's common values) without its values being
    /// worked out, and rendered again when any of them changes.
    @Test func aClosedRoundsPageIsKeptByItsInputsUntilOneChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let round = "projects/moon/rounds/0001.html", moon = try #require(Slug("moon"))
        func build(_ content: Content, key: String = "files-1", memory: PageMemory? = nil) throws -> [String: OutputFile] {
            try Self.build(content, projectKeys: [moon: key], memory: memory)
        }
        let first = try build(original)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        func rebuilt(_ content: Content, key: String = "files-1") throws -> OutputFile {
            try #require(try build(content, key: key, memory: memory)[round])
        }
        #expect(try rebuilt(original).keepsPrevious)

        // A change the project's key stands for, with the key kept as it was: the page is kept,
        // so its values were not what decided (the key vouches for the files).
        var edited = original
        func editBody(_ content: inout Content, _ body: String) throws {
            let p = try #require(content.projects.firstIndex { $0.slug == moon })
            content.projects[p].rounds[0].submissions[0].body = body
        }
        try editBody(&edited, "An edited winner.\n")
        #expect(try rebuilt(edited).keepsPrevious)
        // Under another key, the same change is rendered.
        let changed = try rebuilt(edited, key: "files-2")
        #expect(!changed.keepsPrevious)
        #expect(String(decoding: changed.contents, as: UTF8.self).contains("An edited winner."))

        // The new name of a player the page shows, the site's title: rendered again. Ann only
        // voted, and a plainly counted round lists no ballots: her new name changes nothing here.
        var renamed = original
        renamed.users[try #require(Handle("bo"))]?.name = "Bo Renamed"
        let withName = try rebuilt(renamed)
        #expect(!withName.keepsPrevious)
        #expect(String(decoding: withName.contents, as: UTF8.self).contains("Bo Renamed"))
        var voterRenamed = original
        voterRenamed.users[try #require(Handle("ann"))]?.name = "Annabel Renamed"
        #expect(try rebuilt(voterRenamed).keepsPrevious)
        var retitled = original
        retitled.config.title = "Another Title"
        #expect(!(try rebuilt(retitled).keepsPrevious))

        // A snippet with an image has no inputs: its page is fingerprinted by its values, and
        // a new body shows though the key is the same.
        var pictured = original
        try editBody(&pictured, "A winner with a picture: ![a moon](moon.png)\n")
        let picturedFirst = try build(pictured)
        let picturedMemory = PageMemory(fingerprints: PageMemory.recorded(by: picturedFirst.values), isIntact: { _ in true })
        try editBody(&pictured, "Another winner with a picture: ![a moon](moon.png)\n")
        let again = try #require(try build(pictured, memory: picturedMemory)[round])
        #expect(!again.keepsPrevious)
        #expect(String(decoding: again.contents, as: UTF8.self).contains("Another winner with a picture"))
    }

    /// The home page and a tag's page are kept by their cards' inputs (each project's files but
    /// its open round's ballots, its owner's name, which of its tags have a page) without a card
    /// being made, and made again when one of them changes.
    @Test func pagesOfCardsAreKeptByTheirCardsInputsUntilOneChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        let pages = ["index.html", "tags/space/index.html"]
        let first = try Self.build(original, projectKeys: [moon: "files-1"], memory: nil)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        func rebuilt(_ content: Content, key: String = "files-1") throws -> [OutputFile] {
            let files = try Self.build(content, projectKeys: [moon: key], memory: memory)
            return try pages.map { try #require(files[$0], "\($0)") }
        }
        #expect(try rebuilt(original).allSatisfy(\.keepsPrevious))
        // A new starter under the same key: kept, so no card was made (the key vouches for it).
        var edited = original
        let p = try #require(edited.projects.firstIndex { $0.slug == moon })
        edited.projects[p].starter = "An edited start."
        #expect(try rebuilt(edited).allSatisfy(\.keepsPrevious))
        // Under another key, the card is made again.
        let changed = try rebuilt(edited, key: "files-2")
        #expect(changed.allSatisfy { !$0.keepsPrevious && String(decoding: $0.contents, as: UTF8.self).contains("An edited start.") })
        // The owner's new name.
        var renamed = original
        renamed.users[try #require(Handle("ann"))]?.name = "Ann Renamed"
        #expect(try rebuilt(renamed).allSatisfy { !$0.keepsPrevious && String(decoding: $0.contents, as: UTF8.self).contains("Ann Renamed") })
    }

    /// A project's round pages whose key (`RoundPages.groupInputs`) is the one the last build
    /// recorded are kept together, without a job for any of them: so the key must hold what
    /// only those pages show. Here, on the demo game with one more player who only voted, in a
    /// round the fair tally counted: that player's profile removed (the round page then credits
    /// the vote to a former contributor), and that round's replay, each changed with every
    /// project's files the same. The round page shows the change, another project keeps its
    /// round pages as a group, and a later moment, which no round page shows, keeps them all.
    @Test func aProjectsRoundPagesAreKeptTogetherUntilWhatOnlyTheyShowChanges() throws {
        var original = try SiteFixtures.load(SiteFixtures.repository.appendingPathComponent("Content").path)
        let fair = try #require(
            TallyTimeline(content: original, evidence: IdentityEvidence()).replayExplained().first { $0.explained != nil })
        let p = try #require(original.projects.firstIndex { $0.slug == fair.slug })
        let r = try #require(original.projects[p].rounds.firstIndex { $0.number == fair.round.number })
        let voter = try #require(Handle("quiet-voter"))
        var profile = try #require(original.users[original.projects[p].owner])
        (profile.handle, profile.name, profile.follows) = (voter, "Quiet Voter", User.Follows())
        original.users[voter] = profile
        let round = original.projects[p].rounds[r]
        let choice = try #require(round.submissions.first?.id)
        original.projects[p].rounds[r].ballots.append(
            Ballot(voter: voter, cast: round.opened + TimeSpan(seconds: 60)!, choices: [choice], origin: Origin(path: "")))
        let replayed = TallyTimeline(content: original, evidence: IdentityEvidence()).replayExplained()
        let index = try #require(replayed.firstIndex { $0.slug == fair.slug && $0.round.number == fair.round.number })
        try #require(replayed[index].explained?.ballots.contains { $0.voter == voter } == true)

        let keys = Dictionary(uniqueKeysWithValues: original.projects.map { ($0.slug, "files-1") })
        let roundPath = SitePath.round(fair.slug, fair.round.number)
        let bystander = try #require(original.projects.first { $0.visibility != .draft && $0.slug != fair.slug && !$0.closedRounds.isEmpty })
        let bystanderPaths = [SitePath.project(bystander.slug), SitePath.round(bystander.slug, bystander.closedRounds[0].number)]

        for encoded in [false, true] {
            var keys = keys
            func builder(_ content: Content, _ replay: [TallyTimeline.Replayed], now: Timestamp = Self.now) throws -> SiteBuilder {
                let rounds = encoded ? ReplayCache.encoded(replay) : ReplayedRounds(replay)
                return SiteBuilder(content: content, theme: try Theme.builtIn(), now: now, projectKeys: keys, replay: { rounds })
            }
            /// Every file of a build, by path; each path comes once.
            func build(
                _ content: Content, replay: [TallyTimeline.Replayed], now: Timestamp = Self.now, memory: PageMemory?
            ) throws -> [String: OutputFile] {
                var files: [String: OutputFile] = [:]
                try builder(content, replay, now: now).build(memory: memory) { (batch: [OutputFile]) throws(Diagnostics) in
                    for file in batch {
                        #expect(files[file.path] == nil, "\(file.path) comes once")
                        files[file.path] = file
                    }
                }
                return files
            }
            /// The projects whose round pages are kept as a group, and those whose key came by
            /// the shortcut (`SiteBuilder.roundPagesShortcut`).
            func kept(_ content: Content, replay: [TallyTimeline.Replayed], now: Timestamp = Self.now, memory: PageMemory) throws
                -> SiteBuilder.KeptGroups
            {
                let rounds = encoded ? ReplayCache.encoded(replay) : ReplayedRounds(replay)
                let site = SiteModel(
                    content: content, now: now, evidence: IdentityEvidence(), html: Markdown.html, projectKeys: keys,
                    replay: { rounds })
                return try builder(content, replay, now: now).keptGroups(of: site, memory: memory)
            }
            func keptGroups(_ content: Content, replay: [TallyTimeline.Replayed], now: Timestamp = Self.now, memory: PageMemory) throws -> Set<Slug> {
                try kept(content, replay: replay, now: now, memory: memory).projects
            }
            let first = try build(original, replay: replayed, memory: nil)
            #expect(String(decoding: try #require(first[roundPath]).contents, as: UTF8.self).contains("@quiet-voter"))
            let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
            let again = try build(original, replay: replayed, memory: memory)
            #expect(again.keys.sorted() == first.keys.sorted())
            #expect(try #require(again[roundPath]).keepsPrevious)
            for path in bystanderPaths { #expect(try #require(again[path]).keepsPrevious) }
            #expect(try keptGroups(original, replay: replayed, memory: memory).isSuperset(of: [fair.slug, bystander.slug]))
            // With the replay's bytes, nothing shared moved: every key comes by the shortcut.
            let byShortcut = try kept(original, replay: replayed, memory: memory).byShortcut
            // Without them, a project with a closed round has no shortcut.
            #expect(
                encoded ? byShortcut.isSuperset(of: [fair.slug, bystander.slug]) : byShortcut.isDisjoint(with: [fair.slug, bystander.slug]),
                "encoded: \(encoded)")
            // Another key for one project's files: that project's key is worked out again, and is
            // not the recorded one; the others still come by the shortcut.
            keys[fair.slug] = "files-2"
            let refiled = try kept(original, replay: replayed, memory: memory)
            #expect(!refiled.byShortcut.contains(fair.slug) && refiled.byShortcut.contains(bystander.slug) == encoded)
            #expect(!refiled.projects.contains(fair.slug) && refiled.projects.contains(bystander.slug))
            keys[fair.slug] = "files-1"
            // Another site title is shown by every round page: no shortcut, and no project with a
            // closed round keeps its round pages.
            var retitled = original
            retitled.config.title += " again"
            let afterTitle = try kept(retitled, replay: replayed, memory: memory)
            #expect(afterTitle.byShortcut.isEmpty && !afterTitle.projects.contains(fair.slug) && !afterTitle.projects.contains(bystander.slug))
            let anHourLater = Self.now + TimeSpan(seconds: 3_600)!
            #expect(try keptGroups(original, replay: replayed, now: anHourLater, memory: memory).isSuperset(of: [fair.slug, bystander.slug]))
            #expect(try #require(build(original, replay: replayed, now: anHourLater, memory: memory)[roundPath]).keepsPrevious)
            // A round page that is no longer the file the last build wrote: its project's round
            // pages are not kept as a group, and the page is written again.
            let touched = PageMemory(fingerprints: memory.fingerprints, isIntact: { $0 != roundPath })
            #expect(try !keptGroups(original, replay: replayed, memory: touched).contains(fair.slug))
            let rewritten = try build(original, replay: replayed, memory: touched)
            #expect(!(try #require(rewritten[roundPath])).keepsPrevious)
            #expect(rewritten[roundPath]?.contents == first[roundPath]?.contents)

            var removed = original
            removed.users[voter] = nil
            let afterRemoval = try build(removed, replay: replayed, memory: memory)
            let page = try #require(afterRemoval[roundPath])
            #expect(!page.keepsPrevious, "encoded: \(encoded)")
            #expect(!String(decoding: page.contents, as: UTF8.self).contains("@quiet-voter"))
            #expect(page.contents == (try build(removed, replay: replayed, memory: nil)[roundPath])?.contents)
            for path in bystanderPaths { #expect(try #require(afterRemoval[path]).keepsPrevious, "\(path)") }
            let keptAfterRemoval = try kept(removed, replay: replayed, memory: memory)
            #expect(!keptAfterRemoval.projects.contains(fair.slug) && keptAfterRemoval.projects.contains(bystander.slug))
            #expect(keptAfterRemoval.byShortcut.isEmpty, "a player's name is shared by every project's round pages")

            var reweighed = replayed
            try #require(reweighed[index].explained?.ballots.isEmpty == false)
            reweighed[index].explained?.ballots[0].weight += 0.25
            let afterReplay = try build(original, replay: reweighed, memory: memory)
            #expect(!(try #require(afterReplay[roundPath])).keepsPrevious, "encoded: \(encoded)")
            #expect(try afterReplay[roundPath]?.contents == build(original, replay: reweighed, memory: nil)[roundPath]?.contents)
            for path in bystanderPaths { #expect(try #require(afterReplay[path]).keepsPrevious, "\(path)") }
            let keptAfterReplay = try kept(original, replay: reweighed, memory: memory)
            #expect(!keptAfterReplay.projects.contains(fair.slug) && keptAfterReplay.projects.contains(bystander.slug))
            // The replay is each project's own: only the reweighed one's shortcut misses.
            #expect(!keptAfterReplay.byShortcut.contains(fair.slug))
            #expect(keptAfterReplay.byShortcut.contains(bystander.slug) == encoded, "encoded: \(encoded)")
        }
    }

    /// A story's page shows the moment only as its open round's time left and progress and in
    /// its activity chart: a later moment that moves none of them keeps the page (a build run by
    /// the clock made every open story's page again), one that does makes it again, as a fresh
    /// build would.
    @Test func anOpenStorysPageIsKeptUntilTheMomentItShowsMoves() throws {
        let content = try SiteFixtures.load(SiteFixtures.repository.appendingPathComponent("Content").path)
        let project = try #require(
            content.projects.first { $0.visibility == .listed && $0.openRound != nil && !SiteModel.isComplete($0) })
        let round = try #require(project.openRound)
        let keys = Dictionary(uniqueKeysWithValues: content.projects.map { ($0.slug, "files-1") })
        let path = SitePath.project(project.slug)
        func build(at now: Timestamp, memory: PageMemory?) throws -> OutputFile {
            var page: OutputFile?
            try SiteBuilder(content: content, theme: try Theme.builtIn(), now: now, projectKeys: keys)
                .build(memory: memory) { (batch: [OutputFile]) throws(Diagnostics) in
                    if let found = batch.first(where: { $0.path == path }) { page = found }
                }
            return try #require(page)
        }
        // Two moments an hour apart in the same week, with no snippet or ballot between them,
        // the later one with less time left in whole days or hours; a second past the hour, off
        // the moment the hours left turn.
        let events = project.rounds.flatMap { $0.submissions.map(\.submitted) + $0.ballots.map(\.cast) }
        let second = TimeSpan(seconds: 1)!
        let hours = (1..<Int(round.opened.seconds(until: round.closes) / 3_600)).map {
            round.opened + TimeSpan(seconds: Int64($0) * 3_600 + 1)!
        }
        let (start, later) = try #require(
            zip(hours, hours.dropFirst()).first { a, b in
                ActivityChart.weekStart(a) == ActivityChart.weekStart(b) && !events.contains { $0 > a && $0 <= b }
                    && Display.timeLeft(from: a, to: round.closes) != Display.timeLeft(from: b, to: round.closes)
            })
        let first = try build(at: start, memory: nil)
        let memory = PageMemory(fingerprints: [path: try #require(first.fingerprint)], isIntact: { _ in true })
        #expect(try build(at: start + second, memory: memory).keepsPrevious)
        let rebuilt = try build(at: later, memory: memory)
        #expect(!rebuilt.keepsPrevious)
        #expect(rebuilt.contents == (try build(at: later, memory: nil)).contents)
        #expect(rebuilt.contents != first.contents)

        // Half a minute either side of a snippet or ballot of the week, the time left and the
        // progress as shown the same: the activity chart counts one more.
        func shown(_ t: Timestamp) -> (Int64, String, Int) {
            (ActivityChart.weekStart(t), Display.timeLeft(from: t, to: round.closes),
             Int((Schedule.progress(of: round, now: t) * 100).rounded(.down)))
        }
        let halfMinute = TimeSpan(seconds: 30)!
        let event = try #require(
            events.sorted().first { e in
                let before = Timestamp(secondsSinceEpoch: e.secondsSinceEpoch - 30)
                return before > round.opened && e + halfMinute < round.closes && shown(before) == shown(e + halfMinute)
                    && !events.contains { $0 > before && $0 < e }
            })
        let before = Timestamp(secondsSinceEpoch: event.secondsSinceEpoch - 30)
        let quiet = try build(at: before, memory: nil)
        let quietMemory = PageMemory(fingerprints: [path: try #require(quiet.fingerprint)], isIntact: { _ in true })
        let afterEvent = try build(at: event + halfMinute, memory: quietMemory)
        #expect(!afterEvent.keepsPrevious)
        #expect(afterEvent.contents == (try build(at: event + halfMinute, memory: nil)).contents)
    }

    /// The badges page, the leaderboard and the calendar page are kept by their inputs, without
    /// their values worked out, and each is made again, as a fresh build makes it, when what it
    /// shows changes: a player's name, a round's winner, a snippet, a story's title, a deadline.
    @Test func theBadgesLeaderboardAndCalendarPagesAreKeptUntilWhatTheyShowChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        let pages = [SitePath.badges, SitePath.leaderboard, SitePath.calendar]
        func build(_ content: Content, memory: PageMemory? = nil) throws -> [String: OutputFile] {
            try Self.build(content, projectKeys: [moon: "files-1"], memory: memory)
        }
        // By their inputs, not by values worked out and fingerprinted.
        let model = SiteModel(content: original, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html)
        #expect(BadgePages(site: model).job().inputs != nil && LeaderboardPages(site: model).job().inputs != nil)
        #expect(CalendarPages(site: model).job().inputs != nil)
        let first = try build(original)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        let same = try build(original, memory: memory)
        for page in pages { #expect(try #require(same[page]).keepsPrevious, "\(page) kept") }
        let p = try #require(original.projects.firstIndex { $0.slug == moon })
        let open = try #require(original.projects[p].rounds.firstIndex { $0.isOpen })
        let closed = try #require(original.projects[p].rounds.firstIndex { !$0.isOpen && $0.winner != nil })
        let bo = try #require(Handle("bo"))
        var changes: [String: Content] = [:]
        changes["a player's name"] = original
        changes["a player's name"]?.users[bo]?.name = "Bo the Second"
        changes["a round's winner"] = original
        let loser = try #require(original.projects[p].rounds[closed].submissions.first { $0.id != original.projects[p].rounds[closed].winner })
        changes["a round's winner"]?.projects[p].rounds[closed].winner = loser.id
        changes["a snippet"] = original
        changes["a snippet"]?.projects[p].rounds[open].submissions.removeLast()
        changes["a story's title"] = original
        changes["a story's title"]?.projects[p].title = "Moon Two"
        changes["a deadline"] = original
        changes["a deadline"]?.projects[p].rounds[open].closes = Timestamp(iso8601: "2026-01-17T00:00:00Z")!
        var madeAgain: Set<String> = []
        for (name, changed) in changes {
            let rebuilt = try build(changed, memory: memory), fresh = try build(changed)
            for page in pages where fresh[page]?.contents != first[page]?.contents {
                madeAgain.insert(page)
                let file = try #require(rebuilt[page])
                #expect(!file.keepsPrevious, "\(page) after \(name)")
                let asFresh = file.contents == fresh[page]?.contents
                #expect(asFresh, "\(page) after \(name) as a fresh build makes it")
            }
        }
        // Each page changed with at least one of them, so each was made again at least once.
        #expect(madeAgain == Set(pages))
    }

    /// The deadlines calendar is kept by its inputs (the site's title and address, each
    /// deadline's project and round) and made again, as a fresh build makes it, when one changes.
    @Test func theCalendarIsKeptByItsDeadlines() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        func build(_ content: Content, memory: PageMemory? = nil) throws -> OutputFile {
            try #require(try Self.build(content, projectKeys: [moon: "files-1"], memory: memory)[SitePath.calendarFeed])
        }
        let first = try build(original)
        #expect(String(decoding: first.contents, as: UTF8.self).contains("SUMMARY:Round 2 of Moon closes"))
        let memory = PageMemory(fingerprints: [SitePath.calendarFeed: try #require(first.fingerprint)], isIntact: { _ in true })
        #expect(try build(original, memory: memory).keepsPrevious)
        let p = try #require(original.projects.firstIndex { $0.slug == moon })
        let r = try #require(original.projects[p].rounds.firstIndex { $0.isOpen })
        var changes: [String: Content] = [:]
        changes["project's title"] = original
        changes["project's title"]?.projects[p].title = "Moon Two"
        changes["deadline"] = original
        changes["deadline"]?.projects[p].rounds[r].closes = Timestamp(iso8601: "2026-01-17T00:00:00Z")!
        changes["opening"] = original
        changes["opening"]?.projects[p].rounds[r].opened = Timestamp(iso8601: "2026-01-10T00:00:00Z")!
        changes["site's title"] = original
        changes["site's title"]?.config.title = "Another game"
        changes["site's address"] = original
        changes["site's address"]?.config.baseURL = "https://other.example.org/"
        changes["no deadline"] = original
        changes["no deadline"]?.projects[p].rounds[r].closes = Timestamp(iso8601: "2026-01-12T00:00:00Z")!
        changes["project's slug"] = original
        changes["project's slug"]?.projects[p].slug = try #require(Slug("moon-two"))
        changes["round's number"] = original
        changes["round's number"]?.projects[p].rounds[r].number = try #require(RoundNumber(3))
        for (name, changed) in changes {
            let rebuilt = try build(changed, memory: memory)
            #expect(!rebuilt.keepsPrevious, "\(name)")
            #expect(rebuilt.contents == (try build(changed)).contents, "\(name)")
            #expect(rebuilt.contents != first.contents, "\(name)")
        }
    }

    /// Feeds are kept by their inputs too: their entries' projects' files and the names they
    /// credit.
    @Test func aFeedIsKeptByItsInputsUntilOneChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        func build(_ content: Content, key: String = "files-1", memory: PageMemory? = nil) throws -> [String: OutputFile] {
            try Self.build(content, projectKeys: [moon: key], memory: memory)
        }
        let first = try build(original)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        let feeds = ["feed.xml", "projects/moon/feed.xml", "users/bo/feed.xml", "users/ann/feed.xml"]
        for feed in feeds { #expect(try #require(first[feed]).fingerprint != nil, "\(feed) has inputs") }
        let again = try build(original, memory: memory)
        for feed in feeds { #expect(try #require(again[feed]).keepsPrevious, "\(feed) is kept") }

        var renamed = original
        renamed.users[try #require(Handle("bo"))]?.name = "Bo Renamed"
        let afterRename = try build(renamed, memory: memory)
        for feed in ["projects/moon/feed.xml", "users/bo/feed.xml"] {
            let file = try #require(afterRename[feed])
            #expect(!file.keepsPrevious)
            #expect(String(decoding: file.contents, as: UTF8.self).contains("Bo Renamed"), "\(feed) credits the new name")
        }
        #expect(try #require(afterRename["users/ann/feed.xml"]).keepsPrevious, "Ann's feed credits nobody renamed")

        let otherFiles = try build(original, key: "files-2", memory: memory)
        #expect(!(try #require(otherFiles["projects/moon/feed.xml"])).keepsPrevious)
        #expect(try otherFiles["projects/moon/feed.xml"]?.contents == build(original)["projects/moon/feed.xml"]?.contents)
    }

    /// While every feed's inputs are those recorded (`FeedsKeys`, which the site's feed
    /// records), every feed that draws on a story is kept by those keys and not its own, once
    /// its file is found intact; a feed with no story goes by its own inputs (the moment is its
    /// `updated`, and no part of the key). When anything the feeds are made of changes, each
    /// feed that draws on it goes by its own inputs again (here every player is Moon's, so a
    /// change to Moon's files sends every feed: which are kept then is the next test's), and
    /// every feed is the one a fresh build makes.
    @Test func everyFeedIsKeptByTheFeedsKeyUntilWhatTheyAreMadeOfChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        func build(_ content: Content, key: String = "files-1", now: Timestamp = Self.now, memory: PageMemory? = nil) throws
            -> [String: OutputFile]
        {
            var files: [String: OutputFile] = [:]
            try SiteBuilder(content: content, theme: try Theme.builtIn(), now: now, projectKeys: [moon: key])
                .build(memory: memory) { (batch: [OutputFile]) throws(Diagnostics) in
                    for file in batch { files[file.path] = file }
                }
            return files
        }
        func feeds(_ files: [String: OutputFile]) -> [String] { files.keys.filter { $0.hasSuffix("feed.xml") }.sorted() }
        // Ann's own fingerprint recorded wrong: only the feeds' key can keep her feed.
        func memory(of built: [String: OutputFile], intact: @escaping @Sendable (String) -> Bool = { _ in true }) -> PageMemory {
            var recorded = PageMemory.recorded(by: built.values)
            recorded["users/ann/feed.xml"] = Array(repeating: 0, count: 16)
            return PageMemory(fingerprints: recorded, isIntact: intact)
        }
        let first = try build(original)
        let key = try #require(first[SitePath.feed]?.alsoRecorded.first { $0.path == SitePath.feedsKey })
        #expect(feeds(first).count == 2 + original.users.count)
        let again = try build(original, memory: memory(of: first))
        #expect(feeds(again) == feeds(first))
        for feed in feeds(first) { #expect(try #require(again[feed]).keepsPrevious, "\(feed) kept") }
        #expect(again[SitePath.feed]?.alsoRecorded.contains(key) == true, "the key recorded again")
        var withoutKey = PageMemory.recorded(by: first.values)
        withoutKey["users/ann/feed.xml"] = Array(repeating: 0, count: 16)
        withoutKey[SitePath.feedsKey] = nil
        let byOwnInputs = try build(original, memory: PageMemory(fingerprints: withoutKey, isIntact: { _ in true }))
        #expect(!(try #require(byOwnInputs["users/ann/feed.xml"])).keepsPrevious, "by her own inputs without the key")
        // A feed found edited while the key stands is made again, by its own inputs; the rest
        // are kept, and the key is recorded again.
        let edited = try build(original, memory: memory(of: first) { $0 != "users/bo/feed.xml" })
        let bo = try #require(edited["users/bo/feed.xml"])
        let boAsBefore = bo.contents == first["users/bo/feed.xml"]?.contents
        #expect(!bo.keepsPrevious && boAsBefore)
        #expect(try #require(edited["users/ann/feed.xml"]).keepsPrevious)
        #expect(edited[SitePath.feed]?.alsoRecorded.contains(key) == true)

        // A player with no story: their feed's `updated` is the moment, which moves; every other
        // feed is still kept by the key.
        var joined = original
        let zed = try #require(Handle("zed"))
        joined.users[zed] = User(handle: zed, name: "Zed", joined: Self.now, origin: Origin(path: "users/zed.md"))
        let joinedFirst = try build(joined)
        let later = Timestamp(iso8601: "2026-01-13T12:00:00Z")!
        let laterBuild = try build(joined, now: later, memory: memory(of: joinedFirst))
        let zedFeed = try #require(laterBuild["users/zed/feed.xml"])
        let zedAsFresh = zedFeed.contents == (try build(joined, now: later))["users/zed/feed.xml"]?.contents
        #expect(!zedFeed.keepsPrevious && zedAsFresh)
        for feed in feeds(joinedFirst) where feed != "users/zed/feed.xml" {
            #expect(try #require(laterBuild[feed]).keepsPrevious, "\(feed) kept by the key at a later moment")
        }

        var changes: [String: (content: Content, key: String)] = [:]
        var renamed = original
        renamed.users[try #require(Handle("bo"))]?.name = "Bo Renamed"
        changes["a player's name"] = (renamed, "files-1")
        var removed = original
        removed.users[try #require(Handle("cy"))] = nil
        changes["a player removed"] = (removed, "files-1")
        var retitled = original
        let p = try #require(original.projects.firstIndex { $0.slug == moon })
        retitled.projects[p].title = "Moon Two"
        changes["a project's files"] = (retitled, "files-2")
        var unlisted = original
        unlisted.projects[p].visibility = .unlisted
        changes["a story unlisted"] = (unlisted, "files-1")
        var site = original
        site.config.title = "Another game"
        changes["the site's title"] = (site, "files-1")
        var address = original
        address.config.baseURL = "https://other.example.org/"
        changes["the site's address"] = (address, "files-1")
        for (name, change) in changes {
            let rebuilt = try build(change.content, key: change.key, memory: memory(of: first))
            let fresh = try build(change.content, key: change.key)
            #expect(feeds(rebuilt) == feeds(fresh), "\(name)")
            var madeAgain = 0
            for feed in feeds(fresh) {
                let file = try #require(rebuilt[feed])
                if fresh[feed]?.contents != first[feed]?.contents {
                    #expect(!file.keepsPrevious, "\(feed) after \(name)")
                    madeAgain += 1
                }
                if !file.keepsPrevious {
                    let asFresh = file.contents == fresh[feed]?.contents
                    #expect(asFresh, "\(feed) after \(name) as a fresh build makes it")
                }
            }
            #expect(madeAgain > 0, "\(name) changes a feed")
        }
    }

    /// After one story's files change (a `close`, a merged pull request), its feed, the site's
    /// and the feeds of the players it credits are made by their own inputs, and every other
    /// feed is kept by the feeds' keys. When the story credits other players than it did (one
    /// left it, one joined), every feed goes by its own inputs: a player who left can't be named.
    @Test func onlyTheFeedsThatDrawOnAChangedStoryAreMadeAgain() throws {
        var original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon")), sun = try #require(Slug("sun"))
        let dee = try #require(Handle("dee")), ann = try #require(Handle("ann"))
        original.users[dee] = User(handle: dee, name: "Dee", joined: Self.now, origin: Origin(path: "users/dee.md"))
        // Sun: Moon's rounds, every snippet and the story Dee's.
        var story = try #require(original.projects.first { $0.slug == moon })
        story.slug = sun
        story.title = "Sun"
        story.owner = dee
        for r in story.rounds.indices {
            for s in story.rounds[r].submissions.indices { story.rounds[r].submissions[s].author = dee }
        }
        original.projects.append(story)
        let p = original.projects.count - 1
        func build(_ content: Content, sunKey: String? = "sun-1", memory: PageMemory? = nil) throws -> [String: OutputFile] {
            var files: [String: OutputFile] = [:]
            var keys = [moon: "moon-1"]
            keys[sun] = sunKey
            try SiteBuilder(content: content, theme: try Theme.builtIn(), now: Self.now, projectKeys: keys)
                .build(memory: memory) { (batch: [OutputFile]) throws(Diagnostics) in
                    for file in batch { files[file.path] = file }
                }
            return files
        }
        func feeds(_ files: [String: OutputFile]) -> [String] { files.keys.filter { $0.hasSuffix("feed.xml") }.sorted() }
        // Every feed's own fingerprint recorded wrong: a feed kept is kept by the feeds' keys.
        func memory(of built: [String: OutputFile]) -> PageMemory {
            var recorded = PageMemory.recorded(by: built.values)
            for feed in feeds(built) { recorded[feed] = Array(repeating: 0, count: 16) }
            return PageMemory(fingerprints: recorded, isIntact: { _ in true })
        }
        let first = try build(original)
        #expect(feeds(first).count == 3 + original.users.count)
        for path in [SitePath.feedsKey, SitePath.feedsKey + "moon", SitePath.feedsKey + "sun"] {
            #expect(first[SitePath.feed]?.alsoRecorded.contains { $0.path == path && $0.fingerprint.count == 16 } == true, "\(path)")
        }
        func expectMadeAgain(
            _ content: Content, sunKey: String?, only madeAgain: Set<String>, _ change: String, after first: [String: OutputFile]? = nil
        ) throws {
            let first = try first ?? build(original)
            let rebuilt = try build(content, sunKey: sunKey, memory: memory(of: first))
            let fresh = try build(content, sunKey: sunKey)
            #expect(feeds(rebuilt) == feeds(fresh), "\(change)")
            for feed in feeds(fresh) {
                let file = try #require(rebuilt[feed])
                #expect(file.keepsPrevious == !madeAgain.contains(feed), "\(feed) after \(change)")
                if !file.keepsPrevious {
                    #expect(file.contents == fresh[feed]?.contents, "\(feed) after \(change) as a fresh build makes it")
                } else {
                    #expect(first[feed]?.contents == fresh[feed]?.contents, "\(feed) kept after \(change) is a fresh build's")
                }
            }
            #expect(rebuilt[SitePath.feed]?.alsoRecorded == fresh[SitePath.feed]?.alsoRecorded, "\(change): the keys recorded")
        }
        let sunsFeeds: Set = ["projects/sun/feed.xml", "feed.xml", "users/dee/feed.xml"]
        var retitled = original
        retitled.projects[p].title = "Sun Two"
        try expectMadeAgain(retitled, sunKey: "sun-2", only: sunsFeeds, "Sun's files")
        // With no key (files changed too recently to vouch for), Sun's feeds go by their own
        // inputs (they have none, and are written out); the others are kept.
        try expectMadeAgain(original, sunKey: nil, only: sunsFeeds, "Sun without a key")

        // An unlisted story is in no player's feed nor the site's: only its own is made again
        // (and Dee's, who then has no listed story: her feed's `updated` is the moment).
        var unlisted = original
        unlisted.projects[p].visibility = .unlisted
        var unlistedRetitled = unlisted
        unlistedRetitled.projects[p].title = "Sun Two"
        try expectMadeAgain(
            unlistedRetitled, sunKey: "sun-2", only: ["projects/sun/feed.xml", "users/dee/feed.xml"], "unlisted Sun's files",
            after: try build(unlisted))

        // Ann writes in Sun, or did and no longer does: every feed goes by its own inputs.
        var joined = original
        joined.projects[p].rounds[0].submissions[0].author = ann
        let all = Set(feeds(first))
        try expectMadeAgain(joined, sunKey: "sun-2", only: all, "Ann joining Sun")
        let firstJoined = try build(joined, sunKey: "sun-2")
        let left = try build(original, sunKey: "sun-3", memory: memory(of: firstJoined))
        let annLeft = try #require(left["users/ann/feed.xml"])
        let annFresh = try #require(try build(original, sunKey: "sun-3")["users/ann/feed.xml"])
        let annBefore = try #require(firstJoined["users/ann/feed.xml"])
        #expect(!annLeft.keepsPrevious && annLeft.contents == annFresh.contents)
        #expect(annLeft.contents != annBefore.contents, "Ann's feed no longer shows her snippet in Sun")
    }

    /// A project's page and feed credit its owner and the authors of its shown snippets, each
    /// once, sorted: found once for both (`SiteModel.participants`), a hidden snippet's author
    /// left out.
    @Test func aProjectsParticipantsAreItsOwnerAndItsShownSnippetsAuthors() throws {
        var content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let p = try #require(content.projects.firstIndex { $0.slug.rawValue == "moon" })
        let first = content.projects[p].rounds[0]
        let lost = try #require(first.submissions.first { $0.id != first.winner })
        let site = SiteModel(content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html)
        let moon = try #require(site.built.first { $0.slug.rawValue == "moon" })
        let everyone = Set([content.projects[p].owner] + content.projects[p].rounds.flatMap { $0.submissions.map(\.author) })
        #expect(site.participants[moon.slug] == everyone.sorted() && site.participants(of: moon) == everyone.sorted())
        #expect(everyone.count == 3 && site.participants[moon.slug]?.first == content.projects[p].owner)

        content.projects[p].rounds[0].hidden = [Round.Hidden(id: lost.id, by: "ann", at: Self.now, reason: "spam")]
        let moderated = SiteModel(content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html)
        #expect(moderated.participants[moon.slug] == everyone.subtracting([lost.author]).sorted())
        // A project the site doesn't build is worked out the same way when asked.
        var draft = content.projects[p]
        draft.slug = try #require(Slug("draft"))
        #expect(moderated.participants[draft.slug] == nil && moderated.participants(of: draft) == everyone.sorted())
    }

    /// The players' page is kept by what it shows of each player (`UserPages.listInputs`): a
    /// name or a picture changed makes it again, as a fresh build makes it.
    @Test func thePlayersPageIsKeptByWhatItShowsOfEachPlayer() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        func build(_ content: Content, memory: PageMemory? = nil) throws -> [String: OutputFile] {
            try Self.build(content, projectKeys: [moon: "files-1"], memory: memory)
        }
        let first = try build(original)
        #expect(try #require(first["users/index.html"]).fingerprint != nil)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        #expect(try #require(try build(original, memory: memory)["users/index.html"]).keepsPrevious)

        var renamed = original
        let bo = try #require(Handle("bo"))
        renamed.users[bo]?.name = "Bo Renamed"
        let page = try #require(try build(renamed, memory: memory)["users/index.html"])
        #expect(!page.keepsPrevious && String(decoding: page.contents, as: UTF8.self).contains("Bo Renamed"))
        #expect(page.contents == (try build(renamed))["users/index.html"]?.contents)

        var pictured = original
        pictured.users[bo]?.avatar = "bo.png"
        pictured.media.insert("users/bo.png")
        let withPicture = try #require(try build(pictured, memory: memory)["users/index.html"])
        #expect(!withPicture.keepsPrevious && String(decoding: withPicture.contents, as: UTF8.self).contains("users/bo.png"))
    }

    /// A badge card is kept by its inputs: it isn't made again, the writer needn't read the
    /// previous site's card to compare, and a card whose inputs change (a new name, the site's
    /// title, karma) is made again.
    @Test func aBadgeCardIsKeptByItsInputsUntilOneChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let first = try Self.build(original, projectKeys: [:], memory: nil)
        let card = "users/bo/card.svg"
        #expect(try #require(first[card]).fingerprint != nil)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in true })
        #expect(try #require(try Self.build(original, projectKeys: [:], memory: memory)[card]).keepsPrevious)

        var renamed = original
        renamed.users[try #require(Handle("bo"))]?.name = "Bo Renamed"
        let again = try Self.build(renamed, projectKeys: [:], memory: memory)
        let file = try #require(again[card])
        #expect(!file.keepsPrevious)
        #expect(String(decoding: file.contents, as: UTF8.self).contains("Bo Renamed"))
        #expect(try #require(again["users/ann/card.svg"]).keepsPrevious, "Ann's card is as it was")
        var retitled = original
        retitled.config.title = "Another title"
        let titled = try #require(try Self.build(retitled, projectKeys: [:], memory: memory)[card])
        #expect(!titled.keepsPrevious)
        #expect(String(decoding: titled.contents, as: UTF8.self).contains("Another title"))
        // Karma: Bo starts a project.
        var started = original
        var project = try #require(original.projects.first)
        project.slug = try #require(Slug("moon-two"))
        project.owner = try #require(Handle("bo"))
        started.projects.append(project)
        func karma(_ content: Content) -> Int {
            SiteModel(content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html).standing
                .counts(of: project.owner).karma.total
        }
        #expect(karma(started) > karma(original))
        let more = try #require(try Self.build(started, projectKeys: [:], memory: memory)[card])
        #expect(!more.keepsPrevious)
        #expect(String(decoding: more.contents, as: UTF8.self).contains(">\(karma(started))</text>"))
        let stale = PageMemory(fingerprints: PageMemory.recorded(by: first.values), isIntact: { _ in false })
        #expect(!(try #require(try Self.build(original, projectKeys: [:], memory: stale)[card])).keepsPrevious, "a card whose file isn't intact is written")
    }

    /// The search index is kept by its inputs: its projects' files, the names its stories
    /// credit and the players' names and bios.
    @Test func theSearchIndexIsKeptByItsInputsUntilOneChanges() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon")), bo = try #require(Handle("bo"))
        func build(_ content: Content, key: String = "files-1", memory: PageMemory? = nil) throws -> OutputFile {
            try #require(try Self.build(content, projectKeys: [moon: key], memory: memory)["search.json"])
        }
        let first = try build(original)
        #expect(first.fingerprint != nil)
        let memory = PageMemory(fingerprints: ["search.json": try #require(first.fingerprint)], isIntact: { _ in true })
        #expect(try build(original, memory: memory).keepsPrevious)
        var changes: [(String, Content)] = []
        var renamed = original
        renamed.users[bo]?.name = "Bo Renamed"
        changes.append(("a rename", renamed))
        var bio = original
        bio.users[bo]?.bio = "Writes at night."
        changes.append(("a bio", bio))
        for (change, content) in changes {
            let file = try build(content, memory: memory)
            #expect(!file.keepsPrevious, "\(change)")
            #expect(file.contents == (try build(content)).contents, "\(change)")
        }
        #expect(!(try build(original, key: "files-2", memory: memory)).keepsPrevious, "the project's files")
    }

    /// After a change, the runs of entries whose key is the one recorded are copied from the
    /// previous site's index, and only the others are made: the index is a fresh build's, with
    /// the same fingerprint and records.
    @Test func theSearchIndexCopiesTheRunsOfEntriesRecordedAsTheyAre() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon")), bo = try #require(Handle("bo"))
        func index(_ content: Content, memory: PageMemory?) -> OutputFile {
            let site = SiteModel(
                content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html, projectKeys: [moon: "files-1"])
            return SearchIndex(site: site).file(memory: memory, runLength: 1)
        }
        func entries(_ file: OutputFile) throws -> [String] {
            try #require(SearchIndex.entryRanges(file.contents)).map { String(decoding: file.contents[$0], as: UTF8.self) }
        }
        let first = index(original, memory: nil)
        let recorded = PageMemory.recorded(by: [first])
        #expect(recorded.count == 1 + (try entries(first)).count, "the index's fingerprint and one key a run")
        // The previous file with every text marked: an entry copied from it keeps the mark.
        let marked = Array(String(decoding: first.contents, as: UTF8.self).replacingOccurrences(of: #""text":""#, with: #""text":"MARK "#).utf8)
        let memory = PageMemory(fingerprints: recorded, isIntact: { _ in true }, contents: { $0 == "search.json" ? marked : nil })
        #expect(index(original, memory: memory).keepsPrevious)

        var renamed = original
        renamed.users[bo]?.name = "Bo Renamed"
        let fresh = index(renamed, memory: nil), again = index(renamed, memory: memory)
        #expect(!again.keepsPrevious)
        #expect(again.fingerprint == fresh.fingerprint)
        #expect(again.alsoRecorded == fresh.alsoRecorded)
        let made = try entries(again), expected = try entries(fresh)
        #expect(made.count == expected.count)
        var copied = 0
        for (entry, wanted) in zip(made, expected) {
            if wanted.contains("Bo Renamed") {
                #expect(entry == wanted, "an entry that names Bo is made again")
            } else {
                #expect(entry == wanted.replacingOccurrences(of: #""text":""#, with: #""text":"MARK "#), "copied")
                copied += 1
            }
        }
        #expect(copied > 0 && copied < made.count)
        // Without the previous file, or with one that isn't an index, every entry is made.
        for contents in [nil, Array("not an index".utf8)] {
            let unread = PageMemory(fingerprints: recorded, isIntact: { _ in true }, contents: { _ in contents })
            #expect(index(renamed, memory: unread).contents == fresh.contents)
        }
    }

    /// A story whose project has no key (its files changed too recently to vouch for, as
    /// `build` meets them right after `close`) has its run made again and not recorded, and the
    /// index no fingerprint; the other runs are still copied.
    @Test func theSearchIndexMakesOnlyTheRunOfAStoryWithNoKey() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        func index(keyed: Bool, memory: PageMemory?) -> OutputFile {
            let site = SiteModel(
                content: original, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html,
                projectKeys: keyed ? [moon: "files-1"] : [:])
            return SearchIndex(site: site).file(memory: memory, runLength: 1)
        }
        func entries(_ file: OutputFile) throws -> [String] {
            try #require(SearchIndex.entryRanges(file.contents)).map { String(decoding: file.contents[$0], as: UTF8.self) }
        }
        let first = index(keyed: true, memory: nil)
        let marked = Array(String(decoding: first.contents, as: UTF8.self).replacingOccurrences(of: #""text":""#, with: #""text":"MARK "#).utf8)
        let memory = PageMemory(fingerprints: PageMemory.recorded(by: [first]), isIntact: { _ in true }, contents: { _ in marked })
        let fresh = index(keyed: false, memory: nil), again = index(keyed: false, memory: memory)
        #expect(!again.keepsPrevious)
        #expect(again.fingerprint == nil && fresh.fingerprint == nil, "an index with a run unkeyed has no fingerprint")
        #expect(again.alsoRecorded == fresh.alsoRecorded)
        #expect(!again.alsoRecorded.contains { $0.path == SitePath.searchIndexRun(0) }, "the story's run is not recorded")
        #expect(again.alsoRecorded.count == first.alsoRecorded.count - 1, "every other run is")
        let made = try entries(again), expected = try entries(fresh)
        try #require(made.count == expected.count && made.count > 1)
        #expect(made[0] == expected[0] && made[0].contains(#""url":"projects/moon/index.html""#), "the story is made again")
        for place in made.indices.dropFirst() {
            #expect(made[place] == expected[place].replacingOccurrences(of: #""text":""#, with: #""text":"MARK "#), "entry \(place) is copied")
        }
    }

    /// Runs of several entries, the last one short, and changes that move entries from one run
    /// to another (a player gone, a player added): whatever is copied, the index is a fresh
    /// build's, and a run is copied only where its entries are those it recorded.
    @Test func theSearchIndexCopiesOnlyRunsWhoseEntriesAreAsRecorded() throws {
        let original = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let moon = try #require(Slug("moon"))
        let marker = (#""text":""#, #""text":"MARK "#)
        func searchIndex(_ content: Content, memory: PageMemory?, length: Int) -> OutputFile {
            let site = SiteModel(
                content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html, projectKeys: [moon: "files-1"])
            return SearchIndex(site: site).file(memory: memory, runLength: length)
        }
        let count = try #require(SearchIndex.entryRanges(searchIndex(original, memory: nil, length: 1).contents)).count
        // Runs of several entries, the last one short.
        let lengths = (2...5).filter { count > $0 && count % $0 != 0 }
        try #require(!lengths.isEmpty)
        for length in lengths {
            func index(_ content: Content, memory: PageMemory?) -> OutputFile { searchIndex(content, memory: memory, length: length) }
            let first = index(original, memory: nil)
            let marked = Array(String(decoding: first.contents, as: UTF8.self).replacingOccurrences(of: marker.0, with: marker.1).utf8)
            let memory = PageMemory(fingerprints: PageMemory.recorded(by: [first]), isIntact: { _ in true }, contents: { _ in marked })
            var gone = original
            let last = try #require(gone.users.keys.max())
            gone.users[last] = nil
            var added = original
            let newcomer = try #require(Handle("zz-newcomer"))
            added.users[newcomer] = User(handle: newcomer, name: "Newcomer", joined: Self.now, origin: Origin(path: "Content/users/zz-newcomer.md"))
            for (change, content) in [("a player gone", gone), ("a player added", added)] {
                let fresh = index(content, memory: nil), again = index(content, memory: memory)
                #expect(again.fingerprint == fresh.fingerprint && again.alsoRecorded == fresh.alsoRecorded, "\(change), runs of \(length)")
                let made = String(decoding: again.contents, as: UTF8.self)
                #expect(made.replacingOccurrences(of: marker.1, with: marker.0) == String(decoding: fresh.contents, as: UTF8.self))
                // The stories come first and are as they were: copied.
                #expect(made.hasPrefix("[{") && made.contains("MARK"), "\(change), runs of \(length)")
                // The runs from the change on are made anew.
                let entries = try #require(SearchIndex.entryRanges(again.contents)).map { String(decoding: again.contents[$0], as: UTF8.self) }
                let changedFrom = change == "a player gone" ? count - 1 : count
                for place in entries.indices where place >= changedFrom / length * length {
                    #expect(!entries[place].contains("MARK"), "\(change), runs of \(length), entry \(place)")
                }
            }
        }
    }

    /// Pages and paths a fixture build must have, whatever the golden files say.
    @Test func everyKindOfPageIsBuilt() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let pages = try SiteFixtures.build(content, now: Self.now)
        for path in [
            "index.html", "projects/moon/index.html", "projects/moon/rounds/0001.html", "404.html", "sitemap.xml",
            "robots.txt", "style.css", "users/index.html", "users/ann/index.html", "users/ann/feed.xml", "users/ann/card.svg",
            "badges/index.html", "leaderboard/index.html", "calendar/index.html", "calendar.ics", "feed.xml",
            "projects/moon/feed.xml", "search/index.html", "search.json", "search.js", "tags/space/index.html",
        ] {
            #expect(pages[path] != nil, "\(path) is built")
        }
    }

    @Test func theStoryIsTheStarterThenEachWinner() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let page = try #require(try SiteFixtures.build(content, now: Self.now)["projects/moon/index.html"])
        let start = try #require(page.range(of: "<p>Start.</p>"))
        let winner = try #require(page.range(of: "<p>Text by bo.</p>"))
        #expect(start.lowerBound < winner.lowerBound)
        #expect(!page.contains("<p>Text by cy.</p>"), "the losing snippet of round 1 is not in the story")
        #expect(page.contains("Round 2 is open"))
        #expect(page.contains("<p>Text by ann.</p>"), "the open round's snippet is shown")
        #expect(page.contains("<progress max=\"100\" value=\"50\""), "3.5 of the round's 7 days have passed")
        #expect(page.contains("href=\"../../style.css\""), "links are relative")
        #expect(page.contains("<link rel=\"canonical\" href=\"https://example.org/projects/moon/\">"))
    }

    @Test func everythingPlayersWriteIsEscaped() throws {
        let payload = "\"><script>alert(1)</script><img src=x onerror=alert(1)>"
        let origin = Origin(path: "x")
        let evil = Handle("eve")!
        let user = User(handle: evil, name: payload, joined: Timestamp(secondsSinceEpoch: 0), bio: payload, origin: origin)
        let id = SubmissionID(author: evil, time: Timestamp(secondsSinceEpoch: 100))
        let round = Round(
            number: .first, opened: Timestamp(secondsSinceEpoch: 0), closes: Timestamp(secondsSinceEpoch: 1_000_000),
            submissions: [
                Submission(id: id, author: evil, submitted: id.time, body: payload + "\n\n[x](javascript:alert(1))", origin: origin)
            ], origin: origin)
        let project = Project(
            slug: Slug("p")!, title: payload, owner: evil, created: Timestamp(secondsSinceEpoch: 0), roundLimit: 3,
            roundLength: TimeSpan("7d")!, tags: [payload], starter: payload, rounds: [round], origin: origin)
        var config = Config.defaults(title: payload)
        config.baseURL = "https://example.org/"
        let content = Content(config: config, users: [evil: user], projects: [project])
        let pages = try SiteFixtures.build(content, now: Timestamp(secondsSinceEpoch: 500))
        for (path, html) in pages where path.hasSuffix(".html") {
            let ownScripts = html.components(separatedBy: "<script src=\"../search.js\"").count - 1
            #expect(html.components(separatedBy: "<script").count - 1 == ownScripts, "\(path)")
            #expect(!html.contains("<img src=x"), "\(path)")
            #expect(!html.lowercased().contains("javascript:"), "\(path)")
            #expect(html.contains("&lt;script&gt;"), "\(path) shows the text, escaped")
        }
    }

    @Test func aClosedRoundHasItsPageWithTheWinnerTheAlternatesAndTheTally() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let pages = try SiteFixtures.build(content, now: Self.now)
        let page = try #require(pages["projects/moon/rounds/0001.html"])
        let winner = try #require(page.range(of: "<p>Text by bo.</p>"))
        let alternate = try #require(page.range(of: "<p>Text by cy.</p>"))
        #expect(winner.lowerBound < alternate.lowerBound, "the winner comes first, then the alternate takes")
        #expect(page.contains("Counted plainly (plain-1)"))
        #expect(page.contains("<td class=\"number\">1.5</td>"))
        #expect(page.contains("href=\"../../../projects/moon/index.html\""), "links back to the project")
        #expect(
            try #require(pages["projects/moon/index.html"]).contains("href=\"../../projects/moon/rounds/0001.html\""))
    }

    @Test func sitemapRobotsAndTheNotFoundPage() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let pages = try SiteFixtures.build(content, now: Self.now)
        #expect(
            pages["sitemap.xml"]
                == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                  <url><loc>https://example.org/</loc></url>
                  <url><loc>https://example.org/badges/</loc></url>
                  <url><loc>https://example.org/calendar/</loc></url>
                  <url><loc>https://example.org/leaderboard/</loc></url>
                  <url><loc>https://example.org/projects/moon/</loc></url>
                  <url><loc>https://example.org/projects/moon/rounds/0001.html</loc></url>
                  <url><loc>https://example.org/search/</loc></url>
                  <url><loc>https://example.org/tags/space/</loc></url>
                  <url><loc>https://example.org/users/</loc></url>
                  <url><loc>https://example.org/users/ann/</loc></url>
                  <url><loc>https://example.org/users/bo/</loc></url>
                  <url><loc>https://example.org/users/cy/</loc></url>
                </urlset>

                """)
        #expect(pages["robots.txt"] == "User-agent: *\nAllow: /\nSitemap: https://example.org/sitemap.xml\n")
        #expect(try #require(pages["404.html"]).contains("href=\"/style.css\""), "the 404 page links from the site's root path")
        #expect(PageContext.sitePath(of: "https://example.org/stories") == "/stories/")
        #expect(PageContext.sitePath(of: "https://example.org") == "/")
        #expect(XML.escape("a&b<'\">") == "a&amp;b&lt;&apos;&quot;&gt;")
        #expect(XML.escape("tab\tline\nbell\u{7}nul-free\u{1}") == "tab\tline\nbellnul-free", "control characters dropped")
        #expect(XML.escape("a\u{FFFE}b\u{FFFF}c\u{FFFD}d€") == "abc\u{FFFD}d€")
        #expect(XML.escape("plain text, no work") == "plain text, no work")
    }

    /// The escapers skip clean runs sixteen bytes at a time: each character they must change or
    /// drop is tried at every offset of texts longer than a chunk, against escaping byte by byte.
    @Test func escapingFindsWhatItMustAtEveryOffset() {
        func html(_ text: String) -> String {
            String(text.utf8.flatMap { byte -> [UInt8] in
                switch byte {
                case 0x26: Array("&amp;".utf8)
                case 0x3C: Array("&lt;".utf8)
                case 0x3E: Array("&gt;".utf8)
                case 0x22: Array("&quot;".utf8)
                case 0x27: Array("&#39;".utf8)
                default: [byte]
                }
            }.map { Character(Unicode.Scalar($0)) })
        }
        for length in [15, 16, 17, 31, 32, 33, 48] {
            for offset in 0..<length {
                for special in ["&", "<", ">", "\"", "'"] {
                    var text = String(repeating: "x", count: length)
                    text.replaceSubrange(text.index(text.startIndex, offsetBy: offset)..<text.index(text.startIndex, offsetBy: offset + 1), with: special)
                    #expect(HTMLEscaping.escape(text) == html(text), "\(special) at \(offset) of \(length)")
                    #expect(HTMLEscaping.escape(text + text) == html(text + text))
                    let xml = html(text).replacingOccurrences(of: "&#39;", with: "&apos;")
                    #expect(XML.escape(text) == xml, "\(special) at \(offset) of \(length)")
                }
                let pad = String(repeating: "y", count: offset)
                let tail = String(repeating: "z", count: length)
                #expect(XML.escape(pad + "\u{7}" + tail) == pad + tail, "a control character at \(offset)")
                #expect(XML.escape(pad + "\u{FFFF}" + tail) == pad + tail, "U+FFFF at \(offset)")
                #expect(XML.escape(pad + "\u{FFFE}" + tail) == pad + tail, "U+FFFE at \(offset)")
                #expect(XML.escape(pad + "\t\n\r€\u{FFFD}！" + tail + "&") == pad + "\t\n\r€\u{FFFD}！" + tail + "&amp;")
            }
            // Clean multi-byte text long enough to be skipped by chunks, then one character to
            // change (a text with none is returned before any scan).
            let clean = String(repeating: "é", count: length)
            #expect(HTMLEscaping.escape(clean + "&") == clean + "&amp;")
            #expect(XML.escape(clean + "&") == clean + "&amp;")
        }
    }

    /// `XML.content` scans sixteen bytes at a time: what it must find is tried at every offset,
    /// so that a `]]>` or a forbidden character across or inside any chunk is caught.
    @Test func contentIsCDATAOnlyWhenNothingInItNeedsEscaping() {
        for offset in 0..<40 {
            let pad = String(repeating: "x", count: offset)
            let html = pad + "<p>a</p>\n\tb"
            #expect(XML.content(html) == "<![CDATA[" + html + "]]>")
            #expect(XML.content(pad + "]]>") == pad + "]]&gt;", "at \(offset)")
            #expect(XML.content(pad + "]]x>") == "<![CDATA[" + pad + "]]x>]]>", "at \(offset)")
            #expect(XML.content(pad + "]<]>") == "<![CDATA[" + pad + "]<]>]]>", "at \(offset)")
            #expect(XML.content(pad + "a\u{7}<") == pad + "a&lt;", "at \(offset)")
            #expect(XML.content(pad + "\u{FFFF}<b") == pad + "&lt;b", "at \(offset)")
            #expect(XML.content(pad + "€<") == "<![CDATA[" + pad + "€<]]>", "at \(offset)")
        }
    }

    @Test func buildingTwiceGivesTheSameBytes() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        #expect(try SiteFixtures.build(content, now: Self.now) == SiteFixtures.build(content, now: Self.now))
    }
}

extension FileManager {
    fileprivate func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
