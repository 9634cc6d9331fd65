import Foundation
import Testing

/// A whole project played with the CLI, from `init` to a completed story on the site.
@Suite struct GameLoopTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func prolific(_ arguments: String..., now: String, input: String = "") throws -> CLI.Result {
        try CLI.run(arguments + ["--content", "game/Content", "--now", now], in: folder.url, input: input)
    }

    @Test func playsAProjectFromInitToACompletedStory() throws {
        let created = try CLI.run(["init", "game", "--title", "Test Tales"], in: folder.url)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(folder.exists("game/Content/prolific.yml"))
        #expect(folder.exists("game/Templates/project.mustache"))

        for (handle, name) in [("ann", "Ann Abel"), ("bo", "Bo Berg"), ("cy", "Cy Cole")] {
            #expect(try prolific("user", "add", handle, "--name", name, now: "2026-01-01T00:00:00Z").status == 0)
        }
        let started = try prolific(
            "project", "new", "moon", "--title", "The Moon", "--owner", "ann", "--rounds", "2", "--round-length", "3d",
            "--tag", "space", now: "2026-01-02T00:00:00Z", input: "The moon was *late* that night.\n")
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.contains("Round 1 is open until 2026-01-05T00:00:00Z"))

        let first = try prolific("submit", "moon", "--author", "bo", now: "2026-01-02T10:00:00Z", input: "Bo's turn.\n")
        #expect(first.status == 0)
        #expect(first.stdout == "bo-20260102100000\n")
        let second = try prolific(
            "submit", "moon", "--author", "cy", now: "2026-01-02T11:00:00Z", input: "Cy's turn.\n")
        #expect(second.stdout == "cy-20260102110000\n")

        #expect(try prolific("vote", "moon", "--voter", "ann", "cy-20260102110000", now: "2026-01-03T00:00:00Z").status == 0)
        #expect(try prolific("vote", "moon", "--voter", "bo", "cy-20260102110000", now: "2026-01-03T00:00:00Z").status == 0)
        #expect(try prolific("vote", "moon", "--voter", "cy", "bo-20260102100000", now: "2026-01-03T00:00:00Z").status == 0)

        let status = try prolific("status", "--json", now: "2026-01-04T00:00:00Z")
        let report = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let projects = report?["projects"] as? [[String: Any]]
        let round = projects?.first?["round"] as? [String: Any]
        #expect(round?["number"] as? Int == 1)
        #expect(round?["voters"] as? [String] == ["ann", "bo", "cy"])
        #expect(round?["due"] as? Bool == false)

        // Round 1 is due; close --due closes it and opens round 2 at the closing time.
        let closed = try prolific("close", "--due", now: "2026-01-05T00:00:00Z")
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stdout.contains("'cy-20260102110000' wins with"))
        #expect(closed.stdout.contains("from 3 ballots"))
        let round1 = try folder.read("game/Content/projects/moon/rounds/0001/round.md")
        #expect(round1.contains("winner: cy-20260102110000"))
        #expect(round1.contains("method: fair-1"))
        let audit = try prolific("audit", "moon", "--round", "1", now: "2026-01-05T00:00:00Z")
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(audit.stdout.contains("1. cy-20260102110000"))
        #expect(audit.stdout.contains("@ann: karma 3, joined 4 days before → base"), "\(audit.stdout)")
        let round2 = try folder.read("game/Content/projects/moon/rounds/0002/round.md")
        #expect(round2 == "---\nopened: 2026-01-05T00:00:00Z\ncloses: 2026-01-08T00:00:00Z\n---\n")

        // Round 2, the last: an ending wins and the project is complete.
        #expect(
            try prolific("submit", "moon", "--author", "ann", "--ending", now: "2026-01-06T00:00:00Z", input: "The end.\n")
                .status == 0)
        #expect(try prolific("vote", "moon", "--voter", "bo", "ann-20260106000000", now: "2026-01-06T01:00:00Z").status == 0)
        let last = try prolific("close", "moon", now: "2026-01-07T00:00:00Z")
        #expect(last.stdout.contains("The story is complete."))
        #expect(try folder.read("game/Content/projects/moon/project.md").contains("status: complete"))
        #expect(!folder.exists("game/Content/projects/moon/rounds/0003"))

        let shown = try prolific("user", "show", "cy", "--json", now: "2026-01-07T00:00:00Z")
        #expect(shown.status == 0, "\(shown.stderr)")
        let profile = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(profile?["karma"] as? Int == 2 + 1 + 5, "a snippet, a ballot and a win in closed rounds")
        let badges = profile?["badges"] as? [[String: Any]]
        #expect(badges?.first { $0["id"] as? String == "big-hit-writer" }?["tier"] as? String == "bronze")
        let auditJSON = try prolific("audit", "moon", "--round", "2", "--json", now: "2026-01-07T00:00:00Z")
        let roundTwo = try JSONSerialization.jsonObject(with: Data(auditJSON.stdout.utf8)) as? [String: Any]
        #expect(roundTwo?["winner"] as? String == "ann-20260106000000")
        #expect((roundTwo?["votes"] as? [[String: Any]])?.first?["voter"] as? String == "bo")

        let check = try prolific("check", now: "2026-01-07T00:00:00Z")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("0 errors"))

        let build = try CLI.run(
            ["build", "--content", "game/Content", "--out", "game/Site", "--now", "2026-01-07T00:00:00Z"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        let page = try folder.read("game/Site/projects/moon/index.html")
        #expect(page.contains("<em>late</em>"))
        #expect(page.contains("Cy’s turn."), "smart punctuation and the round-1 winner")
        #expect(page.contains("The end."))
        #expect(!page.contains("Bo’s turn."), "a losing snippet is not part of the story")
        #expect(page.contains("Completed story"))
        let roundPage = try folder.read("game/Site/projects/moon/rounds/0001.html")
        #expect(roundPage.contains("Every vote, explained"))
        #expect(roundPage.contains("@ann</strong></a>: karma 3, joined 4 days before → base"), "\(roundPage)")
        #expect(roundPage.contains("Alternate takes") && roundPage.contains("Bo’s turn."), "the losing snippet is kept readable")
        let home = try folder.read("game/Site/index.html")
        #expect(home.contains("href=\"projects/moon/index.html\""))
        #expect(home.contains("Completed stories"))
    }

    /// A ballot that arrives after an early `close`, but before the deadline, was not counted:
    /// `check` says so and still passes.
    @Test func aBallotCastAfterAnEarlyCloseIsOnlyAWarning() throws {
        _ = try CLI.run(["init", "game"], in: folder.url)
        for handle in ["ann", "bo", "cy"] {
            #expect(try prolific("user", "add", handle, "--name", handle, now: "2026-01-01T00:00:00Z").status == 0)
        }
        _ = try prolific(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--round-length", "3d", now: "2026-01-02T00:00:00Z",
            input: "Start.")
        #expect(try prolific("submit", "moon", "--author", "bo", now: "2026-01-02T10:00:00Z", input: "Go.").status == 0)
        #expect(try prolific("vote", "moon", "--voter", "ann", "bo-20260102100000", now: "2026-01-03T00:00:00Z").status == 0)
        let closed = try prolific("close", "moon", now: "2026-01-04T00:00:00Z")
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(try folder.read("game/Content/projects/moon/rounds/0001/round.md").contains("closed: 2026-01-04T00:00:00Z"))

        // cy's ballot, written as `vote` would have, half a day after the closing.
        let votes = "game/Content/projects/moon/rounds/0001/votes"
        let ann = try folder.read("\(votes)/ann.yml")
        let cy = ann.replacingOccurrences(of: "ann", with: "cy")
            .replacingOccurrences(of: "2026-01-03T00:00:00Z", with: "2026-01-04T12:00:00Z")
        #expect(cy != ann)
        try folder.write(cy, to: "\(votes)/cy.yml")

        // `check` counts the ballots round.md records, as a build does: cy's file is only the
        // seal's warning.
        let check = try prolific("check", now: "2026-01-05T00:00:00Z")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stdout.contains(
                "moon/rounds/0001/votes/cy.yml:1:1: warning: added after round 1 closed on 2026-01-04T00:00:00Z: "
                    + "it is not part of the sealed round"), "\(check.stdout)")
        #expect(check.stderr.contains("0 errors, 1 warning."), "\(check.stderr)")
    }

    @Test func buildIsDeterministic() throws {
        _ = try CLI.run(["init", "game"], in: folder.url)
        _ = try prolific("user", "add", "ann", "--name", "Ann", now: "2026-01-01T00:00:00Z")
        _ = try prolific(
            "project", "new", "moon", "--title", "Moon", "--owner", "ann", now: "2026-01-01T00:00:00Z", input: "Start.")
        for out in ["a", "b"] {
            let result = try CLI.run(
                ["build", "--content", "game/Content", "--out", out, "--now", "2026-01-02T00:00:00Z"], in: folder.url)
            #expect(result.status == 0)
        }
        let a = try folder.snapshot("a"), b = try folder.snapshot("b")
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    @Test func concurrentVotesAreAllRecorded() async throws {
        _ = try CLI.run(["init", "game"], in: folder.url)
        let voters = (1...8).map { "v\($0)" }
        for handle in ["ann"] + voters {
            _ = try prolific("user", "add", handle, "--name", handle, now: "2026-01-01T00:00:00Z")
        }
        _ = try prolific("project", "new", "moon", "--title", "Moon", "--owner", "ann", now: "2026-01-01T00:00:00Z", input: "Start.")
        _ = try prolific("submit", "moon", "--author", "ann", now: "2026-01-01T01:00:00Z", input: "Go.")
        let url = folder.url
        let results = try await withThrowingTaskGroup(of: Int32.self) { group in
            for voter in voters {
                group.addTask {
                    try CLI.run(
                        ["vote", "moon", "--voter", voter, "ann-20260101010000", "--content", "game/Content", "--now",
                         "2026-01-02T00:00:00Z"], in: url
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == 0 })
        let closed = try prolific("close", "moon", now: "2026-01-03T00:00:00Z")
        #expect(closed.stdout.contains("'ann-20260101010000' wins"), "\(closed.stdout)")
        #expect(closed.stdout.contains("from 8 ballots"), "\(closed.stdout)")
    }
}
