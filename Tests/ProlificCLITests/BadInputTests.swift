import Foundation
import Testing

/// Every mistake gets one clear line, a non-zero exit, and no change to the content directory.
@Suite struct BadInputTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
        for handle in ["ann", "bo"] {
            _ = try run("user", "add", handle, "--name", handle.capitalized, now: "2026-01-01T00:00:00Z")
        }
        _ = try run(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "2d",
            now: "2026-01-01T00:00:00Z", input: "Start.")
        _ = try run("submit", "moon", "--author", "bo", now: "2026-01-01T01:00:00Z", input: "Bo's.")
    }

    func run(_ arguments: String..., now: String = "2026-01-01T02:00:00Z", input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url, input: input)
    }

    /// Runs a command that must fail: one line on standard error containing `message`, exit ≠ 0, nothing changed.
    func expectRefused(
        _ arguments: [String], now: String = "2026-01-01T02:00:00Z", input: String = "x", saying message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let before = try folder.snapshot("game/Content")
        let result = try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url, input: input)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(try folder.snapshot("game/Content") == before, "the content changed", sourceLocation: sourceLocation)
    }

    @Test func theTopLevelHelpIsWrappedAsOneParagraph() throws {
        let help = try CLI.run(["--help"], in: folder.url)
        #expect(help.status == 0)
        #expect(help.stdout.contains("Each round, contributors submit snippets"))
        #expect(!help.stdout.contains("and vote;\n"), "a line break in the source, not where the text wraps: \(help.stdout)")
    }

    @Test func badArguments() throws {
        try expectRefused(["user", "add", "Ann!", "--name", "A"], saying: "'Ann!' is not a handle")
        try expectRefused(["user", "add", "../x", "--name", "A"], saying: "is not a handle")
        try expectRefused(["submit", "Moon", "--author", "bo"], saying: "'Moon' is not a project slug")
        try expectRefused(["status"], now: "yesterday", saying: "'yesterday' is not an ISO 8601 time")
        try expectRefused(
            ["project", "new", "sun", "--title", "Sun", "--owner", "ann", "--round-length", "7x"],
            saying: "'7x' is not a length like 90m")
        try expectRefused(["project", "new", "sun", "--title", "Sun", "--owner", "ann", "--rounds", "0"], saying: "--rounds must be from 1")
        try expectRefused(["close", "moon", "--due"], saying: "either a PROJECT or --due")
        try expectRefused(["vote", "moon", "--voter", "ann"], saying: "at least one submission id")
        try expectRefused(["user", "add", "cy", "--name", "  "], saying: "the name must not be empty")
        try expectRefused(["project", "new", "sun", "--title", "Sun", "--owner", "ann"], input: "  \n", saying: "the starter text is empty")
    }

    @Test func avatarsAreImagesOfTheKindsTheSiteCopies() throws {
        try folder.write("<svg onload='x'/>", to: "evil.svg")
        try folder.write("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>", to: "disguised.png")
        try folder.writePNG(to: "huge.png", padding: 2 << 20)
        try expectRefused(["user", "add", "cy", "--name", "Cy", "--avatar", "evil.svg"], saying: "the avatar must be a PNG, JPEG")
        try expectRefused(["user", "add", "cy", "--name", "Cy", "--avatar", "disguised.png"], saying: "the avatar is not a PNG image")
        try expectRefused(["user", "add", "cy", "--name", "Cy", "--avatar", "huge.png"], saying: "images may be at most 2 MiB")
        try expectRefused(["user", "add", "cy", "--name", "Cy", "--avatar", "missing.png"], saying: "cannot read --avatar 'missing.png'")
        let picture = try folder.writePNG(to: "cy.PNG")
        try expectRefused(["user", "add", "ann", "--name", "Again", "--avatar", "cy.PNG"], saying: "user 'ann' already exists")
        let added = try run("user", "add", "cy", "--name", "Cy", "--avatar", "cy.PNG")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("game/Content/users/cy.png")) == picture)
        #expect(try folder.read("game/Content/users/cy.md").contains("avatar: cy.png"))
        let built = try run("build", "--out", "game/Site")
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("game/Site/users/cy.png")) == picture, "the picture is copied into the site")
        #expect(try folder.read("game/Site/users/cy/index.html").contains("src=\"../../users/cy.png\""))
    }

    @Test func brokenRules() throws {
        try expectRefused(["user", "add", "ann", "--name", "Again"], saying: "user 'ann' already exists")
        try expectRefused(["project", "new", "moon", "--title", "Again", "--owner", "ann"], saying: "project 'moon' already exists")
        try expectRefused(["project", "new", "sun", "--title", "Sun", "--owner", "nobody"], saying: "unknown user 'nobody'")
        try expectRefused(["submit", "mars", "--author", "bo"], saying: "unknown project 'mars'")
        try expectRefused(["submit", "moon", "--author", "nobody"], saying: "unknown user 'nobody'")
        try expectRefused(["submit", "moon", "--author", "bo"], saying: "@bo already submitted 'bo-20260101010000' to round 1")
        try expectRefused(["submit", "moon", "--author", "ann"], now: "2026-01-03T00:00:00Z", saying: "stopped taking entries at its deadline")
        try expectRefused(["vote", "moon", "--voter", "bo", "bo-20260101010000"], saying: "@bo cannot vote for their own snippet")
        try expectRefused(["vote", "moon", "--voter", "ann", "bo-20260101010001"], saying: "'bo-20260101010001' is not a submission of round 1")
        try expectRefused(["vote", "moon", "--voter", "ann", "nonsense"], saying: "'nonsense' is not a submission id")
        try expectRefused(
            ["vote", "moon", "--voter", "ann", "bo-20260101010000", "bo-20260101010000"], saying: "is named twice")
        try expectRefused(["user", "add", "cy", "--name", "Cy"], now: "2026-13-01T00:00:00Z", saying: "is not an ISO 8601 time")
    }

    @Test func closingARoundWithoutSubmissionsIsAnErrorButDueExtendsIt() throws {
        _ = try run(
            "project", "new", "sun", "--title", "Sun", "--owner", "ann", "--round-length", "2d", input: "Start.")
        try expectRefused(["close", "sun"], saying: "has no submissions to choose from")
        let extended = try run("close", "--due", now: "2026-01-06T00:00:00Z")
        #expect(extended.stdout.contains("Extended round 1 of 'sun' to 2026-01-07T02:00:00Z"), "\(extended.stdout)")
        let round = try folder.read("game/Content/projects/sun/rounds/0001/round.md")
        #expect(round.contains("extended:\n- at: 2026-01-06T00:00:00Z\n  from: 2026-01-03T02:00:00Z"))
    }

    @Test func notAContentDirectory() throws {
        let result = try CLI.run(["status", "--content", "nowhere"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("nowhere/prolific.yml:1:1: error: no prolific.yml here"))
    }

    @Test func brokenFileIsReportedWithItsLineAndNothingChanges() throws {
        try folder.write("voter: ann\ncast: 2026-01-01T02:00:00Z\nfor: [bo-20260101010000\n", to: "game/Content/projects/moon/rounds/0001/votes/ann.yml")
        try expectRefused(
            ["vote", "moon", "--voter", "ann", "bo-20260101010000"],
            saying: "game/Content/projects/moon/rounds/0001/votes/ann.yml:4:1: error: invalid YAML")
    }
}
