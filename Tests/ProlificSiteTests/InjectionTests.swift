import Foundation
import ProlificCore
import ProlificStore
import Testing
import ZIPFoundation
@testable import ProlificSite

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A site built from hostile text in every field players and maintainers write, with every output
/// file read back the way its consumer reads it: pages through an HTML5 tokenizer, feeds, the
/// sitemap and badge cards through an XML parser (feed HTML through the tokenizer again), the
/// calendar line by line as RFC 5545 says, the search index through JSONSerialization.
///
/// The checks look for what would run or load in a reader's browser — a script element, an
/// event-handler attribute, a `javascript:`/`vbscript:`/`data:` URL, a frame or object, an image
/// from another host — and for text that broke a file's structure. Each payload must also still
/// be readable where it was written, so the test proves escaping, not dropping.
///
/// libxml2's HTML parser is not used: FoundationXML on Linux parses `.documentTidyHTML` as XML
/// (an HTML5 page yields an empty document), and libxml2 recovers from bad markup differently
/// from browsers anyway. `HTMLScan` follows the WHATWG tokenizer instead.
@Suite struct InjectionTests {
    /// One build per payload, the payload in every field at once.
    @Test(arguments: InjectionCorpus.payloads)
    func aPayloadInEveryFieldReachesNoFileAsMarkup(_ payload: Payload) throws {
        let content = HostileSite.content { _, _ in payload.text }
        let files = try HostileSite.build(content)
        let problems = SiteCheck.problems(in: files, content: content)
        SiteCheck.expectNone(problems)
        for problem in HostileSite.missingText(payload.text, in: files) { Issue.record(Comment(rawValue: problem)) }
    }

    /// Every payload at once, each in two or three fields, neighbouring fields holding different
    /// payloads: one payload can't close what another opened.
    @Test func allPayloadsTogetherReachNoFileAsMarkup() throws {
        let payloads = InjectionCorpus.payloads
        let fields = HostileSite.Field.allCases.count
        let content = HostileSite.content(copies: (2 * payloads.count + fields - 1) / fields) { copy, field in
            payloads[(copy * fields + field.rawValue) % payloads.count].text
        }
        let files = try HostileSite.build(content)
        let problems = SiteCheck.problems(in: files, content: content)
        SiteCheck.expectNone(problems)
        let pages = Dictionary(uniqueKeysWithValues: files.map { ($0.path, String(decoding: $0.contents, as: UTF8.self)) })
        for user in content.sortedUsers {
            let page = HTMLScan(pages[SitePath.user(user.handle)] ?? "")
            #expect(page.text(inside: "h1") == HTMLScan.normalizedNewlines(user.name), "\(user.handle)'s name is shown")
        }
    }

    /// The search page's script renders results with `textContent`: the index holds players' text
    /// as data, and no API that parses a string as markup or code may touch it.
    @Test func theSearchScriptNeverTurnsTextIntoMarkup() throws {
        let files = try HostileSite.build(HostileSite.content { _, _ in "x" })
        let script = try #require(files.first { $0.path == "search.js" })
        #expect(ScriptCheck.problems(in: String(decoding: script.contents, as: UTF8.self)) == [])
    }
}

// MARK: - The checkers checked

/// Each checker flags what it must and passes what it must: a checker that can't fail proves
/// nothing.
@Suite struct InjectionCheckerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let html: String
        /// A word the problem must mention; nil when the snippet is harmless.
        let flag: String?
        var testDescription: String { html.debugDescription }
    }

    static let htmlCases: [Case] = [
        Case(html: "<p>&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;</p>", flag: nil),
        Case(html: "<!-- <script>alert(1)</script> --><p>x</p>", flag: nil),
        Case(html: "<a href=\"https://ok.example/a?b=1&amp;c=2\" rel=\"nofollow ugc\">x</a>", flag: nil),
        Case(html: "<img src=\"../../users/bo.png\" alt=\"alt&quot; onerror=&quot;alert(1)\">", flag: nil),
        Case(html: "<p title=\"javascript:alert(1)\">not a URL attribute</p>", flag: nil),
        Case(html: "<svg viewBox=\"0 0 1 1\"><title>&lt;/text&gt;&lt;script&gt;</title><rect x=\"1\"/></svg>", flag: nil),
        Case(html: "<span class=\"avatar initials\" style=\"--hue: 12\">AB</span>", flag: nil),
        Case(html: "<script>alert(1)</script>", flag: "element <script>"),
        Case(html: "<ScRiPt src=\"../search.js\"></ScRiPt>", flag: "element <script>"),
        Case(html: "<img src=x onerror=alert(1)>", flag: "event-handler attribute 'onerror'"),
        Case(html: "<p title=\"x\"\u{301} onmouseover=alert(1) y=\"\">x</p>", flag: "event-handler attribute 'onmouseover'"),
        Case(html: "<p/onclick=alert(1)>x</p>", flag: "event-handler attribute 'onclick'"),
        Case(html: "<a href=\"javascript:alert(1)\">x</a>", flag: "javascript: URL in 'href'"),
        Case(html: "<a href=\" \u{1}JaVa&#x09;Script&colon;alert(1)\">x</a>", flag: "javascript: URL"),
        Case(html: "<a href=\"&#106;avascript:alert(1)\">x</a>", flag: "javascript: URL"),
        Case(html: "<a href=&#0000106&#0000097vascript:alert(1)>x</a>", flag: "javascript: URL"),
        Case(html: "<a href=\"java\nscript:alert(1)\">x</a>", flag: "javascript: URL"),
        Case(html: "<a href=\"vbscript:msgbox(1)\">x</a>", flag: "vbscript: URL"),
        Case(html: "<a href=\"data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;\">x</a>", flag: "data: URL"),
        Case(html: "<form action=\"javascript:alert(1)\"></form>", flag: "javascript: URL in 'action'"),
        Case(html: "<button formaction=\"javascript:alert(1)\">x</button>", flag: "javascript: URL in 'formaction'"),
        Case(html: "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>", flag: "javascript: URL in 'xlink:href'"),
        Case(html: "<iframe src=\"https://ok.example/\"></iframe>", flag: "element <iframe>"),
        Case(html: "<object data=\"x.swf\"></object>", flag: "element <object>"),
        Case(html: "<embed src=\"x.swf\">", flag: "element <embed>"),
        Case(html: "<base href=\"https://evil.example/\">", flag: "element <base>"),
        Case(html: "<style>body{}</style>", flag: "element <style>"),
        Case(html: "<img src=\"https://evil.example/x.png\" alt=\"\">", flag: "loads from another host"),
        Case(html: "<img src=\"//evil.example/x.png\" alt=\"\">", flag: "loads from another host"),
        Case(html: "<img src=\"\\/evil.example/x.png\" alt=\"\">", flag: "loads from another host"),
        Case(html: "<svg><foreignObject><p>x</p></foreignObject></svg>", flag: "element <foreignobject>"),
        Case(html: "<svg><p><style>x</style></p></svg>", flag: "element <style>"),
        Case(html: "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">", flag: "unexpected attribute 'http-equiv'"),
        Case(html: "<p style=\"background:url(https://evil.example/x)\">x</p>", flag: "style attribute that loads"),
        Case(html: "<p id=\"a\" id=\"b\">x</p>", flag: "attribute 'id' twice"),
        Case(html: "<p>x</p><!-- never closed", flag: "a comment runs to the end"),
        Case(html: "<p title=\"x>y</p>", flag: "a tag runs to the end of the file"),
    ]

    @Test(arguments: htmlCases)
    func theHTMLCheckerFlagsWhatABrowserWouldRunOrLoad(_ test: Case) {
        let problems = HTMLCheck.problems(in: test.html, as: .fragment)
        if let flag = test.flag {
            #expect(problems.contains { $0.lowercased().contains(flag.lowercased()) }, "\(problems)")
        } else {
            #expect(problems == [])
        }
    }

    @Test func theHTMLCheckerAllowsOnlyTheThemesOwnScriptAndAWholePage() {
        let page = { (body: String) in
            "<!doctype html>\n<html lang=\"en\">\n<head><title>t &lt;script&gt;</title></head>\n<body>\n<main id=\"main\">\(body)</main>\n</body>\n</html>\n"
        }
        let own = "<script src=\"../search.js\" data-index=\"../search.json\" data-root=\"../\"></script>"
        #expect(HTMLCheck.problems(in: page(own), as: .page(script: "../search.js")) == [])
        #expect(HTMLCheck.problems(in: page(own), as: .page(script: nil)) != [], "the script is on another page")
        #expect(
            HTMLCheck.problems(in: page("<script src=\"../search.js\">alert(1)</script>"), as: .page(script: "../search.js")) != [],
            "inline text")
        #expect(HTMLCheck.problems(in: page(own.replacingOccurrences(of: "../search.js", with: "https://evil.example/x.js")), as: .page(script: "../search.js")) != [])
        #expect(HTMLCheck.problems(in: page("<p>x</p>"), as: .page(script: nil)) == [])
        #expect(HTMLCheck.problems(in: page("<title>"), as: .page(script: nil)) != [], "an RCDATA element swallowed the page")
        #expect(HTMLCheck.problems(in: page("<textarea>"), as: .page(script: nil)) != [])
        #expect(HTMLCheck.problems(in: "<p>x</p>", as: .page(script: nil)) != [], "not a whole page")
    }

    struct Mutation: Sendable, CustomTestStringConvertible {
        let template: String
        let from: String
        let to: String
        let payload: String
        /// What the problem found must mention.
        let flag: String
        var testDescription: String { "\(template): \(to)" }
    }

    static let mutations = [
        Mutation(template: "user.mustache", from: "<h1>{{name}}</h1>", to: "<h1>{{{name}}}</h1>", payload: "<script>alert(1)</script>", flag: "element <script>"),
        Mutation(
            template: "user.mustache", from: "{{#isSafe}}<a href=\"{{url}}\" rel=\"nofollow ugc\">{{title}}</a>{{/isSafe}}",
            to: "<a href=\"{{text}}\" rel=\"nofollow ugc\">{{title}}</a>", payload: " JaVa\tScRiPt:alert(1)", flag: "javascript: URL"),
        Mutation(
            template: "base.mustache", from: "<meta name=\"description\" content=\"{{description}}\">",
            to: "<meta name=\"description\" content={{description}}>", payload: "\"><img src=x onerror=alert(1)>", flag: "'onerror'"),
        Mutation(
            template: "project.mustache", from: "<h1>{{title}}</h1>", to: "<h1>{{{title}}}</h1>", payload: "<textarea>", flag: "<textarea> runs to the end of the file"),
    ]

    /// The whole pipeline, build then check, catches a theme that forgets to escape: the corpus
    /// test fails if the site regresses this way.
    @Test(arguments: mutations)
    func aThemeThatForgetsToEscapeIsCaught(_ mutation: Mutation) throws {
        #expect(DefaultTheme.files.contains { $0.path == mutation.template && $0.contents.contains(mutation.from) }, "the mutation applies")
        let files = DefaultTheme.files.map { file in
            let text = file.path == mutation.template ? file.contents.replacingOccurrences(of: mutation.from, with: mutation.to) : file.contents
            return (file.path, Array(text.utf8))
        }
        let content = HostileSite.content { _, _ in mutation.payload }
        let built = try SiteBuilder(content: content, theme: try Theme(files: files, folder: "(mutant)"), now: HostileSite.now).build()
        let problems = SiteCheck.problems(in: built, content: content)
        #expect(problems.contains { $0.contains(mutation.flag) }, "\(problems.prefix(3))")
        let unmutated = SiteCheck.problems(in: try HostileSite.build(content), content: content)
        #expect(unmutated == [], "the built-in theme passes with the same payload")
    }

    @Test func theTokenizerSeesTagsAndTextAsABrowserDoes() {
        let scan = HTMLScan("<P Title='a&amp;b'>x &lt;y&#62; &colon;<b>z</b></p><title><p>q</title><svg><title><i>s</i></title></svg>")
        #expect(scan.startTags.map(\.name) == ["p", "b", "title", "svg", "title", "i"])
        #expect(scan.startTags.first?.attributes.first?.name == "title")
        #expect(scan.startTags.first?.attributes.first?.value == "a&b")
        #expect(scan.text(inside: "p") == "x <y> :z")
        #expect(scan.text(inside: "title") == "<p>q", "RCDATA: tags inside a title are text")
        #expect(HTMLScan("a\r\nb\rc").text == "a\nb\nc")
    }

    @Test func theFeedCheckerReadsTheHTMLInsideEntries() {
        let feed = { (entry: String) in
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>t</title><id>https://example.org/feed.xml</id>
            <link rel="self" type="application/atom+xml" href="https://example.org/feed.xml"/>
            <updated>2026-01-01T00:00:00Z</updated>
            \(entry)</feed>
            """
        }
        let good = "<entry><title>&lt;script&gt;</title><content type=\"html\">&lt;p&gt;&amp;lt;script&amp;gt;&lt;/p&gt;</content></entry>"
        #expect(FeedCheck.problems(in: feed(good), baseURL: "https://example.org/") == [])
        for (bad, flag) in [
            ("<entry><content type=\"html\">&lt;script&gt;alert(1)&lt;/script&gt;</content></entry>", "in <content>: element <script>"),
            ("<entry><content type=\"html\">&lt;img src=x onerror=alert(1)&gt;</content></entry>", "event-handler attribute 'onerror'"),
            ("<entry><content type=\"html\"><![CDATA[<a href=\"javascript:alert(1)\">x</a>]]></content></entry>", "javascript: URL"),
            ("<entry><title type=\"html\">&lt;script&gt;alert(1)&lt;/script&gt;</title></entry>", "in <title>: element <script>"),
            ("<entry><content type=\"text\">x</content></entry>", "whose type isn't html"),
            ("<entry><link href=\"javascript:alert(1)\"/></entry>", "a link outside the site"),
            ("<entry><title>]]></title></entry>", "not well-formed"),
            ("<entry><title><script/></title></entry>", "element <script> in a feed"),
            ("<entry><title>a</title></entry><foo", "not well-formed"),
        ] {
            let problems = FeedCheck.problems(in: feed(bad), baseURL: "https://example.org/")
            #expect(problems.contains { $0.contains(flag) }, "\(bad): \(problems)")
        }
    }

    @Test func theCalendarCheckerFindsInjectedLinesAndBadEscapes() {
        let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//y//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:a\\, b"]
        let event = [
            "BEGIN:VEVENT", "UID:moon-round-0001@example.org", "DTSTAMP:20260101T000000Z", "DTSTART:20260108T000000Z",
            "SUMMARY:Round 1 of x\\;y closes", "DESCRIPTION:Last moment", "URL:https://example.org/projects/moon/", "END:VEVENT",
        ]
        let ics = { (lines: [String]) in lines.joined(separator: "\r\n") + "\r\n" }
        let good = head + event + ["END:VCALENDAR"]
        #expect(ICSCheck.problems(in: ics(good), events: 1, baseURL: "https://example.org/") == [])
        #expect(
            ICSCheck.problems(in: ics(head + [event[0], event[1] + "\r\n x", "DTSTAMP:20260101T000000Z"] + event[3...] + ["END:VCALENDAR"]), events: 1, baseURL: "https://example.org/") == [],
            "a folded line is unfolded")
        let flagged = { (text: String, events: Int, flag: String) in
            ICSCheck.problems(in: text, events: events, baseURL: "https://example.org/").contains { $0.contains(flag) }
        }
        #expect(flagged(ics(good), 2, "1 events for 2 upcoming deadlines"))
        var injected = good
        injected.insert(contentsOf: ["END:VCALENDAR", "BEGIN:VCALENDAR"], at: 8)
        #expect(flagged(ics(injected), 1, "END:VCALENDAR out of place"))
        for (index, line, flag) in [
            (10, "SUMMARY:a;b", "an unescaped ';'"), (10, "SUMMARY:a,b", "an unescaped ','"), (10, "SUMMARY:a\\qb", "an unknown escape"),
            (10, "SUMMARY:a\u{1}", "a control character"), (11, "ATTACH:x", "unknown property"), (10, "SUMMARY;X=1:a", "unknown property or parameters"),
            (12, "URL:javascript:alert(1)", "a URL outside the site"), (7, "UID:x", "an unexpected UID"), (9, "DTSTART:tomorrow", "isn't a UTC time"),
        ] {
            var bad = good
            bad[index] = line
            #expect(flagged(ics(bad), 1, flag), "\(line)")
        }
        #expect(flagged(ics(good).replacingOccurrences(of: "closes", with: "clo\nses"), 1, "a bare CR or LF"))
    }

    @Test func theCardCheckerFindsScriptInSVG() {
        let card = { (inside: String) in
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\" role=\"img\" aria-label=\"x\"><title>&lt;script&gt;</title>\(inside)</svg>"
        }
        #expect(SVGCheck.problems(in: card("<text x=\"1\">a</text>")) == [])
        for (bad, flag) in [
            ("<script>alert(1)</script>", "element <script>"), ("<text onclick=\"alert(1)\">a</text>", "event-handler attribute 'onclick'"),
            ("<foreignObject/>", "element <foreignObject>"), ("<a xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:href=\"javascript:alert(1)\"/>", "'xlink:href' in an SVG to a javascript: URL"),
            ("<a href=\"javascript:alert(1)\"/>", "'href' in an SVG to a javascript: URL"), ("<text>a", "not well-formed"),
            ("<image href=\"https://evil.example/x.png\"/>", "element <image>"),
        ] {
            let problems = SVGCheck.problems(in: card(bad))
            #expect(problems.contains { $0.contains(flag) }, "\(bad): \(problems)")
        }
    }

    @Test func theIndexAndScriptCheckersFlagMarkupSinks() {
        let entry = { (url: String) in "[{\"kind\":\"Player\",\"title\":\"<script>\",\"url\":\"\(url)\",\"tags\":[],\"authors\":[],\"text\":\"\"}]" }
        #expect(SearchIndexCheck.problems(in: entry("users/ann/index.html")) == [])
        #expect(SearchIndexCheck.problems(in: entry("javascript:alert(1)")).contains { $0.contains("isn't a page of the site") })
        #expect(SearchIndexCheck.problems(in: "[{\"title\": \"x\"") == ["not a JSON array of objects"])
        #expect(ScriptCheck.problems(in: "// never innerHTML\nvar a = \"eval(\";\nel.textContent = x;") == [])
        for bad in ["el.innerHTML = x;", "el.outerHTML=x", "el.insertAdjacentHTML('beforeend', x)", "document.write(x)", "eval(x)", "new Function(x)"] {
            #expect(ScriptCheck.problems(in: bad).count == 1, "\(bad)")
        }
    }

    @Test func theBookCheckerLooksInsideEPUBs() throws {
        // Under the books' lock: ZIPFoundation's dates go through `gmtime`, shared with the books
        // other suites zip meanwhile.
        let zipped = try EpubBook.withZipLock {
            let archive = try Archive(data: Data(), accessMode: .create)
            for (path, text) in [
                ("mimetype", "application/epub+zip"),
                ("OEBPS/chapter-0001.xhtml", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p onclick=\"alert(1)\">x</p></body></html>"),
            ] {
                let data = Data(text.utf8)
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count)) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            return archive.data
        }
        let bytes = try #require(zipped)
        #expect(EPUBCheck.problems(in: Array(bytes)).contains { $0.contains("onclick") })
    }
}

// MARK: - The corpus

extension InjectionTests {
    /// A hostile text, named for the test report.
    struct Payload: Sendable, CustomTestStringConvertible {
        let label: String
        let text: String
        var testDescription: String { label }
    }
}

private enum InjectionCorpus {
    typealias Payload = InjectionTests.Payload

    // Two payloads below are regressions of bugs this corpus found: swift-mustache's own escaping
    // compares whole Characters, so a `"` sharing a grapheme cluster (a combining mark, a ZWJ, a
    // prepended mark) was written raw (fixed by `HTMLEscaping`, which works on bytes); and cmark's
    // safe mode keeps `data:image/…` link targets (fixed in `Markdown`, which unwraps them).

    static let payloads: [Payload] = [
        // Markup.
        Payload(label: "script element", text: "<script>alert(1)</script>"),
        Payload(label: "attribute break into img onerror", text: "\"><img src=x onerror=alert(1)>"),
        Payload(label: "single-quote break into svg onload", text: "'><svg onload=alert(1)>"),
        Payload(label: "iframe", text: "<iframe src=\"javascript:alert(1)\"></iframe>"),
        Payload(label: "anchor with javascript href", text: "<a href=\"javascript:alert(1)\">x</a>"),
        Payload(label: "style break", text: "</style><script>alert(1)</script><style>"),
        Payload(label: "textarea and title break", text: "</textarea></title><script>alert(1)</script>"),
        Payload(label: "comment break", text: "--><script>alert(1)</script><!--"),
        Payload(label: "meta refresh and base", text: "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\"><base href=\"javascript:/\">"),
        Payload(label: "svg foreignObject", text: "<svg><foreignObject><iframe src=javascript:alert(1)></iframe></foreignObject></svg>"),
        Payload(label: "svg and math script", text: "<svg><script>alert(1)</script></svg><math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>"),
        Payload(label: "svg text breaker", text: "</text><script>alert(1)</script><text>"),
        // URLs.
        Payload(label: "javascript URL", text: "javascript:alert(1)"),
        Payload(label: "mixed-case javascript URL", text: "JaVaScRiPt:alert(1)"),
        Payload(label: "javascript URL with a tab", text: "java\tscript:alert(1)"),
        Payload(label: "javascript URL with a newline", text: "java\nscript:alert(1)"),
        Payload(label: "entity-encoded javascript URL", text: "&#106;avascript&#x3A;alert(1)"),
        Payload(label: "named-entity javascript URL", text: "javascript&colon;alert&lpar;1&rpar;"),
        Payload(label: "percent-encoded javascript URL", text: "%6Aavascript:alert(1)"),
        Payload(label: "javascript URL after spaces and controls", text: " \u{1}\u{1F} javascript:alert(1)"),
        Payload(label: "data URL with HTML", text: "data:text/html,<script>alert(1)</script>"),
        Payload(label: "data URL in base64", text: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
        Payload(label: "vbscript URL", text: "vbscript:msgbox(1)"),
        Payload(label: "URL with a quote", text: "https://ok.example/\" onmouseover=\"alert(1)"),
        Payload(label: "remote image URL", text: "https://evil.example/x.png"),
        // Markdown.
        Payload(label: "markdown link", text: "[x](javascript:alert(1)) [y](JAVASCRIPT:alert(1)) [z](<java script:alert(1)>)"),
        Payload(label: "markdown link with entities", text: "[x](&#x6A;avascript:alert(1)) [y](javascript&colon;alert(1))"),
        Payload(
            label: "markdown link to a data image", text: "[x](data:image/png;base64,iVBORw0KGgo=) [y](data:image/gif;base64,R0lGOD)"),
        Payload(label: "markdown image", text: "![x](javascript:alert(1)) ![y](data:image/svg+xml,<svg/onload=alert(1)>)"),
        Payload(label: "markdown autolink", text: "<javascript:alert(1)> <vbscript:msgbox(1)> <data:text/html,x>"),
        Payload(label: "markdown reference link", text: "[x][r] and ![i][r]\n\n[r]: javascript:alert(1)"),
        Payload(label: "raw HTML block", text: "<div onmouseover=\"alert(1)\">\n\n*x*\n\n</div>\n\n<script>\nalert(1)\n</script>"),
        Payload(label: "inline HTML", text: "a <span onclick=alert(1)>b</span> <img src=x onerror=alert(1)> <!-- c -->"),
        Payload(label: "image alt breaker", text: "![alt\" onerror=\"alert(1)](x.png) ![a](x.png \"t\\\" onload=\\\"alert(1)\")"),
        Payload(label: "remote images", text: "![x](http://evil.example/x.png) ![y](//evil.example/y.png) ![z](HTTPS://evil.example/z.png)"),
        // Templates and XML.
        Payload(label: "mustache tags", text: "{{{x}}} {{&x}} {{#a}}b{{/a}} {{> base}} {{=<% %>=}} <%x%>"),
        Payload(label: "CDATA breaker", text: "]]><script>alert(1)</script><![CDATA["),
        Payload(label: "XML entities", text: "<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>&xxe; &amp; &#0; &#xD800;"),
        // Calendar and JSON.
        Payload(label: "calendar breaker", text: "x\r\nEND:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:evil;a,b\\n\\"),
        Payload(label: "JSON breaker", text: "\"}]</script><script>alert(1)</script>{\"a\":\"\\u0022"),
        // Unicode.
        Payload(label: "line separators and bidi overrides", text: "a\u{2028}b\u{2029}c \u{202E}evil\u{202C} \u{FEFF}\u{200B}\u{2066}d\u{2069}"),
        Payload(label: "control characters", text: "a\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}[31mb\u{7F}\u{85}\u{9F}c"),
        // Noncharacters can't be written as Swift literals.
        Payload(
            label: "odd code points",
            text: String(String.UnicodeScalarView([0xFFFE, 0xFFFF, 0xFDD0, 0xE000, 0x10FFFF, 0x1F600, 0xE0041].compactMap(Unicode.Scalar.init)))),
        // Far past every one-line limit (`TextRules`), which the site must not rely on.
        Payload(label: "very long", text: String(repeating: "<script>alert(1)</script>\"'&", count: 120)),
        Payload(
            label: "quote with a combining mark", text: "x\"\u{301} onmouseover=alert(1) style=position:fixed;inset:0 y=\""),
        Payload(
            label: "quote with a ZWJ", text: "x\"\u{200D} onfocus=alert(1) autofocus tabindex=0 y=\""),
        Payload(
            label: "quote after a prepended mark", text: "x\u{600}\" onmouseover=alert(1) y=\""),
        Payload(label: "angle bracket with a combining mark", text: "<\u{338}script>alert(1)</script\u{338}> <\u{301}img src=x onerror=alert(1)>"),
    ]
}

// MARK: - The site under attack

private enum HostileSite {
    static let now = Timestamp(iso8601: "2026-01-12T12:00:00Z")!
    /// A base URL with every character prolific.yml allows that HTML, XML or iCalendar would need
    /// to escape or would treat specially (`&`, `;`, `,`, `'`-free sub-delimiters, `@`, `%`).
    static let baseURL = "https://example.org:8443/~a&b;c,d(e)!$*+=@%41/"

    /// Every field a player or maintainer writes that reaches the site.
    enum Field: Int, CaseIterable {
        case siteTitle, badgeName, badgeDescription
        case userName, bio, avatar, linkTitle, linkURL
        case projectTitle, tag, starter, openSnippet, winningSnippet, alternateSnippet, roundNote, tallyMethod
    }

    /// Per copy: two players who follow each other, one with an avatar image; a story in progress
    /// (a closed round with a winner, an alternate and a tally, and an open round), a completed
    /// story, an unlisted story; images beside them, so `![…](x.png)` becomes an `<img>`. `fill`
    /// gives each field's text.
    static func content(copies: Int = 1, fill: (_ copy: Int, _ field: Field) -> String) -> Content {
        let origin = Origin(path: "injection")
        func at(days: Int64, hours: Int64 = 0) -> Timestamp {
            Timestamp(secondsSinceEpoch: now.secondsSinceEpoch + days * 86_400 + hours * 3_600)
        }
        var config = Config.defaults(title: fill(0, .siteTitle), baseURL: baseURL)
        config.badges = Badge.defaults + [
            Badge(
                id: Slug("hostile")!, name: fill(0, .badgeName), description: fill(0, .badgeDescription), measure: .snippets,
                tiers: [Badge.Tier(name: "bronze", threshold: 1), Badge.Tier(name: "silver", threshold: 3)])
        ]
        var users: [Handle: User] = [:]
        var projects: [Project] = []
        var media: Set<String> = []
        for copy in 0..<copies {
            let ann = Handle("ann\(copy)")!, bo = Handle("bo\(copy)")!
            let open = Slug("open\(copy)")!, done = Slug("done\(copy)")!, hidden = Slug("hidden\(copy)")!
            users[ann] = User(
                handle: ann, name: fill(copy, .userName), joined: at(days: -40), follows: User.Follows(projects: [open, done], users: [bo]),
                avatar: fill(copy, .avatar),
                links: [User.Link(title: fill(copy, .linkTitle), url: fill(copy, .linkURL)), User.Link(title: fill(copy, .linkTitle), url: "https://ok.example/\(copy)")],
                bio: fill(copy, .bio), origin: origin)
            // An image's file name is the player's choice too: bo's avatar is a file named after the text.
            let picture = fill(copy + 1, .avatar) + ".png"
            if !picture.contains("/") && !picture.contains(":") && !picture.unicodeScalars.contains("\0") { media.insert("users/\(picture)") }
            users[bo] = User(
                handle: bo, name: fill(copy + 1, .userName), joined: at(days: -40), follows: User.Follows(users: [ann]),
                avatar: picture, bio: fill(copy + 1, .bio), origin: origin)

            func submission(_ author: Handle, _ time: Timestamp, _ field: Field) -> Submission {
                Submission(
                    id: SubmissionID(author: author, time: time), author: author, submitted: time,
                    body: fill(author == ann ? copy : copy + 1, field), origin: origin)
            }
            func closedRound(_ number: Int, opened: Timestamp, winner: Handle, other: Handle) -> Round {
                let won = submission(winner, Timestamp(secondsSinceEpoch: opened.secondsSinceEpoch + 3_600), .winningSnippet)
                let lost = submission(other, Timestamp(secondsSinceEpoch: opened.secondsSinceEpoch + 7_200), .alternateSnippet)
                let cast = Timestamp(secondsSinceEpoch: opened.secondsSinceEpoch + 86_400)
                let closes = Timestamp(secondsSinceEpoch: opened.secondsSinceEpoch + 7 * 86_400)
                return Round(
                    number: RoundNumber(number)!, opened: opened, closes: closes, closed: closes, winner: won.id,
                    tally: TallyRecord(
                        method: fill(copy, .tallyMethod), ballots: 2,
                        scores: [TallyRecord.Score(id: won.id, score: 1), TallyRecord.Score(id: lost.id, score: 1)]),
                    note: fill(copy, .roundNote), submissions: [won, lost],
                    ballots: [
                        Ballot(voter: winner, cast: cast, choices: [lost.id], origin: origin),
                        Ballot(voter: other, cast: cast, choices: [won.id], origin: origin),
                    ], origin: origin)
            }
            func openRound(_ number: Int, opened: Timestamp) -> Round {
                let mine = submission(ann, at(days: -2), .openSnippet), theirs = submission(bo, at(days: -1), .openSnippet)
                return Round(
                    number: RoundNumber(number)!, opened: opened, closes: at(days: 3), note: fill(copy, .roundNote),
                    submissions: [mine, theirs], ballots: [Ballot(voter: ann, cast: at(days: -1, hours: 1), choices: [theirs.id], origin: origin)],
                    origin: origin)
            }
            func project(_ slug: Slug, owner: Handle, limit: Int, status: Project.Status = .open, visibility: Project.Visibility = .listed, rounds: [Round]) -> Project {
                media.insert("projects/\(slug)/x.png")
                for round in rounds { media.insert("projects/\(slug)/rounds/\(round.number.folderName)/submissions/x.png") }
                return Project(
                    slug: slug, title: fill(copy, .projectTitle), owner: owner, created: at(days: -30), roundLimit: limit,
                    roundLength: TimeSpan("7d")!, tags: [fill(copy, .tag), "plain"], status: status, visibility: visibility,
                    starter: fill(copy, .starter), rounds: rounds, origin: origin)
            }
            projects += [
                project(open, owner: ann, limit: 5, rounds: [closedRound(1, opened: at(days: -30), winner: ann, other: bo), openRound(2, opened: at(days: -23))]),
                project(done, owner: bo, limit: 1, status: .complete, rounds: [closedRound(1, opened: at(days: -30), winner: bo, other: ann)]),
                project(hidden, owner: ann, limit: 5, visibility: .unlisted, rounds: [openRound(1, opened: at(days: -4))]),
            ]
        }
        return Content(config: config, users: users, projects: projects, media: media)
    }

    static let theme = Result { try Theme.builtIn() }

    static func build(_ content: Content) throws -> [OutputFile] {
        try SiteBuilder(content: content, theme: try theme.get(), now: now).build()
    }

    /// Where a single-copy site must still show `text`, escaped rather than dropped: names and
    /// titles on pages, in feeds, in the calendar, the search index and the badge card.
    static func missingText(_ text: String, in files: [OutputFile]) -> [String] {
        let file = { (path: String) in files.first { $0.path == path }.map { String(decoding: $0.contents, as: UTF8.self) } ?? "" }
        var missing: [String] = []
        let shown = HTMLScan.normalizedNewlines(text)
        for (path, element, expected) in [
            (SitePath.user(Handle("ann0")!), "h1", shown),
            (SitePath.project(Slug("open0")!), "h1", shown),
            (SitePath.tag(TagPages.key(text)), "h1", "Tagged “\(shown)”"),
            (SitePath.home, "h1", shown),
        ] where HTMLScan(file(path)).text(inside: element) != expected {
            missing.append("\(path): the <\(element)> doesn't show the text")
        }
        let xml = XMLText.normalized(text)
        let feed = XMLTree(file(SitePath.userFeed(Handle("ann0")!)))
        if feed.elements.first(where: { $0.name == "title" })?.text != "\(xml) · \(xml)" {
            missing.append("\(SitePath.userFeed(Handle("ann0")!)): the feed's title doesn't show the name")
        }
        if !feed.elements.contains(where: { $0.name == "title" && $0.text == "New story: \(xml)" }) {
            missing.append("\(SitePath.userFeed(Handle("ann0")!)): no entry title shows the story's title")
        }
        let card = XMLTree(file(SitePath.userCard(Handle("ann0")!)))
        if card.elements.first(where: { $0.name == "title" })?.text.hasPrefix("\(xml) on \(xml): ") != true {
            missing.append("\(SitePath.userCard(Handle("ann0")!)): the card's title doesn't show the name")
        }
        let summaries = ICSCheck.logicalLines(file(SitePath.calendarFeed)).filter { $0.hasPrefix("SUMMARY:") }
            .map { ICSCheck.unescape(String($0.dropFirst("SUMMARY:".count))) }
        if summaries != ["Round 2 of \(ICSCheck.normalized(text)) closes"] {
            missing.append("\(SitePath.calendarFeed): the summary doesn't show the title")
        }
        let index = (try? JSONSerialization.jsonObject(with: Data(file(SitePath.searchIndex).utf8))) as? [[String: Any]] ?? []
        for url in [SitePath.user(Handle("ann0")!), SitePath.project(Slug("open0")!)]
        where index.first(where: { $0["url"] as? String == url })?["title"] as? String != text {
            missing.append("\(SitePath.searchIndex): the entry for \(url) doesn't carry the text")
        }
        return missing
    }
}

// MARK: - Every output file, by kind

private enum SiteCheck {
    /// Every problem in every file, each starting with the file's path.
    static func problems(in files: [OutputFile], content: Content) -> [String] {
        var problems: [String] = []
        let statics = (try? HostileSite.theme.get().staticFiles) ?? []
        let deadlines = content.projects.filter { project in
            project.visibility == .listed && project.status == .open && project.closedRounds.count < project.roundLimit
                && (project.openRound.map { $0.closes > HostileSite.now } ?? false)
        }.count
        let baseURL = content.config.baseURL
        for file in files {
            guard let text = String(validating: file.contents, as: UTF8.self) else {
                if file.path.hasSuffix(".epub") {
                    problems += EPUBCheck.problems(in: file.contents).map { "\(file.path): \($0)" }
                } else {
                    problems.append("\(file.path): not UTF-8")
                }
                continue
            }
            let found: [String]
            switch file.path.split(separator: ".").last.map(String.init) ?? "" {
            case "html":
                let script = file.path == SitePath.search ? SitePath.root(of: file.path) + "search.js" : nil
                found = HTMLCheck.problems(in: text, as: .page(script: script))
            case "xml" where file.path == "sitemap.xml": found = SitemapCheck.problems(in: text, baseURL: baseURL)
            case "xml": found = FeedCheck.problems(in: text, baseURL: baseURL)
            case "ics": found = ICSCheck.problems(in: text, events: deadlines, baseURL: baseURL)
            case "json": found = SearchIndexCheck.problems(in: text)
            case "svg": found = SVGCheck.problems(in: text)
            case "js": found = ScriptCheck.problems(in: text)
            case "css":
                found = statics.contains { $0.path == file.path && $0.contents == file.contents } ? [] : ["not the theme's own stylesheet"]
            case "txt" where file.path == "robots.txt":
                found = text == "User-agent: *\nAllow: /\nSitemap: \(baseURL)sitemap.xml\n" ? [] : ["unexpected robots.txt"]
            case "epub": found = EPUBCheck.problems(in: file.contents)
            default: found = ["a kind of file this test doesn't check"]
            }
            problems += found.map { "\(file.path): \($0)" }
        }
        return problems
    }

    /// Records one issue per file with problems.
    static func expectNone(_ problems: [String]) {
        for issue in byFile(problems) { Issue.record(Comment(rawValue: issue)) }
    }

    /// Problems (each starting with its file's path) as one message per file, the first few listed.
    static func byFile(_ problems: [String]) -> [String] {
        let files = Dictionary(grouping: problems) { String($0.prefix { $0 != ":" }) }
        return files.keys.sorted().map { path in
            let list = files[path] ?? []
            let shown = list.prefix(5).map { "- " + $0.dropFirst(path.count + 2) }.joined(separator: "\n")
            return "\(path): \(list.count) problem(s)\n\(shown)" + (list.count > 5 ? "\n…" : "")
        }
    }
}

// MARK: - HTML

/// How a browser's tokenizer (WHATWG HTML, "Tokenization") splits a page into tags, text,
/// comments and raw text — enough of it to see every element and attribute the page really has.
///
/// Followed: input preprocessing (CR LF and CR become LF); tag, attribute-name and the three
/// attribute-value states with their error recovery (a quote or `<` inside a name, a missing space
/// after a quoted value, `/` between attributes); comments (`<!-->`, `--!>`); bogus comments
/// (`<?`, `</1`); DOCTYPE; RAWTEXT (`script`, `style`, `xmp`, `iframe`, `noembed`, `noframes`,
/// `noscript`), RCDATA (`title`, `textarea`) and PLAINTEXT; character references (numeric, with or
/// without `;`, and the named ones that matter for URLs); SVG/MathML foreign content with CDATA,
/// breakout tags and HTML integration points. Not followed: the script data escape states and the
/// full table of named references (none of them yields an ASCII letter, so none hides a scheme).
private struct HTMLScan {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
        var selfClosing: Bool
        /// The tag as written, for messages.
        var source: String
    }

    enum Token {
        case start(Tag)
        case end(String)
        case text(String)
        case comment(String)
        /// The contents of a RAWTEXT or PLAINTEXT element, unparsed.
        case raw(element: String, text: String)
    }

    private(set) var tokens: [Token] = []
    /// Places where the input ended inside a tag, comment or raw-text element.
    private(set) var errors: [String] = []

    private var input: [Unicode.Scalar] = []
    private var at = 0
    private var pending = ""
    /// Open SVG and MathML elements, innermost last.
    private var foreign: [String] = []

    static let rawText: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript"]
    static let rcdata: Set<String> = ["title", "textarea"]
    static let integrationPoints: Set<String> = ["foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"]
    static let breakout: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4",
        "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small",
        "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]
    static let named: [(name: String, value: String)] = [
        ("amp;", "&"), ("amp", "&"), ("lt;", "<"), ("lt", "<"), ("gt;", ">"), ("gt", ">"), ("quot;", "\""), ("quot", "\""),
        ("apos;", "'"), ("nbsp;", "\u{A0}"), ("nbsp", "\u{A0}"), ("Tab;", "\t"), ("NewLine;", "\n"), ("colon;", ":"),
        ("lpar;", "("), ("rpar;", ")"), ("sol;", "/"), ("bsol;", "\\"), ("period;", "."), ("comma;", ","), ("semi;", ";"),
        ("excl;", "!"), ("num;", "#"), ("percnt;", "%"), ("equals;", "="), ("quest;", "?"), ("hellip;", "…"),
        ("mdash;", "—"), ("ndash;", "–"), ("lsquo;", "‘"), ("rsquo;", "’"), ("ldquo;", "“"), ("rdquo;", "”"),
        ("copy;", "©"), ("copy", "©"),
    ].sorted { $0.0.count > $1.0.count }
    /// `named` by first character, longest first: looked up at every `&`.
    static let namedByFirst: [Unicode.Scalar: [(name: [Unicode.Scalar], value: String)]] = Dictionary(
        grouping: named.map { (name: Array($0.name.unicodeScalars), value: $0.value) }, by: { $0.name[0] })

    init(_ source: String) {
        input.reserveCapacity(source.utf8.count)
        var afterCR = false
        for scalar in source.unicodeScalars {
            if scalar == "\n" && afterCR { afterCR = false; continue }
            afterCR = scalar == "\r"
            input.append(afterCR ? "\n" : scalar)
        }
        while at < input.count {
            let c = input[at]
            at += 1
            switch c {
            case "<": tagOpen()
            case "&": pending += characterReference(inAttribute: false)
            default: pending.unicodeScalars.append(c)
            }
        }
        flush()
    }

    /// The input stream preprocessing every HTML parser does first.
    static func normalizedNewlines(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    var startTags: [Tag] {
        tokens.compactMap { if case .start(let tag) = $0 { tag } else { nil } }
    }

    /// All text a reader sees.
    var text: String {
        tokens.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }

    /// The text inside the first `name` element, with the text of elements inside it.
    func text(inside name: String) -> String? {
        var depth = 0
        var found: String? = nil
        for token in tokens {
            switch token {
            case .start(let tag) where tag.name == name && !tag.selfClosing:
                if depth == 0 && found != nil { return found }
                depth += 1
                if found == nil { found = "" }
            case .end(let end) where end == name && depth > 0:
                depth -= 1
                if depth == 0 { return found }
            case .text(let text) where depth > 0:
                found? += text
            default: break
            }
        }
        return found
    }

    private func starts(with literal: String, ignoringCase: Bool = false) -> Bool {
        var offset = at
        for scalar in literal.unicodeScalars {
            guard offset < input.count else { return false }
            let c = input[offset]
            if ignoringCase ? Self.lower(c) != Self.lower(scalar) : c != scalar { return false }
            offset += 1
        }
        return true
    }

    private static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32)! : c
    }

    private static func isAlpha(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    private static func isAlphanumeric(_ c: Unicode.Scalar) -> Bool { isAlpha(c) || ("0"..."9").contains(c) }
    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\u{C}" }

    private mutating func flush() {
        if !pending.isEmpty { tokens.append(.text(pending)) }
        pending = ""
    }

    private mutating func tagOpen() {
        guard at < input.count else { pending += "<"; return }
        let c = input[at]
        if c == "!" {
            at += 1
            markupDeclaration()
        } else if c == "/" {
            at += 1
            if at < input.count, input[at] == ">" {
                at += 1
            } else if at < input.count, Self.isAlpha(input[at]) {
                tag(end: true, from: at - 2)
            } else if at < input.count {
                bogusComment()
            } else {
                pending += "</"
            }
        } else if c == "?" {
            bogusComment()
        } else if Self.isAlpha(c) {
            tag(end: false, from: at - 1)
        } else {
            pending += "<"
        }
    }

    private mutating func markupDeclaration() {
        flush()
        if starts(with: "--") {
            at += 2
            comment()
        } else if starts(with: "DOCTYPE", ignoringCase: true) {
            while at < input.count, input[at] != ">" { at += 1 }
            at += 1
        } else if !foreign.isEmpty && starts(with: "[CDATA[") {
            at += 7
            var text = ""
            while at < input.count, input[at] != "]" || !starts(with: "]]>") {
                text.unicodeScalars.append(input[at])
                at += 1
            }
            at += 3
            tokens.append(.text(text))
        } else {
            bogusComment()
        }
    }

    private mutating func bogusComment() {
        flush()
        var text = ""
        while at < input.count, input[at] != ">" {
            text.unicodeScalars.append(input[at])
            at += 1
        }
        at += 1
        tokens.append(.comment(text))
    }

    private mutating func comment() {
        if starts(with: ">") || starts(with: "->") {
            at += starts(with: ">") ? 1 : 2
            tokens.append(.comment(""))
            return
        }
        var text = ""
        while at < input.count {
            if input[at] == "-" && starts(with: "-->") { at += 3; tokens.append(.comment(text)); return }
            if input[at] == "-" && starts(with: "--!>") { at += 4; tokens.append(.comment(text)); return }
            text.unicodeScalars.append(input[at])
            at += 1
        }
        errors.append("a comment runs to the end of the file")
        tokens.append(.comment(text))
    }

    private mutating func characterReference(inAttribute: Bool) -> String {
        guard at < input.count else { return "&" }
        if input[at] == "#" {
            var next = at + 1
            let hex = next < input.count && (input[next] == "x" || input[next] == "X")
            if hex { next += 1 }
            var digits = ""
            while next < input.count, hex ? input[next].properties.isASCIIHexDigit : ("0"..."9").contains(input[next]) {
                digits.unicodeScalars.append(input[next])
                next += 1
            }
            guard !digits.isEmpty else { return "&" }
            if next < input.count, input[next] == ";" { next += 1 }
            at = next
            let value = UInt32(digits, radix: hex ? 16 : 10) ?? 0x11_0000
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return String(scalar)
        }
        candidates: for (name, value) in Self.namedByFirst[input[at]] ?? [] {
            guard at + name.count <= input.count else { continue }
            for offset in 0..<name.count where input[at + offset] != name[offset] { continue candidates }
            let after = at + name.count
            if name.last != ";", inAttribute, after < input.count, input[after] == "=" || Self.isAlphanumeric(input[after]) {
                return "&"
            }
            at = after
            return value
        }
        return "&"
    }

    /// From just after `<` (or `</`) to the end of the tag; `start` is where the tag began.
    private mutating func tag(end: Bool, from start: Int) {
        flush()
        var name = ""
        while at < input.count, !Self.isSpace(input[at]), input[at] != "/", input[at] != ">" {
            name.unicodeScalars.append(Self.lower(input[at]))
            at += 1
        }
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        var closed = false
        while at < input.count {
            let c = input[at]
            if Self.isSpace(c) { at += 1; continue }
            if c == "/" {
                at += 1
                selfClosing = at < input.count && input[at] == ">"
                continue
            }
            if c == ">" { at += 1; closed = true; break }
            selfClosing = false
            var attribute = String(Self.lower(c))
            at += 1
            while at < input.count, !Self.isSpace(input[at]), input[at] != "/", input[at] != ">", input[at] != "=" {
                attribute.unicodeScalars.append(Self.lower(input[at]))
                at += 1
            }
            while at < input.count, Self.isSpace(input[at]) { at += 1 }
            var value = ""
            if at < input.count, input[at] == "=" {
                at += 1
                while at < input.count, Self.isSpace(input[at]) { at += 1 }
                if at < input.count, input[at] == "\"" || input[at] == "'" {
                    let quote = input[at]
                    at += 1
                    while at < input.count, input[at] != quote {
                        let v = input[at]
                        at += 1
                        if v == "&" { value += characterReference(inAttribute: true) } else { value.unicodeScalars.append(v) }
                    }
                    at += 1
                } else {
                    while at < input.count, !Self.isSpace(input[at]), input[at] != ">" {
                        let v = input[at]
                        at += 1
                        if v == "&" { value += characterReference(inAttribute: true) } else { value.unicodeScalars.append(v) }
                    }
                }
            }
            attributes.append((attribute, value))
        }
        var source = ""
        source.unicodeScalars.append(contentsOf: input[start..<min(at, input.count)].prefix(160))
        guard closed else {
            errors.append("a tag runs to the end of the file: \(source)")
            return
        }
        if end {
            tokens.append(.end(name))
            if let index = foreign.lastIndex(of: name) { foreign.removeSubrange(index...) }
            return
        }
        tokens.append(.start(Tag(name: name, attributes: attributes, selfClosing: selfClosing, source: source)))
        // In foreign content (not at an integration point) an HTML-only tag closes the SVG or MathML.
        if !foreign.isEmpty, !Self.integrationPoints.contains(foreign.last ?? ""),
            Self.breakout.contains(name) || (name == "font" && attributes.contains { ["color", "face", "size"].contains($0.name) })
        {
            foreign.removeAll()
        }
        let htmlRules = foreign.isEmpty || Self.integrationPoints.contains(foreign.last ?? "")
        if name == "svg" || name == "math" || !htmlRules {
            if !selfClosing { foreign.append(name) }
        } else if Self.rawText.contains(name) {
            tokens.append(.raw(element: name, text: untilEndTag(name, decoding: false)))
        } else if Self.rcdata.contains(name) {
            tokens.append(.text(untilEndTag(name, decoding: true)))
        } else if name == "plaintext" {
            var text = ""
            text.unicodeScalars.append(contentsOf: input[at...])
            at = input.count
            tokens.append(.raw(element: name, text: text))
        }
    }

    /// The contents of a RAWTEXT or RCDATA element, up to (not including) its end tag.
    private mutating func untilEndTag(_ name: String, decoding: Bool) -> String {
        var text = ""
        while at < input.count {
            if input[at] == "<", starts(with: "</" + name, ignoringCase: true) {
                let after = at + 2 + name.unicodeScalars.count
                if after < input.count, Self.isSpace(input[after]) || input[after] == "/" || input[after] == ">" { return text }
            }
            let c = input[at]
            at += 1
            if decoding && c == "&" { text += characterReference(inAttribute: false) } else { text.unicodeScalars.append(c) }
        }
        errors.append("<\(name)> runs to the end of the file")
        return text
    }
}

/// What must never be in a page, checked on what `HTMLScan` found.
private enum HTMLCheck {
    enum Kind {
        /// A whole page of the site; `script` is the one script `src` it may load.
        case page(script: String?)
        /// HTML inside a page or a feed entry.
        case fragment
        /// An EPUB's XHTML: only what runs or loads is checked, not the site theme's vocabulary.
        case book
    }

    /// Elements the theme and cmark write, in HTML and in inline SVG. Anything else came from text.
    static let elements: Set<String> = [
        "html", "head", "meta", "title", "link", "body", "header", "nav", "main", "footer", "article", "section", "aside", "div",
        "span", "p", "a", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "time", "table", "caption", "thead", "tbody",
        "tr", "th", "td", "progress", "figure", "figcaption", "form", "label", "input", "button", "noscript", "img", "code",
        "pre", "em", "strong", "blockquote", "hr", "br", "dl", "dt", "dd", "svg", "desc", "line", "rect", "text", "g",
    ]
    static let attributes: Set<String> = [
        "id", "class", "lang", "role", "style", "title", "href", "download", "src", "alt", "rel", "type", "name", "content", "property",
        "charset", "datetime", "value", "max", "width", "height", "for", "action", "method", "autocomplete", "scope", "start",
        "colspan", "abbr", "data-index", "data-root", "viewbox", "xmlns", "x", "y", "x1", "x2", "y1", "y2", "rx", "fill", "stroke",
        "text-anchor",
    ]
    /// Attributes a browser follows or loads as a URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "xlink:href", "poster", "data", "background", "cite", "codebase", "srcset",
        "ping", "manifest", "longdesc", "lowsrc", "dynsrc", "usemap", "archive", "classid", "icon", "profile",
    ]
    /// Elements that run, embed or redirect whatever the attributes say.
    static let forbidden: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "foreignobject", "handler",
        "listener", "set", "animate", "animatetransform", "animatemotion", "portal", "fencedframe",
    ]

    /// `site`, when given, is the site's own absolute URL: images there are not on another host
    /// (feeds need absolute URLs).
    static func problems(in html: String, as kind: Kind, site: String? = nil) -> [String] {
        let scan = HTMLScan(html)
        var problems = scan.errors
        var scripts = 0
        var pendingScript: HTMLScan.Tag? = nil
        var book = false
        if case .book = kind { book = true }
        for token in scan.tokens {
            switch token {
            case .start(let tag):
                pendingScript = nil
                if tag.name == "script", case .page(let allowed?) = kind {
                    scripts += 1
                    pendingScript = tag
                    let root = SitePath.root(of: SitePath.search)
                    let expected = ["src": allowed, "data-index": root + "search.json", "data-root": root]
                    if scripts > 1 || Dictionary(tag.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }) != expected
                        || tag.attributes.count != expected.count
                    {
                        problems.append("a script element that isn't the theme's own: \(tag.source)")
                    }
                } else if forbidden.contains(tag.name) || (!book && !elements.contains(tag.name)) {
                    problems.append("element <\(tag.name)>: \(tag.source)")
                }
                problems += attributeProblems(tag, book: book, site: site)
            case .raw(let element, let text):
                if element == "script", pendingScript != nil, !text.isEmpty {
                    problems.append("the theme's script element has inline text")
                }
                if element == "noscript" { problems += Self.problems(in: text, as: book ? .book : .fragment, site: site) }
                pendingScript = nil
            default:
                pendingScript = nil
            }
        }
        if case .page = kind {
            let last = scan.tokens.last { if case .text(let text) = $0 { !text.allSatisfy(\.isWhitespace) } else { true } }
            if case .end("html")? = last {} else { problems.append("the page doesn't end with </html>: its structure was broken") }
            let mains = scan.startTags.filter { $0.name == "main" }.count
            if mains != 1 { problems.append("\(mains) <main> elements") }
        }
        return problems
    }

    static func attributeProblems(_ tag: HTMLScan.Tag, book: Bool, site: String?) -> [String] {
        let local = { (url: String) in URLCheck.isInsideTheSite(url) || site.map { url.hasPrefix($0) } == true }
        var problems: [String] = []
        var seen: Set<String> = []
        for (name, value) in tag.attributes {
            if !seen.insert(name).inserted { problems.append("attribute '\(name)' twice: \(tag.source)") }
            if name.hasPrefix("on") {
                problems.append("event-handler attribute '\(name)': \(tag.source)")
            } else if !book && !attributes.contains(name) && !name.hasPrefix("aria-") {
                problems.append("unexpected attribute '\(name)': \(tag.source)")
            }
            if urlAttributes.contains(name) || name.hasSuffix(":href"), let scheme = URLCheck.scheme(of: value),
                ["javascript", "vbscript", "data"].contains(scheme)
            {
                problems.append("\(scheme): URL in '\(name)': \(tag.source)")
            }
            if ["src", "srcset", "poster", "background", "lowsrc", "dynsrc"].contains(name) || (tag.name == "image" && name.hasSuffix("href")),
                !local(value)
            {
                problems.append("'\(name)' loads from another host: \(tag.source)")
            }
            if name == "style" {
                let css = value.lowercased()
                if ["url(", "image(", "image-set(", "expression", "@import", "\\", "javascript:", "behavior", "binding"].contains(where: css.contains) {
                    problems.append("style attribute that loads or runs something: \(tag.source)")
                }
            }
        }
        if tag.name == "link", let rel = tag.attributes.first(where: { $0.name == "rel" })?.value.lowercased(),
            ["stylesheet", "icon", "preload", "prefetch", "modulepreload", "import", "manifest"].contains(where: rel.contains),
            !local(tag.attributes.first { $0.name == "href" }?.value ?? "")
        {
            problems.append("a <link> that loads from another host: \(tag.source)")
        }
        return problems
    }
}

/// URLs the way a browser's URL parser starts on them (WHATWG URL).
private enum URLCheck {
    /// The scheme, lower-cased, after the parser removes leading and trailing C0 controls and
    /// spaces and every tab and newline; nil for a relative URL.
    static func scheme(of url: String) -> String? {
        var scalars = url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        guard let first = scalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return nil }
        var scheme = ""
        for scalar in scalars {
            if scalar == ":" { return scheme.lowercased() }
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar) else {
                return nil
            }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// A path inside the site: no scheme, not protocol-relative (`//host`, `\\host`, `/\host`).
    static func isInsideTheSite(_ url: String) -> Bool {
        guard scheme(of: url) == nil else { return false }
        let trimmed = url.unicodeScalars.filter { $0.value > 0x20 }
        let start = trimmed.prefix(2).map { $0 == "\\" ? "/" : $0 }
        return start != ["/", "/"]
    }
}

// MARK: - XML: feeds, sitemap, badge cards

/// An XML document's elements, in document order, as libxml2 (through Foundation's XMLParser)
/// reads them; `error` when it is not well-formed.
private struct XMLTree {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// The element's own text (CDATA included), not that of its children.
        var text: String
    }

    private(set) var elements: [Element] = []
    private(set) var error: String? = nil

    init(_ text: String) {
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        let parsed = withExtendedLifetime(collector) { parser.parse() }
        if !parsed || collector.error != nil {
            error = collector.error ?? parser.parserError.map { "not well-formed: \($0)" } ?? "not well-formed"
        }
        elements = collector.elements
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [Int] = []
        var error: String? = nil

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(elements.count)
            elements.append(Element(name: elementName, attributes: attributes, text: ""))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if let index = open.last { elements[index].text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            error = error ?? "not well-formed: \(parseError)"
        }
    }
}

/// Text as an XML writer must leave it: without the characters XML 1.0 forbids, line breaks as an
/// XML parser reports them.
private enum XMLText {
    static func normalized(_ text: String) -> String {
        let allowed = text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
        }
        return HTMLScan.normalizedNewlines(String(String.UnicodeScalarView(allowed)))
    }
}

private enum FeedCheck {
    static let elements: Set<String> = [
        "feed", "title", "subtitle", "id", "link", "updated", "published", "generator", "entry", "author", "name", "uri", "content",
    ]

    static func problems(in text: String, baseURL: String) -> [String] {
        let tree = XMLTree(text)
        if let error = tree.error { return [error] }
        var problems: [String] = []
        for element in tree.elements {
            if !elements.contains(element.name) { problems.append("element <\(element.name)> in a feed") }
            for (name, value) in element.attributes {
                if !["xmlns", "rel", "type", "href"].contains(name) { problems.append("attribute '\(name)' on <\(element.name)>") }
                if name == "href" && !value.hasPrefix(baseURL) { problems.append("a link outside the site: \(value)") }
            }
            if ["id", "uri"].contains(element.name) && !element.text.hasPrefix(baseURL) {
                problems.append("<\(element.name)> outside the site: \(element.text)")
            }
            // Text constructs are shown as text; HTML ones are parsed again, as a feed reader does.
            let type = element.attributes["type"]
            if type == "html" {
                problems += HTMLCheck.problems(in: element.text, as: .fragment, site: baseURL).map { "in <\(element.name)>: \($0)" }
            } else if element.name == "content" || type == "xhtml" {
                problems.append("<\(element.name)> whose type isn't html")
            }
        }
        return problems
    }
}

private enum SitemapCheck {
    static func problems(in text: String, baseURL: String) -> [String] {
        let tree = XMLTree(text)
        if let error = tree.error { return [error] }
        return tree.elements.flatMap { element -> [String] in
            var problems: [String] = []
            if !["urlset", "url", "loc"].contains(element.name) { problems.append("element <\(element.name)> in the sitemap") }
            if element.name == "loc" && !element.text.hasPrefix(baseURL) { problems.append("a page outside the site: \(element.text)") }
            return problems
        }
    }
}

private enum SVGCheck {
    static let elements: Set<String> = ["svg", "title", "rect", "text"]
    static let attributes: Set<String> = [
        "xmlns", "width", "height", "viewBox", "role", "aria-label", "x", "y", "rx", "fill", "stroke", "font-family", "font-size",
        "font-weight", "text-anchor",
    ]

    static func problems(in text: String) -> [String] {
        let tree = XMLTree(text)
        if let error = tree.error { return [error] }
        var problems: [String] = []
        for element in tree.elements {
            if element.name.lowercased() == "script" || element.name.lowercased() == "foreignobject" || !elements.contains(element.name) {
                problems.append("element <\(element.name)> in an SVG")
            }
            for (name, value) in element.attributes {
                if name.lowercased().hasPrefix("on") { problems.append("event-handler attribute '\(name)' in an SVG") }
                if name.hasSuffix("href") {
                    problems.append("'\(name)' in an SVG" + (URLCheck.scheme(of: value) == "javascript" ? " to a javascript: URL" : ""))
                }
                if !attributes.contains(name) { problems.append("attribute '\(name)' in an SVG") }
            }
        }
        return problems
    }
}

// MARK: - The calendar

/// `calendar.ics` read as RFC 5545 says.
private enum ICSCheck {
    static let properties: Set<String> = [
        "BEGIN", "END", "VERSION", "PRODID", "CALSCALE", "METHOD", "X-WR-CALNAME", "UID", "DTSTAMP", "DTSTART", "SUMMARY",
        "DESCRIPTION", "URL",
    ]
    static let textProperties: Set<String> = ["X-WR-CALNAME", "SUMMARY", "DESCRIPTION"]

    /// Content lines, unfolded (a CRLF followed by a space or tab continues the line).
    static func logicalLines(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            if let first = line.unicodeScalars.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += String(line.unicodeScalars.dropFirst())
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// A TEXT value's escapes undone.
    static func unescape(_ value: String) -> String {
        var out = ""
        var escaped = false
        for c in value.unicodeScalars {
            if escaped {
                out += c == "n" || c == "N" ? "\n" : String(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Text as a TEXT value can carry it: without control characters other than line breaks,
    /// which are written `\n`.
    static func normalized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F) }))
    }

    static func problems(in text: String, events: Int, baseURL: String) -> [String] {
        var problems: [String] = []
        if !text.hasSuffix("\r\n") { problems.append("the last line doesn't end with CRLF") }
        for line in text.components(separatedBy: "\r\n") {
            if line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) { problems.append("a bare CR or LF in a line") }
            if line.utf8.count > 75 { problems.append("a line longer than 75 octets") }
        }
        var stack: [String] = []
        var calendars = 0, count = 0
        var seen: [String: Int] = [:]
        for line in logicalLines(text) {
            guard let colon = line.firstIndex(of: ":") else {
                problems.append("not a content line: \(line.debugDescription)")
                continue
            }
            let name = String(line[..<colon]), value = String(line[line.index(after: colon)...])
            guard properties.contains(name) else {
                problems.append("unknown property or parameters: \(line.debugDescription)")
                continue
            }
            switch (name, value) {
            case ("BEGIN", "VCALENDAR") where stack.isEmpty && calendars == 0:
                calendars += 1
                stack.append(value)
            case ("BEGIN", "VEVENT") where stack == ["VCALENDAR"]:
                stack.append(value)
                seen = [:]
            case ("END", let component) where stack.last == component:
                stack.removeLast()
                if component == "VEVENT" {
                    count += 1
                    if seen != ["UID": 1, "DTSTAMP": 1, "DTSTART": 1, "SUMMARY": 1, "DESCRIPTION": 1, "URL": 1] {
                        problems.append("an event with properties \(seen.sorted { $0.key < $1.key })")
                    }
                }
            case ("BEGIN", _), ("END", _):
                problems.append("\(line) out of place")
            default:
                if stack.isEmpty { problems.append("a property outside the calendar: \(line.debugDescription)") }
                if stack.last == "VEVENT" { seen[name, default: 0] += 1 }
            }
            if textProperties.contains(name) {
                var escaped = false
                for c in value.unicodeScalars {
                    if escaped {
                        if !"\\;,nN".unicodeScalars.contains(c) { problems.append("an unknown escape '\\\(c)' in \(name)") }
                        escaped = false
                    } else if c == "\\" {
                        escaped = true
                    } else if c == ";" || c == "," {
                        problems.append("an unescaped '\(c)' in \(name)")
                    } else if c.value < 0x20 || c.value == 0x7F {
                        problems.append("a control character in \(name)")
                    }
                }
                if escaped { problems.append("\(name) ends in a lone backslash") }
            }
            if ["DTSTAMP", "DTSTART"].contains(name), value.range(of: #"^\d{8}T\d{6}Z$"#, options: .regularExpression) == nil {
                problems.append("\(name) isn't a UTC time: \(value)")
            }
            if name == "URL" && !value.hasPrefix(baseURL) { problems.append("a URL outside the site: \(value)") }
            if name == "UID", value.range(of: #"^[a-z0-9-]+-round-\d{4}@[a-z0-9.-]+$"#, options: .regularExpression) == nil {
                problems.append("an unexpected UID: \(value)")
            }
        }
        if calendars != 1 || !stack.isEmpty { problems.append("not exactly one complete VCALENDAR") }
        if count != events { problems.append("\(count) events for \(events) upcoming deadlines") }
        return problems
    }
}

// MARK: - The search index and its script

private enum SearchIndexCheck {
    static func problems(in text: String) -> [String] {
        guard let entries = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] else {
            return ["not a JSON array of objects"]
        }
        return entries.flatMap { entry -> [String] in
            var problems: [String] = []
            if Set(entry.keys) != ["kind", "title", "url", "tags", "authors", "text"] { problems.append("an entry with keys \(entry.keys.sorted())") }
            if !(entry["title"] is String) || !(entry["text"] is String) || !(entry["tags"] is [String]) || !(entry["authors"] is [String]) {
                problems.append("an entry with values of the wrong type")
            }
            let url = entry["url"] as? String ?? ""
            if url.range(of: #"^(projects|users)/[a-z0-9-]+/index\.html$"#, options: .regularExpression) == nil {
                problems.append("an entry whose url isn't a page of the site: \(url)")
            }
            return problems
        }
    }
}

/// The theme's JavaScript, comments and string literals left out, must not call anything that
/// parses a string as markup or code.
private enum ScriptCheck {
    static let sinks = [
        "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "eval (", "Function(", "srcdoc",
        "createContextualFragment", "DOMParser", "setHTMLUnsafe", "parseHTMLUnsafe",
    ]

    static func problems(in script: String) -> [String] {
        let code = codeOnly(script)
        return sinks.filter { code.contains($0) }.map { "search.js uses \($0)" }
    }

    /// The script without its comments and the contents of its string literals.
    static func codeOnly(_ script: String) -> String {
        let s = Array(script.unicodeScalars)
        var out = ""
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "/" && i + 1 < s.count && s[i + 1] == "/" {
                while i < s.count && s[i] != "\n" { i += 1 }
            } else if c == "/" && i + 1 < s.count && s[i + 1] == "*" {
                i += 2
                while i + 1 < s.count && !(s[i] == "*" && s[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "\"" || c == "'" || c == "`" {
                out += "\"\""
                i += 1
                while i < s.count && s[i] != c {
                    i += s[i] == "\\" ? 2 : 1
                }
                i += 1
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        return out
    }
}

// MARK: - EPUB downloads

/// A book's XHTML gets the security checks of a page; its other XML files must be well-formed and
/// free of script.
private enum EPUBCheck {
    static func problems(in bytes: [UInt8]) -> [String] {
        guard let archive = try? Archive(data: Data(bytes), accessMode: .read, pathEncoding: nil) else { return ["not a zip archive"] }
        var problems: [String] = []
        for entry in archive where entry.type == .file {
            var data = Data()
            guard (try? archive.extract(entry, skipCRC32: false, consumer: { data.append($0) })) != nil else {
                problems.append("\(entry.path): cannot be read")
                continue
            }
            let text = String(decoding: data, as: UTF8.self)
            let lower = entry.path.lowercased()
            guard lower.hasSuffix(".xhtml") || lower.hasSuffix(".html") || lower.hasSuffix(".opf") || lower.hasSuffix(".ncx") || lower.hasSuffix(".xml") else {
                continue
            }
            let tree = XMLTree(text)
            if let error = tree.error { problems.append("\(entry.path): \(error)") }
            if lower.hasSuffix("html") {
                problems += HTMLCheck.problems(in: text, as: .book).map { "\(entry.path): \($0)" }
            } else {
                for element in tree.elements {
                    if ["script", "foreignobject"].contains(element.name.lowercased()) { problems.append("\(entry.path): <\(element.name)>") }
                    for (name, value) in element.attributes
                    where name.lowercased().hasPrefix("on") || ["javascript", "vbscript", "data"].contains(URLCheck.scheme(of: value) ?? "") {
                        problems.append("\(entry.path): attribute '\(name)'")
                    }
                }
            }
        }
        return problems
    }
}
