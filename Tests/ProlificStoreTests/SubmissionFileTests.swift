import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct SubmissionFileTests {
    static let folder = "Content/projects/moon/rounds/0001/submissions"

    func parse(_ text: String, id: String = "mary-jo-20261102101500") throws(Diagnostics) -> Submission {
        try SubmissionFile.parse(text, path: "\(Self.folder)/\(id).md", id: Make.id(id))
    }

    func errors(_ text: String, id: String = "mary-jo-20261102101500") -> [String]? {
        thrown { () throws(Diagnostics) in try parse(text, id: id) }
    }

    var path: String { "\(Self.folder)/mary-jo-20261102101500.md" }

    @Test func parsesASnippet() throws {
        let submission = try parse("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\nending: true\n---\n\nShe ran.\n\nThe end.\n")
        #expect(submission.id == Make.id("mary-jo-20261102101500"))
        #expect(submission.author == Make.handle("mary-jo"))
        #expect(submission.submitted == Make.time("2026-11-02T10:15:00Z"))
        #expect(submission.ending)
        #expect(submission.body == "She ran.\n\nThe end.")
        #expect(submission.origin.path == path)
        #expect(try !parse("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\n---\nText").ending)
    }

    @Test func authorMustMatchTheFileName() {
        #expect(
            errors("---\nauthor: ann\nsubmitted: 2026-11-02T10:15:00Z\n---\nText\n")
                == ["\(path):2:9: error: author 'ann' does not match the file name 'mary-jo-20261102101500.md'"])
    }

    @Test func submittedMustMatchTheFileName() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:01Z\n---\nText\n")
                == ["\(path):3:12: error: submitted 2026-11-02T10:15:01Z does not match the file name 'mary-jo-20261102101500.md' (2026-11-02T10:15:00Z)"])
    }

    @Test func unknownKey() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\nfinal: true\n---\nText\n")
                == ["\(path):4:1: error: unknown key 'final'"])
    }

    @Test func missingRequiredKeys() {
        #expect(
            errors("---\nauthor: mary-jo\n---\nText\n") == ["\(path):1:1: error: missing required key 'submitted'"])
        #expect(
            errors("---\nsubmitted: 2026-11-02T10:15:00Z\n---\nText\n") == ["\(path):1:1: error: missing required key 'author'"])
    }

    @Test func wrongTypes() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\nending: yes\n---\nText\n")
                == ["\(path):4:9: error: 'ending' must be true or false, found 'yes'"])
        #expect(
            errors("---\nauthor: [mary-jo]\nsubmitted: 2026-11-02T10:15:00Z\n---\nText\n")
                == ["\(path):2:9: error: 'author' must be a user's handle: lower-case letters, digits and '-', starting with a letter or digit, at most 39 characters, found a list"])
    }

    @Test func invalidTimestamp() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00\n---\nText\n")
                == ["\(path):3:12: error: 'submitted' must be an ISO 8601 time in UTC like 2026-11-22T13:00:00Z, found '2026-11-02T10:15:00'"])
    }

    @Test func emptyBody() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\n---\n\n \n")
                == ["\(path):1:1: error: the snippet (the body after the front matter) is empty"])
    }

    @Test func duplicateKey() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\nauthor: mary-jo\n---\nText\n")
                == ["\(path):2:1: error: invalid YAML: duplicate key 'author'"])
    }

    @Test func invalidYAML() {
        #expect(
            errors("---\nauthor: mary-jo\nsubmitted: 2026-11-02T10:15:00Z\n  ending: true\n---\nText\n")
                == ["\(path):4:9: error: invalid YAML: mapping values are not allowed in this context"])
    }

    @Test func frontMatterProblems() {
        #expect(errors("She ran.\n") == ["\(path):1:1: error: expected front matter: a first line '---', then YAML, then '---'"])
        #expect(errors("---\nauthor: mary-jo\n") == ["\(path):3:1: error: front matter is not closed by a line '---'"])
    }

    @Test(arguments: [
        "She ran.", "yes", "null", "123", "a: b", "Ünïcödé — „quotes“ 🌙", "---", "Line one\n\n---\n\nLine two",
        "    indented code first",
    ])
    func roundTrips(_ body: String) throws {
        for ending in [false, true] {
            let id = Make.id("mary-jo-20261102101500")
            let submission = Submission(
                id: id, author: id.author, submitted: id.time, ending: ending, body: body, origin: Origin(path: path))
            let text = try SubmissionFile.render(submission)
            var back = try parse(text)
            #expect(back.origin.path == submission.origin.path)
            back.origin = submission.origin
            #expect(back == submission)
        }
    }
}
