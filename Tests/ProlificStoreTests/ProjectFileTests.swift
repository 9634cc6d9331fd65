import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct ProjectFileTests {
    static let path = "Content/projects/moon/project.md"

    func parse(_ text: String) throws(Diagnostics) -> Project {
        try ProjectFile.parse(text, path: Self.path, slug: Make.slug("moon"))
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    /// A good project.md with `line` put in place of the line starting with the same key.
    func file(replacing key: String? = nil, with line: String? = nil, body: String = "The moon was late.") -> String {
        var lines = [
            "title: The Moon", "owner: ann", "created: 2026-11-01T00:00:00Z", "rounds: 5", "round-length: 1d12h",
            "tags: [space, night sky]", "status: open",
        ]
        if let key, let index = lines.firstIndex(where: { $0.hasPrefix(key + ":") }) {
            if let line { lines[index] = line } else { lines.remove(at: index) }
        } else if let line {
            lines.append(line)
        }
        return "---\n" + lines.joined(separator: "\n") + "\n---\n\n" + body + "\n"
    }

    @Test func parsesAProject() throws {
        let project = try parse(file(body: "The moon was late.\n\nNobody minded."))
        #expect(project.slug == Make.slug("moon"))
        #expect(project.title == "The Moon")
        #expect(project.owner == Make.handle("ann"))
        #expect(project.created == Make.time("2026-11-01T00:00:00Z"))
        #expect(project.roundLimit == 5)
        #expect(project.roundLength == Make.span("36h"))
        #expect(project.tags == ["space", "night sky"])
        #expect(project.status == .open)
        #expect(project.starter == "The moon was late.\n\nNobody minded.")
        #expect(project.rounds.isEmpty)
        #expect(project.origin.position(of: "owner") == TextPosition(line: 3, column: 8))
        #expect(project.origin.position(of: "status") == TextPosition(line: 8, column: 9))
        #expect(try parse(file(replacing: "tags", with: nil)).tags == [])
        #expect(try parse(file(replacing: "status", with: "status: complete")).status == .complete)
    }

    @Test func unknownKey() {
        #expect(errors(file(with: "titel: Moon")) == ["\(Self.path):9:1: error: unknown key 'titel'"])
    }

    @Test(arguments: ["title", "owner", "created", "rounds", "round-length", "status"])
    func missingRequiredKey(_ key: String) {
        #expect(errors(file(replacing: key, with: nil)) == ["\(Self.path):1:1: error: missing required key '\(key)'"])
    }

    @Test func wrongTypes() {
        #expect(errors(file(replacing: "rounds", with: "rounds: [5]")) == ["\(Self.path):5:9: error: 'rounds' must be a whole number from 1 to 9999, found a list"])
        #expect(errors(file(replacing: "rounds", with: "rounds: 10000")) == ["\(Self.path):5:9: error: 'rounds' must be a whole number from 1 to 9999, found '10000'"])
        #expect(errors(file(replacing: "rounds", with: "rounds: 2.5")) == ["\(Self.path):5:9: error: 'rounds' must be a whole number from 1 to 9999, found '2.5'"])
        #expect(errors(file(replacing: "title", with: "title: {a: b}")) == ["\(Self.path):2:8: error: 'title' must be a text, found keys and values"])
        #expect(errors(file(replacing: "tags", with: "tags: space")) == ["\(Self.path):7:7: error: 'tags' must be a list, found 'space'"])
        #expect(
            errors(file(replacing: "owner", with: "owner: Ann"))
                == ["\(Self.path):3:8: error: 'owner' must be a user's handle: lower-case letters, digits and '-', starting with a letter or digit, at most 39 characters, found 'Ann'"])
        #expect(
            errors(file(replacing: "round-length", with: "round-length: 7"))
                == ["\(Self.path):6:15: error: 'round-length' must be a length like 90m, 36h, 7d or 2w, found '7'"])
        #expect(errors(file(replacing: "status", with: "status: done")) == ["\(Self.path):8:9: error: 'status' must be 'open' or 'complete', found 'done'"])
    }

    @Test func badTags() {
        let long = String(repeating: "x", count: 41)
        #expect(
            errors(file(replacing: "tags", with: "tags: [ok, '  ', \(long)]"))
                == [
                    "\(Self.path):7:12: error: item 2 of 'tags' must be a tag (a short text), found '  '",
                    "\(Self.path):7:18: error: item 3 of 'tags' must be a tag (a short text), found '\(long)'",
                ])
    }

    @Test func invalidTimestamp() {
        #expect(
            errors(file(replacing: "created", with: "created: 2026-11-01T00:00:00.000Z"))
                == ["\(Self.path):4:10: error: 'created' must be an ISO 8601 time in UTC like 2026-11-22T13:00:00Z, found '2026-11-01T00:00:00.000Z'"])
    }

    @Test func emptyTitleAndStarter() {
        #expect(
            errors(file(replacing: "title", with: "title: \"\t\"", body: "  \n"))
                == [
                    "\(Self.path):2:8: error: 'title' must not be empty",
                    "\(Self.path):1:1: error: the starter text (the body after the front matter) is empty",
                ])
    }

    @Test func duplicateKey() {
        #expect(errors(file(with: "owner: bob")) == ["\(Self.path):3:1: error: invalid YAML: duplicate key 'owner'"])
    }

    @Test func invalidYAML() {
        #expect(errors(file(replacing: "tags", with: "tags: [space")) == ["\(Self.path):8:7: error: invalid YAML: did not find expected ',' or ']'"])
    }

    @Test func frontMatterProblems() {
        #expect(errors("The moon.\n") == ["\(Self.path):1:1: error: expected front matter: a first line '---', then YAML, then '---'"])
        #expect(errors("---\ntitle: The Moon\n") == ["\(Self.path):3:1: error: front matter is not closed by a line '---'"])
    }

    @Test(arguments: ["yes", "null", "123", "a: b", "Über den Mond — Teil 1", "No", "0x1F", "2026-11-01", "- x", "\"quoted\""])
    func roundTrips(_ title: String) throws {
        let project = Project(
            slug: Make.slug("moon"), title: title, owner: Make.handle("ann"), created: Make.time("2026-11-01T08:00:00Z"),
            roundLimit: 9999, roundLength: Make.span("90m"), tags: [title, "a, b", "null", "ünï"], status: .complete,
            starter: "Über *allem*.\n\n- a list\n\n---\n\nThe end.", origin: Origin(path: Self.path))
        let text = try ProjectFile.render(project)
        var back = try parse(text)
        back.origin = project.origin
        #expect(back == project)
        #expect(try ProjectFile.render(back) == text)
    }
}
