import Foundation
import Testing

/// `moderate hide/unhide/dismiss`, readers' reports and `user remove`, run as a maintainer would.
@Suite struct ModerationCommandTests {
    let folder: TemporaryFolder
    let content = "game/Content"

    /// ann owns `moon` (2-day rounds); bo and cy each submitted to round 1, and ann voted for bo's.
    init() throws {
        folder = try TemporaryFolder()
        _ = try CLI.run(["init", "game"], in: folder.url)
        for handle in ["ann", "bo", "cy", "di"] {
            _ = try run("user", "add", handle, "--name", handle.capitalized + " " + handle.uppercased(), now: "2026-01-01T00:00:00Z")
        }
        _ = try run(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--rounds", "3", "--round-length", "2d",
            now: "2026-01-01T00:00:00Z", input: "Start.")
        _ = try run("submit", "moon", "--author", "bo", now: "2026-01-01T01:00:00Z", input: "Bo's rude part.")
        _ = try run("submit", "moon", "--author", "cy", now: "2026-01-01T02:00:00Z", input: "Cy's kind part.")
        _ = try run("vote", "moon", "--voter", "ann", "bo-20260101010000", now: "2026-01-01T03:00:00Z")
    }

    @discardableResult
    func run(_ arguments: String..., now: String, input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", content, "--now", now], in: folder.url, input: input)
    }

    func expectRefused(
        _ arguments: [String], now: String = "2026-01-01T05:00:00Z", saying message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let before = try folder.snapshot(content)
        let result = try CLI.run(arguments + ["--content", content, "--now", now], in: folder.url)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(try folder.snapshot(content) == before, "the content changed", sourceLocation: sourceLocation)
    }

    /// Every file of the built site as text, by path (binary files left out).
    func siteText(_ site: String) throws -> [String: String] {
        try folder.snapshot(site).compactMapValues { String(data: $0, encoding: .utf8) }
    }

    @Test func aHiddenSnippetIsNotShownNotVotedForAndCannotWin() throws {
        let hid = try run(
            "moderate", "hide", "moon", "bo-20260101010000", "--by", "keeper", "--reason", "Insults another player.",
            now: "2026-01-01T04:00:00Z")
        #expect(hid.status == 0, "\(hid.stderr)")
        #expect(hid.stdout == "Hid 'bo-20260101010000' in round 1 of 'moon'.\n")
        try expectRefused(
            ["vote", "moon", "--voter", "di", "bo-20260101010000"],
            saying: "'bo-20260101010000' was hidden by a maintainer at 2026-01-01T04:00:00Z; it can't be voted for")

        let status = try run("status", now: "2026-01-01T05:00:00Z")
        #expect(
            status.stdout.contains("moon     1/3    2026-01-03T00:00:00Z  1         1        open"), "\(status.stdout)")
        #expect(
            status.stdout.hasSuffix(
                "\n\nHidden (1):\n  moon round 1: bo-20260101010000 by keeper at 2026-01-01T04:00:00Z: Insults another player.\n"),
            "\(status.stdout)")
        let detail = try run("status", "moon", now: "2026-01-01T05:00:00Z")
        #expect(detail.stdout.contains("  snippet cy-20260101020000\n  ballots from @ann"), "\(detail.stdout)")
        #expect(!detail.stdout.contains("snippet bo-20260101010000"))
        let json = try run("status", "--json", now: "2026-01-01T05:00:00Z")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let hidden = (report?["hidden"] as? [[String: Any]])?.first
        #expect(hidden?["by"] as? String == "keeper" && hidden?["at"] as? String == "2026-01-01T04:00:00Z")

        #expect(try run("build", "--out", "game/Site", now: "2026-01-01T05:00:00Z").status == 0)
        let site = try siteText("game/Site")
        #expect(site.values.contains { $0.contains("Cy’s kind part.") })
        #expect(!site.values.contains { $0.contains("rude part") }, "the hidden text is nowhere on the site")
        #expect(!site.values.contains { $0.contains("bo-20260101010000") })

        // Unhidden in the open round, it is back; hidden again, the close passes over it.
        #expect(try run("moderate", "unhide", "moon", "bo-20260101010000", now: "2026-01-01T06:00:00Z").status == 0)
        #expect(!(try run("status", now: "2026-01-01T06:00:00Z")).stdout.contains("Hidden"))
        #expect(
            try run(
                "moderate", "hide", "moon", "bo-20260101010000", "--by", "keeper", "--reason", "Insults, again.",
                now: "2026-01-01T07:00:00Z"
            ).status == 0)
        let closed = try run("close", "moon", now: "2026-01-02T00:00:00Z")
        #expect(closed.stdout.contains("'cy-20260101020000' wins"), "\(closed.stdout)")
        try expectRefused(
            ["moderate", "unhide", "moon", "bo-20260101010000"], now: "2026-01-02T01:00:00Z",
            saying: "was hidden before round 1 of 'moon' closed, and the tally left it out; it stays hidden")
        try expectRefused(
            ["moderate", "hide", "moon", "cy-20260101020000", "--by", "keeper", "--reason", "x"], now: "2026-01-02T01:00:00Z",
            saying: "'cy-20260101020000' won round 1 of 'moon'; a winner is part of the story and can't be hidden")
        let check = try run("check", now: "2026-01-02T01:00:00Z")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try run("build", "--out", "game/Site", now: "2026-01-02T01:00:00Z").status == 0)
        let roundPage = try folder.read("game/Site/projects/moon/rounds/0001.html")
        #expect(roundPage.contains("Cy’s kind part.") && !roundPage.contains("rude part") && !roundPage.contains("bo-2026"))
    }

    @Test func readersReportsFormTheQueue() throws {
        try folder.write("---\nproject: moon\nsnippet: bo-20260101010000\n---\nIt insults Cy.\n", to: "\(content)/reports/di-20260101040000.md")
        try folder.write(
            "---\nproject: moon\nround: 1\nsnippet: cy-20260101020000\n---\nToo kind?\nReally.\n", to: "\(content)/reports/ann-20260101041500.md")
        let check = try run("check", now: "2026-01-01T05:00:00Z")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let status = try run("status", now: "2026-01-01T05:00:00Z")
        #expect(
            status.stdout.hasSuffix(
                """

                Reports waiting (2); 'prolific moderate hide' or 'prolific moderate dismiss':
                  di-20260101040000 on moon bo-20260101010000: It insults Cy.
                  ann-20260101041500 on moon cy-20260101020000: Too kind?

                """), "\(status.stdout)")

        try expectRefused(["moderate", "dismiss", "ann-2026"], saying: "'ann-2026' is not a report id")
        try expectRefused(["moderate", "dismiss", "bo-20260101041500"], saying: "unknown report 'bo-20260101041500'")
        #expect(try run("moderate", "dismiss", "ann-20260101041500", now: "2026-01-01T05:00:00Z").status == 0)
        #expect(!folder.exists("\(content)/reports/ann-20260101041500.md"))
        #expect(
            try run("moderate", "hide", "moon", "bo-20260101010000", "--by", "di", "--reason", "Reported by di.", now: "2026-01-01T06:00:00Z")
                .status == 0)
        let settled = try run("status", now: "2026-01-01T06:00:00Z")
        #expect(!settled.stdout.contains("Reports waiting"), "hiding the snippet settles its report: \(settled.stdout)")

        try folder.write("---\nproject: sun\nsnippet: bo-20260101010000\n---\nWhat?\n", to: "\(content)/reports/cy-20260101050000.md")
        let broken = try run("check", now: "2026-01-01T06:00:00Z")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("reports/cy-20260101050000.md:2:10: error: unknown project 'sun'"), "\(broken.stdout)")
    }

    @Test func badModerationIsRefusedAndChangesNothing() throws {
        try expectRefused(["moderate", "hide", "moon", "bo-20260101010000", "--reason", "x"], saying: "Missing expected argument '--by")
        try expectRefused(["moderate", "hide", "moon", "bo-2026", "--by", "k", "--reason", "x"], saying: "'bo-2026' is not a submission id")
        try expectRefused(
            ["moderate", "hide", "moon", "bo-20260101010001", "--by", "k", "--reason", "x"],
            saying: "'bo-20260101010001' is not a snippet of project 'moon'")
        try expectRefused(["moderate", "hide", "moon", "bo-20260101010000", "--by", "k", "--reason", " "], saying: "the reason must not be empty")
        try expectRefused(["moderate", "hide", "mars", "bo-20260101010000", "--by", "k", "--reason", "x"], saying: "unknown project 'mars'")
        try expectRefused(["moderate", "unhide", "moon", "bo-20260101010000"], saying: "'bo-20260101010000' is not hidden")
        try expectRefused(["user", "remove", "zed"], saying: "unknown user 'zed'")
        try expectRefused(["user", "remove", "Zed"], saying: "'Zed' is not a handle")
    }
}
