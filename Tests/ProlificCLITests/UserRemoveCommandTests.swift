import Foundation
import Testing

/// `user remove`: the profile goes, the work stays, `check` passes and every tally re-checks.
@Suite struct UserRemoveCommandTests {
    let folder: TemporaryFolder
    let content = "game/Content"

    init() throws { folder = try TemporaryFolder() }

    @discardableResult
    func run(_ arguments: String..., now: String, input: String = "") throws -> CLI.Result {
        let result = try CLI.run(arguments + ["--content", content, "--now", now], in: folder.url, input: input)
        return result
    }

    /// Three rounds of `moon` with the fair tally: bo wins round 1, di votes in every round, and
    /// round 3 is open with bo's snippet and ballots by di and ann.
    func play() throws {
        _ = try CLI.run(["init", "game"], in: folder.url)
        for (handle, day) in [("ann", "01"), ("bo", "02"), ("cy", "03"), ("di", "05")] {
            try #require(try run("user", "add", handle, "--name", handle.capitalized + " Doe", now: "2026-01-\(day)T00:00:00Z").status == 0)
        }
        try folder.writePNG(to: "di.png")
        try #require(try run("user", "add", "eve", "--name", "Eve Doe", "--avatar", "di.png", now: "2026-01-05T00:00:00Z").status == 0)
        try #require(
            try run(
                "project", "new", "moon", "--title", "Moon", "--owner", "ann", "--rounds", "5", "--round-length", "2d",
                now: "2026-01-06T00:00:00Z", input: "Start."
            ).status == 0)
        let rounds: [(day: Int, authors: [String], votes: [(String, Int)])] = [
            (6, ["bo", "cy"], [("ann", 0), ("di", 0), ("cy", 0), ("eve", 1)]),
            (8, ["cy", "bo"], [("ann", 0), ("di", 1), ("bo", 0), ("eve", 0)]),
            (10, ["bo"], [("di", 0), ("ann", 0)]),
        ]
        for (index, round) in rounds.enumerated() {
            var ids: [String] = []
            for (hour, author) in round.authors.enumerated() {
                let submitted = try run(
                    "submit", "moon", "--author", author, now: "2026-01-\(two(round.day))T0\(hour + 1):00:00Z",
                    input: "Round \(index + 1), by \(author).")
                try #require(submitted.status == 0, "\(submitted.stderr)")
                ids.append(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            for (voter, choice) in round.votes {
                let cast = try run("vote", "moon", "--voter", voter, ids[choice], now: "2026-01-\(two(round.day))T05:00:00Z")
                try #require(cast.status == 0, "\(cast.stderr)")
            }
            if index < 2 {
                try #require(try run("close", "moon", now: "2026-01-\(two(round.day + 1))T00:00:00Z").status == 0)
            }
        }
    }

    @Test func removedPlayersWorkStaysAndEveryTallyReChecks() throws {
        try play()
        let before = try run("check", now: "2026-01-10T06:00:00Z")
        try #require(before.status == 0, "\(before.stdout)\(before.stderr)")
        let round1 = try folder.read("\(content)/projects/moon/rounds/0001/round.md")
        let round2 = try folder.read("\(content)/projects/moon/rounds/0002/round.md")

        let removedDi = try run("user", "remove", "di", now: "2026-01-10T06:00:00Z")
        #expect(removedDi.status == 0, "\(removedDi.stderr)")
        #expect(removedDi.stdout == "Removed @di; withdrew 1 ballot in open rounds.\n")
        let removedBo = try run("user", "remove", "bo", now: "2026-01-10T07:00:00Z")
        #expect(removedBo.stdout == "Removed @bo.\n", "\(removedBo.stderr)")
        let removedEve = try run("user", "remove", "eve", now: "2026-01-10T07:00:00Z")
        #expect(removedEve.status == 0, "\(removedEve.stderr)")

        #expect(!folder.exists("\(content)/users/di.md") && !folder.exists("\(content)/users/bo.md"))
        #expect(!folder.exists("\(content)/users/eve.png"), "the picture went with the profile")
        #expect(!folder.exists("\(content)/projects/moon/rounds/0003/votes/di.yml"), "the open round's ballot is withdrawn")
        #expect(folder.exists("\(content)/projects/moon/rounds/0003/votes/ann.yml"))
        #expect(folder.exists("\(content)/projects/moon/rounds/0001/votes/di.yml"), "closed rounds keep their ballots")
        #expect(try folder.read("\(content)/projects/moon/rounds/0001/round.md") == round1, "closed tallies are unchanged")
        #expect(try folder.read("\(content)/projects/moon/rounds/0002/round.md") == round2)
        let settings = try folder.read("\(content)/prolific.yml")
        #expect(settings.contains("former:\n- handle: di\n  joined: 2026-01-05T00:00:00Z\n  removed: 2026-01-10T06:00:00Z\n- handle: bo\n"))

        // `check` re-runs both fair tallies against the same history: the former players' join
        // times come from prolific.yml.
        let check = try run("check", now: "2026-01-10T08:00:00Z")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("0 errors, 0 warnings"), "\(check.stderr)")
        for number in ["1", "2"] {
            let audit = try run("audit", "moon", "--round", number, now: "2026-01-10T08:00:00Z")
            #expect(audit.status == 0 && audit.stdout.contains("@di: karma"), "\(audit.stdout)\(audit.stderr)")
        }

        // A removed handle is not taken again, and its ballots are not welcome in open rounds.
        let again = try run("user", "add", "di", "--name", "Someone Else", now: "2026-01-10T09:00:00Z")
        #expect(again.status == 1 && again.stderr.contains("'di' belonged to a player removed at 2026-01-10T06:00:00Z"))
        let ann = try folder.read("\(content)/projects/moon/rounds/0003/votes/ann.yml")
        try folder.write(ann.replacingOccurrences(of: "voter: ann", with: "voter: di"), to: "\(content)/projects/moon/rounds/0003/votes/di.yml")
        let sneaked = try run("check", now: "2026-01-10T09:00:00Z")
        #expect(sneaked.stdout.contains("votes/di.yml:1:8: error: voter 'di' was removed at 2026-01-10T06:00:00Z"), "\(sneaked.stdout)")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("\(content)/projects/moon/rounds/0003/votes/di.yml"))

        // bo's open snippet can still win; the story credits "a former contributor".
        #expect(try run("close", "moon", now: "2026-01-11T00:00:00Z").status == 0)
        #expect(try run("check", now: "2026-01-11T00:00:00Z").status == 0)
        #expect(try run("build", "--out", "game/Site", now: "2026-01-11T00:00:00Z").status == 0)
        let page = try folder.read("game/Site/projects/moon/index.html")
        #expect(page.contains("Round 3, by bo.") && page.contains("Written by a former contributor"), "\(page)")
        #expect(!folder.exists("game/Site/users/bo/index.html") && !folder.exists("game/Site/users/di/index.html"))
        #expect(try brokenLinks(in: "game/Site") == [])
        let site = try folder.snapshot("game/Site").compactMapValues { String(data: $0, encoding: .utf8) }
        for (path, text) in site {
            #expect(!text.contains("users/bo/") && !text.contains("users/di/"), "\(path) links a removed profile")
        }
    }

    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Every `href` and `src` inside the site that names a file it doesn't have.
    func brokenLinks(in site: String) throws -> [String] {
        let root = folder.url.appendingPathComponent(site).standardizedFileURL
        var broken: [String] = []
        for (path, data) in try folder.snapshot(site) where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            let page = root.appendingPathComponent(String(path.dropFirst())).deletingLastPathComponent()
            for match in html.matches(of: /(?:href|src)="([^"]*)"/) {
                var target = String(match.1)
                if target.isEmpty || target.contains(":") || target.hasPrefix("#") { continue }
                if let cut = target.firstIndex(where: { $0 == "#" || $0 == "?" }) { target = String(target[..<cut]) }
                if target.isEmpty { continue }
                var file = page.appendingPathComponent(target).standardizedFileURL
                if target.hasSuffix("/") { file.appendPathComponent("index.html") }
                if !FileManager.default.fileExists(atPath: file.path) { broken.append("\(path) → \(match.1)") }
            }
        }
        return broken.sorted()
    }
}
