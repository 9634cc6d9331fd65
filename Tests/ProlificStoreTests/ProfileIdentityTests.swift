import ProlificCore
import Testing

@testable import ProlificStore

/// A profile's `emails` and `forge`: the identities `check --since` accepts the player's files from.
@Suite struct ProfileIdentityTests {
    static let path = "Content/users/ann.md"

    func parse(_ text: String) throws(Diagnostics) -> User {
        try UserFile.parse(text, path: Self.path, handle: Make.handle("ann"))
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    @Test func emailsAndForgeAreReadAndWrittenBack() throws {
        let text = "---\nname: Ann\njoined: 2026-10-01T00:00:00Z\nemails: [ann@example.org, Ann@Work.example]\nforge: ann-gh\n---\n"
        let user = try parse(text)
        #expect(user.emails == ["ann@example.org", "Ann@Work.example"])
        #expect(user.forge == "ann-gh")
        #expect(user.origin.position(of: "emails.1") == TextPosition(line: 4, column: 27))
        #expect(try UserFile.render(user) == text)
    }

    @Test func bothAreOptionalAndWrittenOnlyWhenSet() throws {
        let user = try parse("---\nname: Ann\njoined: 2026-10-01T00:00:00Z\n---\n")
        #expect(user.emails == [] && user.forge == nil)
        let written = try UserFile.render(user)
        #expect(!written.contains("emails") && !written.contains("forge"))
    }

    @Test func badIdentitiesAreReportedWhereTheyAre() {
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nemails: [ann@example.org, ann at example.org]\n---\n")
                == [
                    "\(Self.path):4:27: error: item 2 of 'emails' must be \(GitIdentity.emailRule), found 'ann at example.org'"
                ])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nemails: ann@example.org\n---\n")
                == ["\(Self.path):4:9: error: 'emails' must be a list, found 'ann@example.org'"])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nforge: ann gh\n---\n")
                == ["\(Self.path):4:8: error: 'forge' must be \(GitIdentity.loginRule), found 'ann gh'"])
        #expect(
            errors("---\nname: Ann\njoined: 2026-10-01\nemail: ann@example.org\n---\n")
                == ["\(Self.path):4:1: error: unknown key 'email'"])
    }
}
