import ProlificCore

/// The files inside an EPUB book, written out directly: their shape is fixed by the EPUB spec, not
/// by a theme. Every value from players passes through `XML.escape`; chapter text is already XHTML.
extension EpubBook {
    /// A file inside the book, such as `OEBPS/nav.xhtml`.
    struct Entry {
        let path: String
        let text: String
    }

    /// Every file of the book in zip order: `mimetype` first, as the OCF spec requires.
    var entries: [Entry] {
        [
            Entry(path: "mimetype", text: "application/epub+zip"),
            Entry(path: "META-INF/container.xml", text: Self.container),
            Entry(path: "OEBPS/content.opf", text: package),
            Entry(path: "OEBPS/title.xhtml", text: titlePage),
            Entry(path: "OEBPS/nav.xhtml", text: navigation),
        ]
            + chapters.map { Entry(path: "OEBPS/\($0.file)", text: page($0)) }
            + [
                Entry(path: "OEBPS/credits.xhtml", text: credits),
                Entry(path: "OEBPS/style.css", text: Self.style),
            ]
    }

    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>

        """

    /// The package document: what the book is, what it holds, and its reading order.
    var package: String {
        let creators = contributors.enumerated().map { index, contributor in
            """
                <dc:creator id="creator-\(index + 1)">\(XML.escape(contributor.name))</dc:creator>
                <meta refines="#creator-\(index + 1)" property="role" scheme="marc:relators">aut</meta>

            """
        }
        let documents = ["title.xhtml", "nav.xhtml"] + chapters.map(\.file) + ["credits.xhtml"]
        let items = documents.map { file in
            let properties = file == "nav.xhtml" ? " properties=\"nav\"" : ""
            return "    <item id=\"\(Self.id(file))\" href=\"\(file)\" media-type=\"application/xhtml+xml\"\(properties)/>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="en">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="book-id">\(identifier)</dc:identifier>
                <dc:title>\(XML.escape(title))</dc:title>
                <dc:language>en</dc:language>
            \(creators.joined())    <dc:publisher>\(XML.escape(siteTitle))</dc:publisher>
                <meta property="dcterms:modified">\(finished.iso8601)</meta>
              </metadata>
              <manifest>
            \(items.joined())    <item id="style" href="style.css" media-type="text/css"/>
              </manifest>
              <spine>
            \(documents.map { "    <itemref idref=\"\(Self.id($0))\"/>\n" }.joined())  </spine>
            </package>

            """
    }

    /// `chapter-0003.xhtml` → `chapter-0003`: every file name starts with a letter, so it is an XML id.
    static func id(_ file: String) -> String { String(file.dropLast(".xhtml".count)) }

    var titlePage: String {
        Self.document(
            title: title,
            body: """
                <section epub:type="titlepage" class="title-page">
                <h1>\(XML.escape(title))</h1>
                <p class="authors">by \(XML.escape(Self.list(contributors.map(\.name))))</p>
                <p>A story written together on \(XML.escape(siteTitle)), finished \(Display.date(finished)).</p>
                </section>
                """)
    }

    var navigation: String {
        let links = chapters.map { "<li><a href=\"\($0.file)\">\($0.label)</a></li>\n" }.joined()
        return Self.document(
            title: "Contents",
            body: """
                <nav epub:type="toc" id="toc">
                <h1>Contents</h1>
                <ol>
                <li><a href="title.xhtml">Title page</a></li>
                \(links)<li><a href="credits.xhtml">Credits</a></li>
                </ol>
                </nav>
                <nav epub:type="landmarks" hidden="hidden">
                <ol>
                <li><a epub:type="toc" href="nav.xhtml">Contents</a></li>
                <li><a epub:type="bodymatter" href="\(chapters.first?.file ?? "credits.xhtml")">Start of the story</a></li>
                </ol>
                </nav>
                """)
    }

    func page(_ chapter: Chapter) -> String {
        Self.document(
            title: chapter.label,
            body: """
                <section epub:type="chapter">
                <h1>\(chapter.label)</h1>
                <p class="credit">Written by \(XML.escape(chapter.author))</p>
                \(chapter.xhtml)
                </section>
                """)
    }

    var credits: String {
        let names = contributors.map { contributor in
            "<li>\(XML.escape(contributor.name)) <span class=\"chapters\">(\(Self.list(contributor.chapters)))</span></li>\n"
        }
        return Self.document(
            title: "Credits",
            body: """
                <section epub:type="contributors">
                <h1>Credits</h1>
                <p>\(XML.escape(title)) was written together on \(XML.escape(siteTitle)), one chapter at a time: \
                players wrote snippets and voted, and each round’s winner became the next chapter.</p>
                <ul>
                \(names.joined())</ul>
                </section>
                """)
    }

    /// An XHTML content document around `body`, which must already be XHTML.
    static func document(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en">
        <head>
        <title>\(XML.escape(title))</title>
        <link rel="stylesheet" type="text/css" href="style.css"/>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// `Ann`, `Ann and Bo`, `Ann, Bo and Cy`.
    static func list(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// A few rules that leave the reading system's own fonts and margins alone.
    static let style = """
        h1 { margin: 2em 0 0.5em; text-align: center; }
        .credit, .authors { font-style: italic; text-align: center; }
        .credit { margin-bottom: 2em; }
        .title-page { text-align: center; }
        .chapters { font-size: 0.9em; }
        blockquote { margin: 1em 2em; }

        """
}
