import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct FrontMatterTests {
    func split(_ text: String) throws -> FrontMatter {
        try FrontMatter.split(text, path: "a.md")
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try FrontMatter.split(text, path: "a.md")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func splitsYAMLAndBody() throws {
        let document = try split("---\nauthor: ann\nending: false\n---\nThe body.\n\nMore.\n")
        #expect(document.yaml == "author: ann\nending: false")
        #expect(document.yamlFirstLine == 2)
        #expect(document.body == "The body.\n\nMore.")
    }

    @Test func dropsAByteOrderMark() throws {
        let document = try split("\u{FEFF}---\na: 1\n---\nBody")
        #expect(document.yaml == "a: 1")
        #expect(document.body == "Body")
    }

    @Test func normalizesCRLFAndCR() throws {
        let crlf = try split("---\r\na: 1\r\nb: 2\r\n---\r\nLine 1\r\n\r\nLine 2\r\n")
        #expect(crlf.yaml == "a: 1\nb: 2")
        #expect(crlf.body == "Line 1\n\nLine 2")
        #expect(!crlf.body.unicodeScalars.contains("\r"))
        let cr = try split("---\ra: 1\r---\rLine 1\rLine 2")
        #expect(cr.yaml == "a: 1")
        #expect(cr.body == "Line 1\nLine 2")
        #expect(FrontMatter.normalize("\u{FEFF}a\r\nb\rc\n") == "a\nb\nc\n")
        #expect(FrontMatter.normalize("no change\n") == "no change\n")
    }

    @Test func fencesMayHaveTrailingSpaces() throws {
        let document = try split("--- \t\na: 1\n---  \nBody")
        #expect(document.yaml == "a: 1")
        #expect(document.body == "Body")
    }

    @Test(arguments: ["", "Just text\n", "a: 1\n---\n", "----\na: 1\n----\n", " ---\na: 1\n---\n", "\n---\na: 1\n---\n"])
    func missingOpeningFenceIsAnErrorAtTheStart(_ text: String) {
        #expect(failure(text) == "a.md:1:1: error: expected front matter: a first line '---', then YAML, then '---'")
    }

    @Test func unclosedFrontMatterIsAnError() {
        #expect(failure("---\na: 1\nb: 2") == "a.md:3:1: error: front matter is not closed by a line '---'")
        #expect(failure("---") == "a.md:1:1: error: front matter is not closed by a line '---'")
        #expect(failure("---\na: 1\n----\nBody") == "a.md:4:1: error: front matter is not closed by a line '---'")
    }

    @Test func emptyFrontMatterAndEmptyBody() throws {
        let document = try split("---\n---\n")
        #expect(document.yaml == "")
        #expect(document.body == "")
    }

    @Test func laterFencesBelongToTheBody() throws {
        let document = try split("---\na: 1\n---\nAbove\n\n---\n\nBelow\n")
        #expect(document.body == "Above\n\n---\n\nBelow")
    }

    @Test func trimsBlankLinesAroundTheBodyOnly() throws {
        let document = try split("---\na: 1\n---\n\n  \n\t\n    indented code\n\n\nlast line  \n \n\n")
        #expect(document.body == "    indented code\n\n\nlast line  ")
        #expect(FrontMatter.trimBody("\n\n") == "")
        #expect(FrontMatter.trimBody(" a \n") == " a ")
    }

    @Test func joinWritesFencesAndABlankLineBeforeTheBody() throws {
        #expect(FrontMatter.join(yaml: "a: 1\n", body: "Body") == "---\na: 1\n---\n\nBody\n")
        #expect(FrontMatter.join(yaml: "a: 1", body: "\n\nBody\n\n") == "---\na: 1\n---\n\nBody\n")
        #expect(FrontMatter.join(yaml: "a: 1\n", body: "") == "---\na: 1\n---\n")
        let joined = FrontMatter.join(yaml: "a: 1\n", body: "One\n\nTwo")
        let back = try split(joined)
        #expect(back.yaml == "a: 1")
        #expect(back.body == "One\n\nTwo")
    }
}
