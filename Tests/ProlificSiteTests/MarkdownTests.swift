import ProlificCore
import Testing
@testable import ProlificSite

@Suite struct MarkdownTests {
    @Test func rendersCommonMarkWithSmartPunctuation() {
        #expect(Markdown.html("Hello *there* -- \"friend\"") == "<p>Hello <em>there</em> – “friend”</p>\n")
        #expect(Markdown.html("") == "")
        #expect(Markdown.html("> quoted\n\n- a\n- b") == "<blockquote>\n<p>quoted</p>\n</blockquote>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
    }

    @Test func staysInSafeModeForWhatPlayersWrite() {
        let html = Markdown.html("<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("onerror"))
        #expect(html.contains("<!-- raw HTML omitted -->"))
    }

    /// The byte scan that lets most bodies skip the page-aware renderer: it must never miss an
    /// image or a `data:` target, in any case, at either end of the text.
    @Test func theQuickScanFindsEveryImageAndDataLink() {
        for text in ["![a](b.png)", "x ![", "[a](DATA:x)", "[a](dAtA:x)", "data:", "é data: é", "[a]( data:image/png;base64,AA)"] {
            #expect(MarkdownScan.mayNeedRewriting(text), "\(text)")
        }
        for text in ["", "!", "[", "plain text", "! [a](b)", "[a](b)", "dat:a", "data :", "date:", "ata:", "datum: x", "d\u{0}ata:"] {
            #expect(!MarkdownScan.mayNeedRewriting(text), "\(text)")
        }
        #expect(MarkdownScan.mentionsData("x DaTa:y") && !MarkdownScan.mentionsData("![a](b.png)"))
        let bridged = String(decoding: Array("a ![b](c)".utf8), as: UTF8.self)
        #expect(MarkdownScan.mayNeedRewriting(bridged))
    }

    @Test func imagesAreDecidedOneByOneAndDataLinksUnwrapped() {
        let html = Markdown.html("![a](a.png) ![b](b.png) ![c](c.png) [d](data:image/png;base64,AAAA) [e](https://x.example)") {
            switch $0 {
            case "a.png": .source("../../a.png")
            case "b.png": .link("https://far.example/b.png")
            default: .text
            }
        }
        #expect(html == "<p><img src=\"../../a.png\" alt=\"a\" /> <a href=\"https://far.example/b.png\">b</a> c d <a href=\"https://x.example\">e</a></p>\n")
        #expect(Markdown.html("plain *text*") { _ in .text } == Markdown.html("plain *text*"))
    }

    @Test func escapingWorksOnBytesNotGraphemes() {
        #expect(HTMLEscaping.escape("a\"\u{301} onmouseover=x") == "a&quot;\u{301} onmouseover=x")
        #expect(HTMLEscaping.escape("x\u{600}\"'<&>") == "x\u{600}&quot;&#39;&lt;&amp;&gt;")
        #expect(HTMLEscaping.escape("café") == "café")
    }

    @Test func usesTheSystemLibcmark() {
        #expect(Markdown.version.split(separator: ".").count == 3)
    }
}
