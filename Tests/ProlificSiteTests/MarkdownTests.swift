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

    @Test func usesTheSystemLibcmark() {
        #expect(Markdown.version.split(separator: ".").count == 3)
    }
}
