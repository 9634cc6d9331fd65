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

    /// Pages and paths a fixture build must have, whatever the golden files say.
    @Test func everyKindOfPageIsBuilt() throws {
        let content = try SiteFixtures.load(SiteFixtures.root.appendingPathComponent("check/valid/Content").path)
        let pages = try SiteFixtures.build(content, now: Self.now)
        for path in [
            "index.html", "projects/moon/index.html", "projects/moon/rounds/0001/index.html", "404.html", "sitemap.xml",
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
        let page = try #require(pages["projects/moon/rounds/0001/index.html"])
        let winner = try #require(page.range(of: "<p>Text by bo.</p>"))
        let alternate = try #require(page.range(of: "<p>Text by cy.</p>"))
        #expect(winner.lowerBound < alternate.lowerBound, "the winner comes first, then the alternate takes")
        #expect(page.contains("Counted plainly (plain-1)"))
        #expect(page.contains("<td class=\"number\">1.5</td>"))
        #expect(page.contains("href=\"../../../../projects/moon/index.html\""), "links back to the project")
        #expect(
            try #require(pages["projects/moon/index.html"]).contains("href=\"../../projects/moon/rounds/0001/index.html\""))
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
                  <url><loc>https://example.org/projects/moon/rounds/0001/</loc></url>
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
