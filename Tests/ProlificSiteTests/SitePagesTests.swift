import Foundation
import ProlificCore
import ProlificStore
import Testing
@testable import ProlificSite

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The pages beyond stories and rounds: visibility, pagination, tags, media, calendar, feeds,
/// profiles, badge cards and search.
@Suite struct SitePagesTests {
    static let now = Timestamp(iso8601: "2026-01-12T12:00:00Z")!

    static func fixture() throws -> Content {
        try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
    }

    /// A copy of the fixture's project `moon` under another slug.
    static func copy(of content: Content, as slug: String, visibility: Project.Visibility = .listed, title: String? = nil)
        throws -> Project
    {
        var project = try #require(content.project(Slug("moon")!))
        project.slug = try #require(Slug(slug))
        project.title = title ?? "Copy \(slug)"
        project.visibility = visibility
        return project
    }

    @Test func unlistedProjectsAreBuiltButListedNowhereAndDraftsAreNotBuilt() throws {
        var content = try Self.fixture()
        content.projects += [
            try Self.copy(of: content, as: "hidden", visibility: .unlisted, title: "Hidden Story"),
            try Self.copy(of: content, as: "secret", visibility: .draft, title: "Secret Draft"),
        ]
        let pages = try SiteFixtures.build(content, now: Self.now)
        let hidden = try #require(pages["projects/hidden/index.html"])
        #expect(hidden.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(try #require(pages["projects/hidden/rounds/0001.html"]).contains("noindex"))
        #expect(!(try #require(pages["projects/moon/index.html"])).contains("noindex"))
        for (path, text) in pages where !path.hasPrefix("projects/hidden/") {
            #expect(!text.contains("Hidden Story"), "\(path) does not list the unlisted project")
            #expect(!text.contains("projects/hidden"), "\(path) does not link to the unlisted project")
        }
        #expect(!pages.keys.contains { $0.hasPrefix("projects/secret/") }, "a draft is not built")
        #expect(!pages.values.contains { $0.contains("Secret Draft") })
    }

    /// The fixture with `count` copies of `moon` more, `story-1` … `story-<count>`, story `n`
    /// started `n` hours before `moon`: the list of stories in progress is `moon`, `story-1`, ….
    static func startedEarlier(_ content: Content, count: Int) throws -> Content {
        var content = content
        let moon = try #require(content.project(Slug("moon")!))
        for n in 1...count {
            var copy = try copy(of: content, as: "story-\(n)")
            copy.created = Timestamp(secondsSinceEpoch: moon.created.secondsSinceEpoch - Int64(n) * 3600)
            content.projects.append(copy)
        }
        return content
    }

    /// The cards' projects on a page, in order.
    static func cards(_ page: String) -> [String] {
        page.components(separatedBy: "<li class=\"card\">").dropFirst().compactMap { card in
            card.range(of: "projects/").map { String(card[$0.upperBound...].prefix { $0 != "/" }) }
        }
    }

    /// The home page shows the first 12 stories in progress in the explore order and links to
    /// the full list (`in-progress/`), paginated, the most recently started first: paging
    /// through it shows each story once, and a story that completes changes only the pages from
    /// its place on, where in the explore order a `close` made every page of the list again.
    @Test func theHomePageLinksToEveryStoryInProgressTheMostRecentlyStartedFirst() throws {
        // story-30 is the oldest, story-1 the newest but moon.
        var content = try Self.startedEarlier(try Self.fixture(), count: 30)
        // Two stories started at the same moment go by slug: story-3 and story-4 swap starts
        // with a twin of story-3 named story-3a.
        var twin = try Self.copy(of: content, as: "story-3a")
        twin.created = try #require(content.project(Slug("story-3")!)).created
        content.projects.insert(twin, at: 1)
        content.projects.removeAll { $0.slug.rawValue == "story-4" }
        let pages = try SiteFixtures.build(content, now: Self.now)
        let home = try #require(pages["index.html"])
        let karma = Standing(content: content).counts.mapValues(\.karma)
        let explore = Explore.order(content.projects, users: content.users, karma: karma, now: Self.now).map(\.slug.rawValue)
        #expect(Self.cards(home) == Array(explore.prefix(12)), "the home page: the explore order's first 12")
        #expect(home.contains("<a href=\"in-progress/index.html\">All 31 stories in progress</a>"))
        #expect(!home.contains("rel=\"next\""), "the home page is one page")
        #expect(pages["page/2/index.html"] == nil)
        let list = try [1, 2, 3].map { n in try #require(pages[n == 1 ? "in-progress/index.html" : "in-progress/page/\(n)/index.html"]) }
        #expect(pages["in-progress/page/4/index.html"] == nil, "31 stories make three pages of 12")
        let newestFirst = ["moon", "story-1", "story-2", "story-3", "story-3a"] + (5...30).map { "story-\($0)" }
        #expect(list.flatMap(Self.cards) == newestFirst)
        #expect(list[0].contains("31 stories, the most recently started first"))
        #expect(list[1].contains("The most recently started first") && !list[1].contains("31 stories"))
        #expect(list[1].contains("Page 2 of 3"))
        #expect(list[1].contains("href=\"../../../in-progress/index.html\" rel=\"prev\""))
        #expect(list[1].contains("href=\"../../../in-progress/page/3/index.html\" rel=\"next\""))
        let sitemap = try #require(pages["sitemap.xml"])
        #expect(sitemap.contains("/in-progress/page/3/</loc>"))
        // The oldest story completes: the list's first page (its count) and last page change,
        // the page between is byte for byte as it was.
        var later = content
        let oldest = try #require(later.projects.firstIndex { $0.slug.rawValue == "story-30" })
        later.projects[oldest].status = .complete
        let rebuilt = try SiteFixtures.build(later, now: Self.now)
        #expect(rebuilt["in-progress/page/2/index.html"] == list[1])
        #expect(rebuilt["in-progress/index.html"] != list[0])
        #expect(rebuilt["in-progress/page/3/index.html"] != list[2])
        #expect(try Self.cards(#require(rebuilt["in-progress/page/3/index.html"])) == (24...29).map { "story-\($0)" })
        let tag = try #require(pages["tags/space/index.html"])
        #expect(tag.contains("31 stories"))
        #expect(pages["tags/space/page/2/index.html"] != nil, "tag pages paginate")
    }

    /// Up to 12 stories in progress, the home page shows them all and there is no list.
    @Test func aFewStoriesInProgressAreAllOnTheHomePage() throws {
        var content = try Self.fixture()
        for n in 1...11 { content.projects.append(try Self.copy(of: content, as: "story-\(n)")) }
        let pages = try SiteFixtures.build(content, now: Self.now)
        #expect(Self.cards(try #require(pages["index.html"])).count == 12)
        #expect(!(try #require(pages["index.html"])).contains("in-progress/"))
        #expect(!pages.keys.contains { $0.hasPrefix("in-progress/") })
    }

    /// A tag's page lists its stories in progress in their own explore order, not the home
    /// page's order cut to the tag, then its completed stories: a story of another tag that
    /// completes or leaves the listings leaves the tag's pages as they were, where the home
    /// page's mix of trending and discovery places moved for every story after it.
    @Test func aTagListsItsStoriesInTheirOwnExploreOrder() throws {
        var content = try Self.fixture()
        // Discovery prefers the newest of equally few people, trending goes by the slugs' hashes
        // here (the copies' activity is the same): the two lists differ, so the mix matters.
        for n in 1...24 {
            var copy = try Self.copy(of: content, as: "story-\(n)")
            copy.tags = n % 3 == 0 ? ["sea"] : ["space"]
            copy.created = try #require(Timestamp(iso8601: "2026-01-0\(n * 5 % 9 + 1)T\(10 + n % 12):00:00Z"))
            // One sea story is complete: it comes after those in progress.
            if n == 24 { copy.status = .complete }
            content.projects.append(copy)
        }
        let pages = try SiteFixtures.build(content, now: Self.now)
        let sea = content.projects.filter { $0.tags == ["sea"] && $0.status != .complete }
        let karma = Standing(content: content).counts.mapValues(\.karma)
        let alone = Explore.order(sea, users: content.users, karma: karma, now: Self.now).map(\.slug.rawValue)
        #expect(Self.cards(try #require(pages["tags/sea/index.html"])) == alone + ["story-24"])
        // Space stories that leave the listings, or complete.
        for n in [1, 2, 4, 5, 7] {
            var without = content
            if n.isMultiple(of: 2) {
                without.projects.removeAll { $0.slug.rawValue == "story-\(n)" }
            } else {
                let p = try #require(without.projects.firstIndex { $0.slug.rawValue == "story-\(n)" })
                without.projects[p].status = .complete
            }
            let rebuilt = try SiteFixtures.build(without, now: Self.now)
            #expect(rebuilt["tags/sea/index.html"] == pages["tags/sea/index.html"], "story-\(n) (space) left the sea page as it was")
            #expect(rebuilt["index.html"] != pages["index.html"])
        }
    }

    /// 150 more players than the fixture's three, each with a profile file of their own.
    static func manyPlayers(_ content: Content) throws -> Content {
        var content = content
        for n in 1...150 {
            let handle = try #require(Handle("p" + String(1000 + n).dropFirst()))
            content.users[handle] = User(
                handle: handle, name: "Player \(n)", joined: try #require(Timestamp(iso8601: "2025-06-01T00:00:00Z")),
                origin: Origin(path: "users/\(handle).md"))
        }
        return content
    }

    /// The players' list is 100 players a page, by handle: `users/`, then `users/page-2.html`
    /// (a file, where `users/page/2/` would be the folder of a player named `page`).
    @Test func thePlayersListIsPaginatedByHandle() throws {
        let pages = try SiteFixtures.build(try Self.manyPlayers(try Self.fixture()), now: Self.now)
        let first = try #require(pages["users/index.html"])
        let second = try #require(pages["users/page-2.html"])
        #expect(pages["users/page-3.html"] == nil, "153 players make two pages of 100")
        func players(_ page: String) -> [String] {
            page.components(separatedBy: "<span class=\"handle\">@").dropFirst().map { String($0.prefix { $0 != "<" }) }
        }
        #expect(players(first).count == 100 && players(second).count == 53)
        #expect(players(first).prefix(4) == ["ann", "bo", "cy", "p001"])
        #expect(players(second).first == "p098" && players(second).last == "p150")
        #expect(first.contains("153 players") && second.contains("153 players"))
        #expect(first.contains("href=\"../users/page-2.html\" rel=\"next\">Next →</a>"))
        #expect(second.contains("href=\"../users/index.html\" rel=\"prev\">← Previous</a>"))
        #expect(second.contains("Page 2 of 2") && second.contains("<title>Players, page 2"))
        #expect(try #require(pages["sitemap.xml"]).contains("/users/page-2.html</loc>"))
    }

    /// A theme whose players' list shows no pagination (copied before the list had pages) is
    /// warned about once the list has a second page, which nothing would then link to.
    @Test func aThemeWithoutThePlayersPaginationIsWarnedAbout() throws {
        let many = try Self.manyPlayers(try Self.fixture())
        #expect(SiteBuilder(content: many, theme: try Theme.builtIn(), now: Self.now).warnings.isEmpty)
        var files = DefaultTheme.files.map { ($0.path, Array($0.contents.utf8)) }
        let users = try #require(files.firstIndex { $0.0 == "users.mustache" })
        let text = String(decoding: files[users].1, as: UTF8.self)
        #expect(text.contains("{{> pagination}}\n"))
        files[users].1 = Array(text.replacingOccurrences(of: "{{> pagination}}\n", with: "").utf8)
        let copied = try Theme(files: files, folder: "Templates")
        let warnings = SiteBuilder(content: many, theme: copied, now: Self.now).warnings
        #expect(warnings.count == 1)
        let line = try #require(warnings.first).description
        #expect(line.hasPrefix("Templates/users.mustache"), "\(line)")
        #expect(line.contains("warning: the players' list is 100 a page"), "\(line)")
        // With 100 players or fewer the list is one page: nothing to warn about.
        #expect(SiteBuilder(content: try Self.fixture(), theme: copied, now: Self.now).warnings.isEmpty)
        // The word in a comment or in text is no pagination; the value shown inline is.
        files[users].1 = Array(text.replacingOccurrences(of: "{{> pagination}}\n", with: "{{! no pagination here }}pagination\n").utf8)
        #expect(SiteBuilder(content: many, theme: try Theme(files: files, folder: "Templates"), now: Self.now).warnings.count == 1)
        files[users].1 = Array(
            text.replacingOccurrences(of: "{{> pagination}}\n", with: "{{#pagination}}<a href=\"{{root}}{{nextURL}}\">more</a>{{/pagination}}\n").utf8)
        #expect(SiteBuilder(content: many, theme: try Theme(files: files, folder: "Templates"), now: Self.now).warnings.isEmpty)
    }

    /// A theme copied before the home page linked to the full list of stories in progress
    /// (its `index.mustache` paginated the home page instead) is warned about once there are
    /// more stories in progress than the home page shows.
    @Test func aThemeWithoutTheLinkToEveryStoryInProgressIsWarnedAbout() throws {
        var content = try Self.fixture()
        for n in 1...12 { content.projects.append(try Self.copy(of: content, as: "story-\(n)")) }
        #expect(SiteBuilder(content: content, theme: try Theme.builtIn(), now: Self.now).warnings.isEmpty)
        var files = DefaultTheme.files.map { ($0.path, Array($0.contents.utf8)) }
        let index = try #require(files.firstIndex { $0.0 == "index.mustache" })
        let text = String(decoding: files[index].1, as: UTF8.self)
        let start = try #require(text.range(of: "{{#hasMoreInProgress}}"))
        let end = try #require(text.range(of: "{{/hasMoreInProgress}}"))
        files[index].1 = Array(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "{{> pagination}}").utf8)
        let copied = try Theme(files: files, folder: "Templates")
        let warnings = SiteBuilder(content: content, theme: copied, now: Self.now).warnings
        #expect(warnings.count == 1)
        let line = try #require(warnings.first).description
        #expect(line.hasPrefix("Templates/index.mustache:1:1: warning: the home page shows the first 12 stories"), "\(line)")
        // It builds, with the first 12 on the home page and no link to the rest.
        let built = try SiteBuilder(content: content, theme: copied, now: Self.now).build()
        let pages = Dictionary(uniqueKeysWithValues: built.map { ($0.path, String(decoding: $0.contents, as: UTF8.self)) })
        #expect(Self.cards(try #require(pages["index.html"])).count == 12)
        #expect(pages["in-progress/page/2/index.html"] != nil)
        // With 12 stories in progress or fewer the home page shows them all: a draft, an
        // unlisted story and a completed one are not among them.
        content.projects.removeLast()
        content.projects += [
            try Self.copy(of: content, as: "draft", visibility: .draft), try Self.copy(of: content, as: "unlisted", visibility: .unlisted),
        ]
        var done = try Self.copy(of: content, as: "done")
        done.status = .complete
        content.projects.append(done)
        #expect(SiteBuilder(content: content, theme: copied, now: Self.now).warnings.isEmpty)
        content.projects.append(try Self.copy(of: content, as: "one-more"))
        #expect(SiteBuilder(content: content, theme: copied, now: Self.now).warnings.count == 1)
    }

    /// A card's excerpt is the first paragraph of the rendered HTML, found by its bytes: one
    /// that starts with a combining mark is found too (a search by `Character` saw `>` and the
    /// mark as one and skipped it).
    @Test func aCardsExcerptIsTheFirstParagraph() {
        #expect(ProjectPages.firstParagraph(of: "<h2>T</h2>\n<p>First <em>one</em>.</p>\n<p>Second</p>") == "<p>First <em>one</em>.</p>")
        #expect(ProjectPages.firstParagraph(of: "<p>\u{301}é, 🎉</p>") == "<p>\u{301}é, 🎉</p>")
        #expect(ProjectPages.firstParagraph(of: "<blockquote>\n<p>Quoted</p>\n</blockquote>") == "<p>Quoted</p>")
        #expect(ProjectPages.firstParagraph(of: "<p>unclosed") == "")
        #expect(ProjectPages.firstParagraph(of: "<ul><li>no paragraph</li></ul>") == "")
        #expect(ProjectPages.firstParagraph(of: "") == "")
        #expect(UserPages.isBlank(" \n\t\u{A0}\u{200B}\u{3000}") && !UserPages.isBlank(" a "), "a bio of white space only")
    }

    @Test func tagKeysAreStableAndSafe() {
        #expect(TagPages.key("Science Fiction") == "science-fiction")
        #expect(TagPages.key("sci-fi!") == "sci-fi")
        #expect(TagPages.key("Sci-Fi") == TagPages.key("sci fi"), "case and punctuation share a page")
        #expect(TagPages.key("café") != TagPages.key("caf"), "non-ASCII tags get a hash")
        #expect(TagPages.key("日本").hasPrefix("tag-"))
        #expect(TagPages.key("../../etc") == "etc")
        for tag in ["日本", "café", "a/b", "..", "<script>"] {
            let key = TagPages.key(tag)
            #expect(key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }, "\(tag) → \(key)")
        }
    }

    @Test func imagesPointAtTheirCopiesFromEveryPage() throws {
        var content = try Self.fixture()
        var project = try #require(content.project(Slug("moon")!))
        project.rounds[0].submissions = project.rounds[0].submissions.map { s in
            var s = s
            s.body += "\n\n![A map](map.png) ![Gone](missing.png) ![Far](https://evil.example/x.png)"
            return s
        }
        content.projects = [project]
        content.media = ["projects/moon/rounds/0001/submissions/map.png", "projects/elsewhere/x.png"]
        let pages = try SiteFixtures.build(content, now: Self.now)
        let round = try #require(pages["projects/moon/rounds/0001.html"])
        #expect(round.contains("<img src=\"../../../projects/moon/rounds/0001/submissions/map.png\" alt=\"A map\""))
        #expect(!round.contains("missing.png"), "a missing image leaves its alt text")
        #expect(round.contains("Gone"))
        #expect(round.contains("<a href=\"https://evil.example/x.png\">Far</a>"), "an image on another host becomes a link")
        #expect(!round.contains("<img src=\"https://"))
        let story = try #require(pages["projects/moon/index.html"])
        #expect(story.contains("<img src=\"../../projects/moon/rounds/0001/submissions/map.png\""))
        let feed = try #require(pages["projects/moon/feed.xml"])
        #expect(feed.contains("https://example.org/projects/moon/rounds/0001/submissions/map.png"), "feeds use absolute addresses")
        let builder = SiteBuilder(content: content, theme: try Theme.builtIn(), now: Self.now)
        #expect(builder.mediaToCopy == ["projects/moon/rounds/0001/submissions/map.png"], "only images of built projects")
    }

    @Test func imagePathsResolveInsideTheContentOnly() {
        #expect(Media.resolve("../map.png", in: "projects/moon/rounds/0001/submissions") == "projects/moon/rounds/0001/map.png")
        #expect(Media.resolve("./a/b.png", in: "users") == "users/a/b.png")
        #expect(Media.resolve("../../../../../etc/passwd", in: "projects/moon") == nil)
        let media = Media(files: ["users/ann.png"])
        #expect(media.image("/etc/x.png", folder: "users", root: "../") == .text)
        #expect(media.image("file:ann.png", folder: "users", root: "../") == .text)
        #expect(media.image("ann.png?v=2", folder: "users", root: "../") == .source("../users/ann.png"))
    }

    @Test func profilesShowKarmaBadgesSnippetsAndFollows() throws {
        var content = try Self.fixture()
        let ann = try #require(content.users[Handle("ann")!])
        var bo = try #require(content.users[Handle("bo")!])
        bo.follows = User.Follows(projects: [Slug("moon")!], users: [ann.handle])
        bo.links = [User.Link(title: "Site", url: "https://bo.example"), User.Link(title: "Bad", url: "javascript:alert(1)")]
        bo.avatar = "bo.png"
        content.users[bo.handle] = bo
        content.media = ["users/bo.png"]
        let pages = try SiteFixtures.build(content, now: Self.now)
        let profile = try #require(pages["users/bo/index.html"])
        #expect(profile.contains("<img class=\"avatar\" src=\"../../users/bo.png\""))
        #expect(profile.contains("<a href=\"https://bo.example\" rel=\"nofollow ugc\">Site</a>"))
        #expect(!profile.contains("href=\"javascript:"), "an unsafe link is shown as text")
        #expect(profile.contains("Favorite stories") && profile.contains("href=\"../../projects/moon/index.html\""))
        #expect(profile.contains("Follows"))
        #expect(profile.contains("Karma: "))
        #expect(profile.contains("Moon, round 1</a> · <span class=\"label\">won</span>"), "bo won round 1")
        let annPage = try #require(pages["users/ann/index.html"])
        #expect(annPage.contains("Followed by") && annPage.contains("href=\"../../users/bo/index.html\""))
        #expect(annPage.contains("<span class=\"avatar initials\""), "no image: initials")
        let players = try #require(pages["users/index.html"])
        #expect(players.contains("3 players"))
    }

    @Test func leaderboardRanksShareTies() {
        #expect(LeaderboardPages.ranks([9, 5, 5, 1]) == [1, 2, 2, 4])
        #expect(LeaderboardPages.ranks([]) == [])
    }

    @Test func theCalendarShowsDeadlinesOnAMondayFirstGrid() throws {
        let content = try Self.fixture()
        let pages = try SiteFixtures.build(content, now: Self.now)
        let calendar = try #require(pages["calendar/index.html"])
        #expect(calendar.contains("January 2026"))
        // 1 January 2026 is a Thursday: three blank days first.
        #expect(calendar.contains("<tr><td></td><td></td><td></td><td>1</td>"))
        #expect(calendar.contains("<a href=\"#d-2026-01-16\""), "round 2 of moon closes on the 16th")
        #expect(calendar.contains("<dt id=\"d-2026-01-16\">"))
        #expect(calendar.contains("class=\"today\">12<"))
    }

    @Test func calendarLinesAreEscapedAndFolded() {
        // What one of ICalendar's byte writers appends, as a string.
        func written(_ write: (inout [UInt8]) -> Void) -> String {
            var out: [UInt8] = []
            write(&out)
            return String(decoding: out, as: UTF8.self)
        }
        func text(_ value: String) -> String { written { ICalendar.append(text: value, to: &$0) } }
        // A content line folded, without its closing CRLF.
        func fold(_ line: String) -> String {
            let folded = written { ICalendar.appendFolded(Array(line.utf8), to: &$0) }
            #expect(folded.hasSuffix("\r\n"))
            return String(folded.utf8.dropLast(2)) ?? ""
        }
        #expect(text("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(text("x\r\ny") == "x\\ny", "CR is dropped, LF escaped")
        // Text with nothing to escape, however it is spelt, is taken as it is; one byte to escape or drop anywhere is not.
        #expect(text("Round 3 of Été: “Moon” closes") == "Round 3 of Été: “Moon” closes")
        for (plain, mark) in [("a", "\u{7F}"), ("a", "\t"), ("été", ","), ("x", ";"), ("x", "\\")] {
            #expect(text(plain + mark) != plain + mark, "\(mark.debugDescription)")
        }
        // Byte by byte: multi-byte characters pass whole.
        #expect(text("é;🐙\u{1}") == "é\\;🐙")
        // A URI keeps all but spaces and control characters.
        #expect(written { ICalendar.append(uri: "https://x.org/é t\u{7F}\n🐙/", to: &$0) } == "https://x.org/ét🐙/")
        #expect(
            written { ICalendar.append(time: Timestamp(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5), to: &$0) }
                == "20260102T030405Z")
        #expect(
            written { ICalendar.append(time: Timestamp(year: 2026, month: 11, day: 22, hour: 23, minute: 59, second: 58), to: &$0) }
                == "20261122T235958Z")
        let long = "SUMMARY:" + String(repeating: "é", count: 60)
        let folded = fold(long)
        for line in folded.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75)
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil, "no split UTF-8 sequence")
        }
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == long)
        // Folding on bytes gives what folding scalar by scalar does, at every width of UTF-8.
        func byScalars(_ line: String) -> String {
            var out = "", count = 0
            for scalar in line.unicodeScalars {
                let size = String(scalar).utf8.count
                if count + size > 75 { (out, count) = (out + "\r\n ", 1) }
                out.unicodeScalars.append(scalar)
                count += size
            }
            return out
        }
        for line in ["short", String(repeating: "a€é🐙", count: 40), "DESCRIPTION:" + String(repeating: "x", count: 74), ""] {
            #expect(fold(line) == byScalars(line), "\(line)")
        }
        #expect(ICalendar.host(of: "https://stories.example.org:8080/x/") == "stories.example.org")
    }

    @Test func feedsAndCardsAreWellFormedXML() throws {
        let content = try Self.fixture()
        let pages = try SiteFixtures.build(content, now: Self.now)
        for (path, text) in pages where path.hasSuffix(".xml") || path.hasSuffix(".svg") {
            #expect(throws: Never.self, "\(path)") { _ = try XMLDocument(data: Data(text.utf8)) }
        }
        let bo = try #require(pages["users/bo/feed.xml"])
        #expect(bo.contains("<title>Bo wrote a snippet for round 1 of Moon</title>"))
        #expect(bo.contains("<title>Round 1 of Moon: Bo won</title>"))
        let card = try #require(pages["users/bo/card.svg"])
        #expect(card.contains("role=\"img\"") && card.contains("karma"))
    }

    /// The index is written as `JSONEncoder` writes it (sorted keys, slashes as they are), byte
    /// for byte, whatever the text holds: every ASCII byte, quotes, backslashes, line and
    /// paragraph separators, a byte-order mark, emoji, empty lists and strings.
    @Test func theSearchIndexIsTheJSONTheEncoderWrites() throws {
        var everyByte = ""
        for byte in 0..<0x80 { everyByte.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        let entries = [
            SearchIndex.Entry(
                kind: "Story in progress", title: "A \"quoted\" \\ title/with/slashes", url: "projects/moon/",
                tags: ["été", "a b"], authors: ["Ann", "@bo"], text: everyByte + "é\u{2028}\u{2029}😀\u{FEFF}\u{85}"),
            SearchIndex.Entry(kind: "Player", title: "", url: "users/x/", tags: [], authors: [], text: ""),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for list in [entries, [], Array(entries.prefix(1))] {
            #expect(SearchIndex.json(list) == Array(try encoder.encode(list)))
        }
    }

    /// A rebuild copies entries from the previous index by where `entryRanges` finds them:
    /// each range is one entry's JSON, whatever braces, brackets, quotes or backslashes its
    /// strings hold, and what `json` didn't write is no index.
    @Test func theSearchIndexsEntriesAreFoundWhereTheyAre() throws {
        let entries = [
            SearchIndex.Entry(
                kind: "Story in progress", title: "{\"a\": [1, 2]} \\\" ]", url: "projects/moon/index.html",
                tags: ["{", "]"], authors: ["Ann \\", "@bo"], text: "},{ \u{1} [[\\\\\""),
            SearchIndex.Entry(kind: "Player", title: "", url: "users/x/", tags: [], authors: [], text: ""),
            SearchIndex.Entry(kind: "Player", title: "é😀", url: "users/y/", tags: [], authors: ["@y"], text: "\\"),
        ]
        for count in 0...entries.count {
            let list = Array(entries.prefix(count))
            let bytes = SearchIndex.json(list)
            let ranges = try #require(SearchIndex.entryRanges(bytes))
            #expect(ranges.map { Array(bytes[$0]) } == list.map { entry in
                var one: [UInt8] = []
                SearchIndex.json(entry, into: &one)
                return one
            })
        }
        let whole = SearchIndex.json(entries)
        for bad in [
            [], Array("[".utf8), Array("{}".utf8), Array(whole.dropLast()), Array(whole.dropFirst()), whole + Array(" ".utf8),
            Array(whole.prefix(whole.count / 2)) + Array("]".utf8), Array("[{},]".utf8), Array("[{}{}]".utf8),
            Array("[{\"a\":\"\\\"}]".utf8), Array("[{\"a\":[}]".utf8), Array("[1]".utf8),
        ] {
            #expect(SearchIndex.entryRanges(bad) == nil, "\(String(decoding: bad, as: UTF8.self))")
        }
    }

    @Test func theSearchIndexHasStoriesAndPlayersInPlainText() throws {
        let content = try Self.fixture()
        let pages = try SiteFixtures.build(content, now: Self.now)
        let json = try #require(pages["search.json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(entries.contains { $0["title"] as? String == "Moon" && $0["url"] as? String == "projects/moon/index.html" })
        #expect(entries.contains { $0["kind"] as? String == "Player" })
        #expect(SearchIndex.plain("<p>a &amp; <em>b</em></p>\n<p>c</p>") == "a & b c")
        let long = "<p>" + String(repeating: "word ", count: 500) + "</p>"
        #expect(SearchIndex.plain(long).count <= SearchIndex.textLimit + 1)
    }

    /// Chapters read one after another give the text of the chapters joined by spaces, even
    /// where a tag or an entity spans two of them, and those past the limit are never rendered.
    @Test func searchTextOfChaptersIsTheTextOfTheirJoin() {
        let pieces = [
            "<p>Ann &amp; Bob</p>\n", "<em>é", "</em> &qu", "ot;done&quot;", "", "<p>", "x</p>", "日本語 ",
            "<p>\(String(repeating: "long word ", count: 40))</p>", "&#39;", "<a href=\"u\">link</a>",
        ]
        var seed: UInt64 = 7
        for _ in 0..<300 {
            var chapters: [String] = []
            for _ in 0..<Int(seed % 9) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                chapters.append(pieces[Int(seed >> 33) % pieces.count])
            }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            #expect(SearchIndex.plain(chapters: chapters) == SearchIndex.plain(chapters.joined(separator: " ")))
        }
        var rendered = 0
        let story = (0..<100).lazy.map { _ in
            rendered += 1
            return "<p>\(String(repeating: "word ", count: 100))</p>"
        }
        #expect(SearchIndex.plain(chapters: story).hasSuffix("…"))
        #expect(rendered == 2)
    }

    @Test func aLaterMomentChangesOnlyThePagesThatShowIt() throws {
        var content = try Self.fixture()
        var done = try Self.copy(of: content, as: "done", title: "Done Story")
        done.rounds.removeAll { $0.isOpen }
        done.roundLimit = done.rounds.count
        content.projects.append(done)
        let earlier = try SiteFixtures.build(content, now: Self.now)
        let later = try SiteFixtures.build(content, now: Timestamp(secondsSinceEpoch: Self.now.secondsSinceEpoch + 3 * 3600))
        #expect(earlier.keys.sorted() == later.keys.sorted())
        let changed = Set(earlier.keys.filter { earlier[$0] != later[$0] })
        // The front page and the calendar say when; the open round's page shows how much of it
        // has passed (51 % three hours later, not 50 %).
        #expect(changed == ["index.html", "projects/moon/index.html", "calendar/index.html"])
        for path in ["index.html", "calendar/index.html"] {
            #expect(try #require(later[path]).contains("updated <time datetime=\"2026-01-12T15:00:00Z\">"), "\(path) says when")
        }
        for path in ["projects/moon/index.html", "projects/moon/rounds/0001.html", "users/ann/index.html"] {
            #expect(!(try #require(later[path])).contains("updated <time"), "\(path) doesn't say when the site was built")
        }
        #expect(try #require(later["projects/moon/index.html"]).contains("51% of the round has passed"))
        #expect(try #require(later["projects/done/index.html"]) == earlier["projects/done/index.html"])
    }

    @Test func activityChartCountsWeeks() {
        let now = Timestamp(iso8601: "2026-01-12T12:00:00Z")!
        let chart = ActivityChart(
            submissions: [now, Timestamp(secondsSinceEpoch: now.secondsSinceEpoch - 8 * 86_400)],
            ballots: [now, now], until: now, weeks: 4, id: "a")
        // 2026-01-12 is a Monday; eight days before it is the Sunday ending the week before last.
        #expect(chart.buckets(chart.submissions) == [0, 1, 0, 1])
        #expect(chart.buckets(chart.ballots) == [0, 0, 0, 2])
        #expect(chart.svg.contains("2 snippets and 2 ballots in the last 4 weeks"))
    }

    /// What a story's page takes from the moment for its chart (`ActivityChart.thisWeek`, in
    /// `ProjectPages.inputs`) is the chart's last week, and with the week it fixes the chart: on
    /// the demo game, a second either side of every snippet and ballot of some stories.
    @Test func theWeekSoFarIsAllTheChartTakesFromTheMoment() throws {
        let content = try SiteFixtures.load(SiteFixtures.repository.appendingPathComponent("Content").path)
        for project in content.projects.prefix(4) {
            let times = project.rounds.flatMap { $0.submissions.map(\.submitted) + $0.ballots.map(\.cast) }
            var seen: [String: String] = [:]
            for time in times {
                for offset in [-1, 0, 1] as [Int64] {
                    let until = Timestamp(secondsSinceEpoch: time.secondsSinceEpoch + offset)
                    let chart = ActivityChart.of([project], until: until, id: "a")
                    let thisWeek = ActivityChart.thisWeek(of: project, until: until)
                    #expect(chart.buckets(chart.submissions).last == thisWeek.snippets)
                    #expect(chart.buckets(chart.ballots).last == thisWeek.ballots)
                    let key = "\(ActivityChart.weekStart(until)) \(thisWeek.snippets) \(thisWeek.ballots)"
                    #expect(seen[key, default: chart.svg] == chart.svg, "\(project.slug) at \(until)")
                    seen[key] = chart.svg
                }
            }
        }
    }

    @Test func activityChartWeeksAreCalendarWeeksSoItChangesOnlyWithTheWeek() throws {
        let sunday = try #require(Timestamp(iso8601: "2026-01-11T23:59:59Z"))
        let monday = try #require(Timestamp(iso8601: "2026-01-12T00:00:00Z"))
        let mondayBefore = try #require(Timestamp(iso8601: "2026-01-05T00:00:00Z"))
        #expect(ActivityChart.weekStart(sunday) == mondayBefore.secondsSinceEpoch)
        #expect(ActivityChart.weekStart(monday) == monday.secondsSinceEpoch)
        // 1969-12-29 was a Monday: times before the epoch round down too.
        #expect(ActivityChart.weekStart(Timestamp(secondsSinceEpoch: -1)) == -3 * 86_400)
        func chart(until: String) throws -> ActivityChart {
            ActivityChart(submissions: [sunday, monday], ballots: [monday], until: try #require(Timestamp(iso8601: until)), weeks: 3, id: "a")
        }
        let wednesday = try chart(until: "2026-01-14T09:00:00Z"), lateSunday = try chart(until: "2026-01-18T23:59:59Z")
        #expect(wednesday.buckets(wednesday.submissions) == [0, 1, 1])
        #expect(wednesday.svg == lateSunday.svg)
        #expect(wednesday.svg.contains("Week from 12 Jan 2026: 1 snippet"))
        let nextMonday = try chart(until: "2026-01-19T00:00:00Z")
        #expect(nextMonday.buckets(nextMonday.submissions) == [1, 1, 0])
        #expect(nextMonday.svg != wednesday.svg)
    }
}
