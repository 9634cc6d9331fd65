import Foundation
import ProlificCore
import Testing
import ZIPFoundation
@testable import ProlificSite

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct EpubTests {
    static let now = Timestamp(iso8601: "2026-03-01T12:00:00Z")!
    static let lastClose = Timestamp(iso8601: "2026-02-15T09:30:00Z")!
    static let payload = "\"><script>alert(1)</script><img src=x onerror=alert(1)>"

    /// The raw bytes start with `mimetype`'s local header: stored, no extra field, then its content,
    /// so tools recognize an EPUB by its first bytes.
    @Test func theMimetypeComesFirstUncompressed() throws {
        let bytes = try #require(try Self.books(Self.story()).values.first)
        let u16 = { (at: Int) in Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        #expect(Array(bytes[0..<4]) == [0x50, 0x4B, 0x03, 0x04])
        #expect(u16(8) == 0, "stored, not deflated")
        #expect(u16(26) == 8 && u16(28) == 0, "named `mimetype`, with no extra field")
        #expect(String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")
        let archive = try Archive(data: Data(bytes), accessMode: .read)
        let first = try #require(archive.makeIterator().next())
        #expect(first.path == "mimetype" && first.isCompressed == false)
    }

    @Test func theBookHasEveryFile() throws {
        let files = try Self.entries(Self.story())
        #expect(
            Set(files.keys) == [
                "mimetype", "META-INF/container.xml", "OEBPS/content.opf", "OEBPS/nav.xhtml", "OEBPS/title.xhtml",
                "OEBPS/opening.xhtml", "OEBPS/chapter-0001.xhtml", "OEBPS/chapter-0002.xhtml", "OEBPS/credits.xhtml",
                "OEBPS/style.css",
            ])
        #expect(try #require(files["META-INF/container.xml"]).contains("full-path=\"OEBPS/content.opf\""))
    }

    /// Awkward Markdown — entities, hard breaks, rules, raw HTML, images, code, control characters —
    /// still gives XML that parses.
    @Test func everyDocumentIsWellFormedXML() throws {
        let body = """
            A &copy; &nbsp; &hellip; &#169; &#0; "quoted" -- it's\u{1}\u{0B}\u{FFFE}\u{7F}
            line\\
            break  
            x

            ***

            ![alt *em* & "q"](https://example.org/a.png "t") ![here](a.png) <div>raw</div> <br>

            [link](https://e.org/?a=1&b=2 "it's") [page](../x.html) [frag](#x) [js](javascript:alert(1)) <https://auto.org> <a@b.org>

            [![im](x.png)](http://l.org)

            ```swift x"y
            code < & >
            ```

            3. three
            """
        let files = try Self.entries(Self.story(lastBody: body))
        for (path, text) in files where path.hasSuffix(".xhtml") || path.hasSuffix(".xml") || path.hasSuffix(".opf") {
            let parser = XMLParser(data: Data(text.utf8))
            #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")\n\(text)")
        }
    }

    @Test func theChaptersAreInOrderEachWithItsCredit() throws {
        let files = try Self.entries(Self.story())
        let opf = try #require(files["OEBPS/content.opf"])
        let spine = ["title", "nav", "opening", "chapter-0001", "chapter-0002", "credits"].map { "<itemref idref=\"\($0)\"/>" }
        #expect(Self.inOrder(spine, in: opf), "the spine reads title, contents, chapters, credits")
        #expect(Self.inOrder(["Ann Lee</dc:creator>", "Bo Ray</dc:creator>"], in: opf), "creators by first chapter")
        #expect(opf.components(separatedBy: "<dc:creator").count == 3, "each contributor once")
        let nav = try #require(files["OEBPS/nav.xhtml"])
        #expect(Self.inOrder(["opening.xhtml\">Opening", "chapter-0001.xhtml\">Chapter 1", "chapter-0002.xhtml\">Chapter 2"], in: nav))
        let chapters = [
            ("opening", "Opening", "Ann Lee", "Once"), ("chapter-0001", "Chapter 1", "Bo Ray", "Then"),
            ("chapter-0002", "Chapter 2", "Ann Lee", "At last"),
        ]
        for (file, label, author, text) in chapters {
            let page = try #require(files["OEBPS/\(file).xhtml"])
            #expect(Self.inOrder(["<h1>\(label)</h1>", "Written by \(author)</p>", "<p>\(text)"], in: page), "\(file)")
        }
        let credits = try #require(files["OEBPS/credits.xhtml"])
        #expect(Self.inOrder(["Ann Lee", "(Opening and Chapter 2)", "Bo Ray", "(Chapter 1)"], in: credits))
    }

    @Test func buildingTwiceGivesTheSameBytesWhateverTheClock() throws {
        let content = Self.story()
        let first = try Self.books(content, now: Self.now)
        #expect(first == (try Self.books(content, now: Self.now)))
        #expect(first == (try Self.books(content, now: Timestamp(iso8601: "2031-07-04T00:00:00Z")!)))
    }

    /// The identifier is a UUID that depends only on the story's address; the modification date is
    /// when the last round closed.
    @Test func theIdentifierAndDatesAreTheStorysOwn() throws {
        let opf = try #require(try Self.entries(Self.story())["OEBPS/content.opf"])
        let id = EpubBook.identifier(of: "https://example.org/projects/tale/")
        #expect(opf.contains("<dc:identifier id=\"book-id\">\(id)</dc:identifier>"))
        #expect(id.wholeMatch(of: /urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        #expect(id != EpubBook.identifier(of: "https://example.org/projects/tale2/"))
        #expect(id != EpubBook.identifier(of: "https://example.com/projects/tale/"))
        #expect(opf.contains("<meta property=\"dcterms:modified\">2026-02-15T09:30:00Z</meta>"))
    }

    @Test func onlyCompletedStoriesThatAreBuiltGetABook() throws {
        var open = Self.project(slug: "open", lastBody: "More")
        open.rounds.removeLast()
        var draft = Self.project(slug: "draft", lastBody: "More")
        draft.visibility = .draft
        var content = Self.story()
        content.projects += [open, draft]
        #expect(try Self.books(content).keys.sorted() == ["projects/tale/tale.epub"])
    }

    /// Images would load from the web and site links lead nowhere inside a book: images become their
    /// alt text and only web links stay links.
    @Test func nothingPointsOutsideTheBookButWebLinks() throws {
        let body = "![a cat](https://example.org/cat.png) ![a dog](dog.png) [site](../x.html) [top](#x) [web](https://example.org/)"
        let page = try #require(try Self.entries(Self.story(lastBody: body))["OEBPS/chapter-0002.xhtml"])
        #expect(!page.contains("<img") && !page.contains("cat.png") && !page.contains("x.html") && !page.contains("#x"))
        #expect(page.contains("<p>a cat a dog site top <a href=\"https://example.org/\">web</a></p>"))
    }

    /// Books are made on every core: each is the one made alone, and its entries carry its own
    /// story's date (ZIPFoundation spells dates with `gmtime`, shared by every thread: with the
    /// zipping moved onto every core, this failed every time, with books carrying each other's
    /// dates).
    @Test func booksMadeOnEveryCoreAreTheOnesMadeAlone() throws {
        var content = Self.story()
        content.projects = (0..<400).map { index in
            var project = Self.project(slug: "tale-\(index)", lastBody: "Ending \(index).")
            let last = project.rounds.count - 1
            project.rounds[last].closed = Timestamp(secondsSinceEpoch: project.rounds[last].closes.secondsSinceEpoch + Int64(index) * 3_662)
            return project
        }
        let site = SiteModel(content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html)
        let files = try EpubBooks(site: site).files()
        #expect(files.count == 400)
        for (file, project) in zip(files, site.built) {
            #expect(file.contents == (try EpubBook(project: project, site: site).zip()), "\(file.path)")
            let archive = try Archive(data: Data(file.contents), accessMode: .read)
            let finished = Date(timeIntervalSince1970: TimeInterval(SiteModel.finished(project).secondsSinceEpoch))
            for entry in archive { #expect(entry.fileAttributes[.modificationDate] as? Date == finished, "\(file.path) \(entry.path)") }
        }
    }

    /// The chapter text is rewritten on its UTF-8 bytes: forbidden characters go (DEL and
    /// U+FFFD stay), only the tags that change are rewritten, and text right after a tag stays
    /// even when it starts with a combining mark (on Characters, `>` and the mark were one
    /// Character, and the text up to the next `>` went with the `<br>`).
    @Test func chapterTextIsRewrittenOnItsBytes() {
        #expect(EpubXHTML.body("<p>a\u{1}b\u{FFFE}c\u{FFFF}d\u{7F}e\u{FFFD}\u{0}</p>") == "<p>abcd\u{7F}e\u{FFFD}</p>")
        #expect(EpubXHTML.body("<p>x<br>\u{301}y <em>\u{301}z</em></p>") == "<p>x<br />\u{301}y <em>\u{301}z</em></p>")
        #expect(EpubXHTML.body("<P>a<HR><IMG src=\"x.png\" alt=\"A &amp; B\" /></P>") == "<P>a<hr />A &amp; B</P>")
        #expect(
            EpubXHTML.body("<p><a href=\"../x.html\">\u{301}site</a> <a href=\"https://e.org/\">web</a></p>")
                == "<p>\u{301}site <a href=\"https://e.org/\">web</a></p>")
        #expect(EpubXHTML.body("<p>1 < 2</p") == "<p>1 &lt; 2&lt;/p")
        // A mark after an image or a link's end, or a Prepend character before a tag: on
        // Characters the `>` or the `<` went unseen, and text or the image itself stayed.
        #expect(EpubXHTML.body("<p><img src=\"x\" alt=\"a\" />\u{301}b</p>") == "<p>a\u{301}b</p>")
        #expect(EpubXHTML.body("<p>\u{600}<img src=\"x.png\" alt=\"alt\" /> a\u{600}<a href=\"foo.html\">link</a></p>") == "<p>\u{600}alt a\u{600}link</p>")
        #expect(EpubXHTML.body("<blockquote>\n<p>é—ß</p>\n</blockquote>\n<!-- raw HTML omitted -->") == "<blockquote>\n<p>é—ß</p>\n</blockquote>\n<!-- raw HTML omitted -->")
    }

    /// `body` hands only the tags `mayChange` picks to `rewrite`: every other tag must be one
    /// `rewrite` leaves as it is, with no `<a>` opened or closed. Tried on tags of ASCII, case,
    /// marks, Prepend characters and letters that lowercase to ASCII.
    @Test func onlyTagsThatMayChangeGoThroughRewrite() {
        let parts = ["a", "A", "img", "IMG", "br", "Br", "hr", "b", "p", "em", "abbr", "h1", "image", "/", "!", "-", " ", "\"", "=",
            "\u{301}", "\u{600}", "\u{200D}", "\u{212A}", "\u{130}", "\u{17F}", "\u{430}", "\u{FF41}", "href", "alt"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let tag = "<" + (0..<Int.random(in: 1...4, using: &random)).map { _ in parts.randomElement(using: &random)! }.joined() + ">"
            guard !EpubXHTML.mayChange(ArraySlice(tag.utf8)) else { continue }
            var unwrapped: [Bool] = [true]
            #expect(EpubXHTML.rewrite(tag, unwrapped: &unwrapped) == tag, "\(tag.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(unwrapped == [true], "\(tag)")
        }
    }

    /// A rebuild keeps a book whose inputs are unchanged (it comes as the previous site's file),
    /// and makes it again when they change. The book depends on the system's zlib as pages do on
    /// libcmark: its version is among the inputs.
    @Test func aBookWhoseInputsAreUnchangedIsKept() throws {
        let content = Self.story()
        let site = SiteModel(content: content, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html, projectKeys: [Slug("tale")!: "files"])
        let first = try EpubBooks(site: site).files()
        let fingerprints = Dictionary(uniqueKeysWithValues: first.compactMap { file in file.fingerprint.map { (file.path, $0) } })
        #expect(fingerprints.count == 1)
        let memory = PageMemory(fingerprints: fingerprints, isIntact: { _ in true })
        #expect(try EpubBooks(site: site).files(memory: memory).map(\.keepsPrevious) == [true])
        var renamed = content
        renamed.users[Self.bo]?.name = "Bo Ray Jr"
        let other = SiteModel(content: renamed, now: Self.now, evidence: IdentityEvidence(), html: Markdown.html, projectKeys: [Slug("tale")!: "files"])
        #expect(try EpubBooks(site: other).files(memory: memory).map(\.keepsPrevious) == [false])
        #if os(Linux)
            #expect(EpubBook.deflateVersion.hasPrefix("zlib 1."))
        #endif
    }

    @Test func everythingPlayersWriteIsEscapedInEveryFile() throws {
        var content = Self.story(lastBody: Self.payload + "\n\n`" + Self.payload + "`\n\n[x](javascript:alert(1))")
        content.projects[0].title = Self.payload
        content.users[Handle("bo")!]?.name = Self.payload
        content.config.title = Self.payload
        let files = try Self.entries(content)
        for (path, text) in files {
            #expect(!text.contains("<script") && !text.contains("<img") && !text.lowercased().contains("javascript:"), "\(path)")
        }
        for path in ["content.opf", "title.xhtml", "chapter-0001.xhtml", "chapter-0002.xhtml", "credits.xhtml"] {
            #expect(try #require(files["OEBPS/\(path)"]).contains("&lt;script&gt;"), "\(path) shows the text, escaped")
        }
    }

    /// When epubcheck is installed (Debian: `apt-get install epubcheck`), the book must pass it with
    /// no errors and no warnings. Skipped where it is not installed, so the suite runs anywhere.
    @Test(.enabled(if: EpubcheckProgram.command != nil, "epubcheck is not installed"))
    func epubcheckAcceptsTheBook() throws {
        let command = try #require(EpubcheckProgram.command)
        let body = """
            *At* last -- "done".

            ![gone](https://example.org/a.png) [web](https://example.org/) [site](x.html) <b>raw</b>

            ***

            line\\
            break

            ```swift
            let x = 1 < 2
            ```
            """
        var content = Self.story(lastBody: body)
        content.projects[0].title = Self.payload
        let bytes = try #require(try Self.books(content).values.first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epubcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("tale.epub")
        try Data(bytes).write(to: book)
        let (status, output) = try EpubcheckProgram.run(command, book.path)
        #expect(status == 0, "\(output)")
        #expect(!output.contains("WARNING") && !output.contains("ERROR") && !output.contains("FATAL"), "\(output)")
    }

    // MARK: - Content

    static let ann = Handle("ann")!, bo = Handle("bo")!

    /// A finished story: Ann's opening, then Bo's and Ann's winning snippets of its two rounds.
    static func story(lastBody: String = "At last.") -> Content {
        let origin = Origin(path: "x")
        let users = [
            ann: User(handle: ann, name: "Ann Lee", joined: Timestamp(secondsSinceEpoch: 0), origin: origin),
            bo: User(handle: bo, name: "Bo Ray", joined: Timestamp(secondsSinceEpoch: 0), origin: origin),
        ]
        return Content(config: Config.defaults(), users: users, projects: [project(slug: "tale", lastBody: lastBody)])
    }

    static func project(slug: String, lastBody: String) -> Project {
        let origin = Origin(path: "x")
        let start = Timestamp(iso8601: "2026-02-01T09:30:00Z")!
        let week = TimeSpan("7d")!
        func round(_ number: Int, _ author: Handle, _ body: String) -> Round {
            let opened = Timestamp(secondsSinceEpoch: start.secondsSinceEpoch + Int64(number - 1) * week.seconds)
            let id = SubmissionID(author: author, time: opened + TimeSpan(seconds: 60)!)
            let other = SubmissionID(author: author == ann ? bo : ann, time: opened + TimeSpan(seconds: 120)!)
            return Round(
                number: RoundNumber(number)!, opened: opened, closes: opened + week, closed: opened + week, winner: id,
                submissions: [
                    Submission(id: id, author: author, submitted: id.time, body: body, origin: origin),
                    Submission(id: other, author: other.author, submitted: other.time, body: "Lost.", origin: origin),
                ], origin: origin)
        }
        return Project(
            slug: Slug(slug)!, title: "A Tale", owner: ann, created: start, roundLimit: 2, roundLength: week,
            starter: "Once upon a time.", rounds: [round(1, bo, "Then it rained."), round(2, ann, lastBody)], origin: origin)
    }

    // MARK: - Reading books

    /// Each book's bytes by path.
    static func books(_ content: Content, now: Timestamp = now) throws -> [String: [UInt8]] {
        let site = SiteModel(content: content, now: now, evidence: IdentityEvidence(), html: Markdown.html)
        return Dictionary(uniqueKeysWithValues: try EpubBooks(site: site).files().map { ($0.path, $0.contents) })
    }

    /// The files inside the one book of `content`, as text.
    static func entries(_ content: Content) throws -> [String: String] {
        let bytes = try #require(try books(content).values.first)
        let archive = try Archive(data: Data(bytes), accessMode: .read)
        var files: [String: String] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            files[entry.path] = String(decoding: data, as: UTF8.self)
        }
        return files
    }

    /// Whether each string occurs in `text`, each after the one before.
    static func inOrder(_ parts: [String], in text: String) -> Bool {
        var rest = text[...]
        for part in parts {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}

/// The `epubcheck` on PATH, if any.
enum EpubcheckProgram {
    /// The command line that runs it. Debian installs it as a bare jar in /usr/bin that only runs
    /// by itself where binfmt_misc knows jars, so a jar is run with `java -jar`.
    static let command: [String]? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let file = "\(folder)/epubcheck"
            guard FileManager.default.isExecutableFile(atPath: file) else { continue }
            let head = FileManager.default.contents(atPath: file)?.prefix(2)
            return head == Data("PK".utf8) ? ["/usr/bin/env", "java", "-jar", file] : [file]
        }
        return nil
    }()

    /// Runs it on `book`: its exit status and everything it printed.
    static func run(_ command: [String], _ book: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + [book]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
