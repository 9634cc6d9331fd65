import Foundation
import Testing

/// `new submission`, `new ballot`, `follow` and `unfollow`, run as a contributor would.
@Suite struct ContributorCommandTests {
    let folder: TemporaryFolder
    let round = "game/Content/projects/moon/rounds/0001"

    init() throws {
        folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
        for handle in ["ann", "bo", "cy"] {
            _ = try run("user", "add", handle, "--name", handle.capitalized, now: "2026-01-01T00:00:00Z")
        }
        _ = try run(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "2d",
            now: "2026-01-01T00:00:00Z", input: "Start.")
    }

    func run(_ arguments: String..., now: String = "2026-01-01T02:00:00Z", input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url, input: input)
    }

    /// A command that must fail with `message` on standard error and leave the content as it was.
    func expectRefused(
        _ arguments: [String], now: String = "2026-01-01T02:00:00Z", saying message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let before = try folder.snapshot("game/Content")
        let result = try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(try folder.snapshot("game/Content") == before, "the content changed", sourceLocation: sourceLocation)
    }

    @Test func newSubmissionWritesATemplateThatCheckRefusesUntilEdited() throws {
        let written = try run("new", "submission", "moon", "--author", "bo", now: "2026-01-01T01:00:00Z")
        #expect(written.status == 0, "\(written.stderr)")
        let path = "\(round)/submissions/bo-20260101010000.md"
        #expect(written.stdout == "\(path)\n")
        #expect(written.stderr.contains("Replace the placeholder line with your snippet"))
        let check = try run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(path):7:1: error: the snippet is still the placeholder of 'prolific new submission'"))

        // The contributor writes their snippet in place of the placeholder: check is happy.
        let template = try folder.read(path)
        try folder.write(template.replacing(#/TODO\(prolific\)[^\n]*/#, with: "The moon winked."), to: path)
        let edited = try run("check")
        #expect(edited.status == 0, "\(edited.stdout)")

        let withFile = try run("new", "submission", "moon", "--author", "cy", "--ending", "--file", "-", input: "The end.\n")
        #expect(withFile.stdout == "\(round)/submissions/cy-20260101020000.md\n")
        #expect(try folder.read("\(round)/submissions/cy-20260101020000.md").contains("ending: true\n---\n\nThe end.\n"))
        #expect(try run("check").status == 0)
    }

    @Test func newSubmissionFollowsTheRulesOfSubmit() throws {
        _ = try run("new", "submission", "moon", "--author", "bo", now: "2026-01-01T01:00:00Z")
        try expectRefused(["new", "submission", "moon", "--author", "bo"], saying: "error: @bo already submitted 'bo-20260101010000' to round 1")
        try expectRefused(["new", "submission", "moon", "--author", "nobody"], saying: "error: unknown user 'nobody'")
        try expectRefused(["new", "submission", "mars", "--author", "bo"], saying: "error: unknown project 'mars'")
        try expectRefused(
            ["new", "submission", "moon", "--author", "cy"], now: "2026-01-03T00:00:00Z", saying: "stopped taking entries at its deadline")
        try expectRefused(["new", "submission", "moon", "--author", "cy", "--file", "missing.md"], saying: "cannot read --file 'missing.md'")
    }

    @Test func newBallotWritesTheBallotOrSaysWhatToChoose() throws {
        _ = try run("submit", "moon", "--author", "bo", now: "2026-01-01T01:00:00Z", input: "Bo's.")
        try expectRefused(["new", "ballot", "moon", "--voter", "bo"], saying: "round 1 of 'moon' has no snippets @bo may vote for")
        _ = try run("submit", "moon", "--author", "cy", now: "2026-01-01T01:30:00Z", input: "Cy's.")
        // Without ids it is a question: the ids one may choose on standard output, nothing written.
        let before = try folder.snapshot("game/Content")
        let choices = try run("new", "ballot", "moon", "--voter", "ann")
        #expect(choices.status == 0, "\(choices.stderr)")
        #expect(Set(choices.stdout.split(separator: "\n")) == ["bo-20260101010000", "cy-20260101013000"])
        #expect(choices.stderr.contains("The snippets @ann may approve in round 1 of 'moon'; name one or more"))
        #expect(try folder.snapshot("game/Content") == before)
        #expect(try run("new", "ballot", "moon", "--voter", "bo").stdout == "cy-20260101013000\n")
        try expectRefused(["new", "ballot", "moon", "--voter", "ann"], now: "2026-01-03T00:00:00Z", saying: "stopped taking")
        try expectRefused(["new", "ballot", "moon", "--voter", "nobody"], saying: "error: unknown user 'nobody'")
        try expectRefused(["new", "ballot", "moon", "--voter", "bo", "bo-20260101010000"], saying: "@bo cannot vote for their own snippet")
        try expectRefused(["new", "ballot", "moon", "--voter", "ann", "cy-20260101010000"], saying: "'cy-20260101010000' is not a submission of round 1")

        let written = try run("new", "ballot", "moon", "--voter", "ann", "bo-20260101010000")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "\(round)/votes/ann.yml\n")
        #expect(try folder.read("\(round)/votes/ann.yml") == "voter: ann\ncast: 2026-01-01T02:00:00Z\nfor:\n- bo-20260101010000\n")
        let again = try run("new", "ballot", "moon", "--voter", "ann")
        #expect(again.status == 0 && again.stdout == choices.stdout)
        #expect(again.stderr.contains("@ann already has a ballot in round 1 of 'moon': edit the 'for' list of \(round)/votes/ann.yml"))
        try expectRefused(
            ["new", "ballot", "moon", "--voter", "ann", "bo-20260101010000"],
            saying: "\(round)/votes/ann.yml:1:1: error: @ann already has a ballot in round 1 of 'moon'; edit this file")
        #expect(try run("check").status == 0)
    }

    @Test func followAndUnfollowEditTheProfile() throws {
        let followed = try run("follow", "ann", "--project", "moon")
        #expect(followed.stdout == "@ann now follows project 'moon'.\n")
        #expect(try run("follow", "ann", "--user", "bo").stdout == "@ann now follows @bo.\n")
        #expect(try folder.read("game/Content/users/ann.md").contains("follows:\n  projects: [moon]\n  users: [bo]\n"))
        let again = try run("follow", "ann", "--user", "bo")
        #expect(again.status == 0 && again.stdout == "@ann already follows @bo; nothing changed.\n")
        #expect(try run("unfollow", "ann", "--user", "bo").stdout == "@ann no longer follows @bo.\n")
        let missing = try run("unfollow", "ann", "--user", "bo")
        #expect(missing.status == 0 && missing.stdout == "@ann does not follow @bo; nothing changed.\n")
        #expect(try folder.read("game/Content/users/ann.md").contains("follows:\n  projects: [moon]\n---"))
        #expect(try run("check").status == 0)

        try expectRefused(["follow", "ann", "--user", "ann"], saying: "error: @ann cannot follow themselves")
        try expectRefused(["follow", "ann", "--project", "mars"], saying: "error: unknown project 'mars'")
        try expectRefused(["follow", "ann", "--user", "dee"], saying: "error: unknown user 'dee'")
        try expectRefused(["follow", "dee", "--user", "ann"], saying: "error: unknown user 'dee'")
        try expectRefused(["follow", "ann"], saying: "name what to follow: --project SLUG or --user HANDLE")
        try expectRefused(["follow", "ann", "--user", "bo", "--project", "moon"], saying: "give either --project or --user, not both")
        try expectRefused(["unfollow", "ann", "--user", "Bo"], saying: "'Bo' is not a handle")
    }
}
