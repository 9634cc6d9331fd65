import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct UserFileTests {
    static let path = "Content/users/ann.md"

    func parse(_ text: String) throws(Diagnostics) -> User {
        try UserFile.parse(text, path: Self.path, handle: Make.handle("ann"))
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    @Test func parsesAProfile() throws {
        let user = try parse(
            """
            ---
            name: Ann Example
            joined: 2026-10-01T00:00:00Z
            follows:
              projects: [moon, sun]
              users: [bob]
            avatar: ann.png
            links:
            - title: Blog
              url: https://ann.example
            ---

            Ann writes *short* things.

            """)
        #expect(user.handle == Make.handle("ann"))
        #expect(user.name == "Ann Example")
        #expect(user.joined == Make.time("2026-10-01T00:00:00Z"))
        #expect(user.follows == User.Follows(projects: [Make.slug("moon"), Make.slug("sun")], users: [Make.handle("bob")]))
        #expect(user.avatar == "ann.png")
        #expect(user.links == [User.Link(title: "Blog", url: "https://ann.example")])
        #expect(user.bio == "Ann writes *short* things.")
        #expect(user.origin.path == Self.path)
        #expect(user.origin.position(of: "follows.projects.1") == TextPosition(line: 5, column: 20))
        #expect(user.origin.position(of: "follows.users.0") == TextPosition(line: 6, column: 11))
    }

    @Test func onlyNameAndJoinedAreRequired() throws {
        let user = try parse("---\nname: Bo\njoined: 2026-10-01\n---\n")
        #expect(user.follows.isEmpty && user.links.isEmpty && user.avatar == nil && user.bio == "")
    }

    @Test func unknownKey() {
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nwebsite: https://ann.example\n---\n")
                == ["\(Self.path):4:1: error: unknown key 'website'"])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nfollows:\n  people: [bob]\n---\n")
                == ["\(Self.path):5:3: error: unknown key 'people'"])
    }

    @Test func missingRequiredKeys() {
        #expect(
            errors("---\nnmae: Ann\n---\nBio\n")
                == [
                    "\(Self.path):1:1: error: missing required key 'name'",
                    "\(Self.path):1:1: error: missing required key 'joined'",
                    "\(Self.path):2:1: error: unknown key 'nmae'",
                ])
    }

    @Test func wrongTypes() {
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nfollows: [moon]\nlinks: https://ann.example\n---\n")
                == [
                    "\(Self.path):4:10: error: 'follows' must be keys and values, found a list",
                    "\(Self.path):5:8: error: 'links' must be a list, found 'https://ann.example'",
                ])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nfollows:\n  projects: [moon, The-Sun]\n  users: bob\n---\n")
                == [
                    "\(Self.path):5:20: error: item 2 of 'projects' must be a project slug, found 'The-Sun'",
                    "\(Self.path):6:10: error: 'users' must be a list, found 'bob'",
                ])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nlinks:\n- https://ann.example\n---\n")
                == ["\(Self.path):5:3: error: item 1 of 'links' must be keys and values"])
    }

    @Test func invalidTimestamp() {
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01T00:00:00+02:00\n---\n")
                == ["\(Self.path):3:9: error: 'joined' must be an ISO 8601 time in UTC like 2026-11-22T13:00:00Z, found '2026-10-01T00:00:00+02:00'"])
    }

    @Test func emptyName() {
        #expect(errors("---\nname: ' '\njoined: 2026-10-01\n---\n") == ["\(Self.path):2:7: error: 'name' must not be empty"])
    }

    @Test func duplicateKey() {
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nname: Bo\n---\n")
                == ["\(Self.path):2:1: error: invalid YAML: duplicate key 'name'"])
    }

    @Test func invalidYAML() {
        #expect(
            errors("---\nname: Ann\n  joined: 2026-10-01\n---\n")
                == ["\(Self.path):3:9: error: invalid YAML: mapping values are not allowed in this context"])
    }

    @Test func missingFrontMatter() {
        #expect(errors("name: Ann\n") == ["\(Self.path):1:1: error: expected front matter: a first line '---', then YAML, then '---'"])
    }

    @Test(arguments: ["yes", "null", "123", "a: b", "Zoë Ünal", "true", "~", "@ann", "[x]"])
    func roundTrips(_ name: String) throws {
        let user = User(
            handle: Make.handle("ann"), name: name, joined: Make.time("2026-10-01T12:30:00Z"),
            follows: User.Follows(projects: [Make.slug("null"), Make.slug("123")], users: [Make.handle("yes")]),
            avatar: name, links: [User.Link(title: name, url: "https://ann.example/?q=a: b")],
            bio: "Ann — über *alles*.\n\n---\n\nStill the bio.", origin: Origin(path: Self.path))
        let text = try UserFile.render(user)
        var back = try parse(text)
        back.origin = user.origin
        #expect(back == user)
        #expect(try UserFile.render(back) == text)
    }
}
