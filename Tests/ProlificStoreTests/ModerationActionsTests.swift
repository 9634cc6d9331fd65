import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `moderate hide/unhide/dismiss` and `user remove` on real files, and the formats they write.
@Suite struct ModerationActionsTests {
    let moon = Make.slug("moon")
    let ann = Make.handle("ann"), bob = Make.handle("bob"), cat = Make.handle("cat")

    /// The standard setup with bob's and cat's snippets in round 1, and ballots by ann and bob.
    func playground() throws -> (Playground, bob: Submission, cat: Submission) {
        let world = try Playground()
        try world.standardSetup()
        let bob1 = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: bob, ending: false, body: "Bob's part.")
        let cat1 = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: cat, ending: false, body: "Cat's part.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: ann, for: [bob1.id.rawValue])
        _ = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: bob, for: [cat1.id.rawValue])
        return (world, bob1, cat1)
    }

    func checked(_ world: Playground) -> [String] {
        let (content, problems) = world.reader.loadAll()
        guard let content else { return problems.map(\.description) }
        return (problems + ContentCheck.problems(in: content)).sorted().map(\.description)
    }

    // MARK: Hiding

    @Test func hideWritesTheEntryAndCloseLeavesTheSnippetOut() throws {
        let (world, bob1, cat1) = try playground()
        let round = try world.game("2026-11-04T09:30:00Z").hide(bob1.id, in: moon, by: "keeper", reason: "Copied: from a novel.")
        #expect(round.hidden.map(\.id) == [bob1.id])
        let file = try world.directory.read("Content/projects/moon/rounds/0001/round.md")
        #expect(
            file.hasSuffix(
                "hidden:\n- id: bob-20261102100000\n  by: keeper\n  at: 2026-11-04T09:30:00Z\n  reason: 'Copied: from a novel.'\n---\n"),
            "\(file)")
        #expect(try world.reader.loadProjectStrictly(moon).rounds[0].hidden == round.hidden, "it reads back")
        #expect(
            thrown { () throws(Diagnostics) in try world.game("2026-11-04T10:00:00Z").vote(in: moon, by: cat, for: [bob1.id.rawValue]) }
                == ["error: 'bob-20261102100000' was hidden by a maintainer at 2026-11-04T09:30:00Z; it can't be voted for"])
        let closed = try world.game("2026-11-05T00:00:00Z").close(moon)
        guard case .closed(let round1, _) = closed.outcome else {
            Issue.record("round 1 did not close")
            return
        }
        #expect(round1.winner == cat1.id, "ann's ballot named only the hidden snippet")
        #expect(round1.tally?.ballots == 1)
        #expect(round1.hidden == round.hidden, "close keeps the record")
        #expect(checked(world) == [], "check re-runs the tally to the same result")
        #expect(
            thrown { () throws(Diagnostics) in try world.game("2026-11-06T00:00:00Z").unhide(bob1.id, in: moon) }?.first?
                .contains("was hidden before round 1 of 'moon' closed") == true)
    }

    @Test func refusedModerationChangesNothing() throws {
        let (world, bob1, _) = try playground()
        let before = try world.snapshot()
        let game = world.game("2026-11-04T00:00:00Z")
        #expect(thrown { () throws(Diagnostics) in try game.unhide(bob1.id, in: moon) } == ["error: 'bob-20261102100000' is not hidden"])
        #expect(
            thrown { () throws(Diagnostics) in try game.hide(bob1.id, in: Make.slug("sun"), by: "k", reason: "r") }?.first?
                .contains("unknown project 'sun'") == true)
        #expect(
            thrown { () throws(Diagnostics) in try game.hide(bob1.id, in: moon, by: "k", reason: "") }
                == ["error: the reason must not be empty"])
        #expect(
            thrown { () throws(Diagnostics) in try game.dismiss(ReportID("zoe-20261104000000")!) }
                == ["error: unknown report 'zoe-20261104000000': there is no \(world.root)/reports/zoe-20261104000000.md"])
        #expect(try world.snapshot() == before)
    }

    @Test func reportsAreReadCheckedAndDismissed() throws {
        let (world, bob1, _) = try playground()
        try world.directory.write(
            "---\nproject: moon\nsnippet: \(bob1.id)\n---\nThis is copied.\n", to: "Content/reports/zoe-20261104000000.md")
        try world.directory.write("---\nproject: moon\nround: 2\nsnippet: \(bob1.id)\n---\n\n", to: "Content/reports/yan-20261104000000.md")
        try world.directory.write("hello", to: "Content/reports/notes.txt")
        #expect(
            checked(world) == [
                "\(world.root)/reports/notes.txt:1:1: error: unexpected file; expected a report named <reporter>-<yyyymmddhhmmss>.md",
                "\(world.root)/reports/yan-20261104000000.md:1:1: error: the report (the body after the front matter) is empty",
            ])
        try FileManager.default.removeItem(atPath: world.directory.path("Content/reports/notes.txt"))
        try world.directory.write("---\nproject: moon\nround: 2\nsnippet: \(bob1.id)\n---\nSpam.\n", to: "Content/reports/yan-20261104000000.md")
        #expect(
            checked(world) == [
                "\(world.root)/reports/yan-20261104000000.md:3:8: error: 'bob-20261102100000' is a snippet of round 1, not round 2"
            ])
        let game = world.game("2026-11-04T12:00:00Z")
        let projects = [try world.reader.loadProjectStrictly(moon)]
        #expect(game.moderation(of: projects).queue.map(\.id.rawValue) == ["yan-20261104000000", "zoe-20261104000000"])
        try game.dismiss(ReportID("yan-20261104000000")!)
        #expect(!world.directory.exists("Content/reports/yan-20261104000000.md"))
        #expect(game.changes.paths == ["\(world.root)/reports/yan-20261104000000.md"], "recorded for --commit")
        _ = try game.hide(bob1.id, in: moon, by: "keeper", reason: "Copied.")
        let hidden = [try world.reader.loadProjectStrictly(moon)]
        #expect(game.moderation(of: hidden).queue.isEmpty, "hiding the snippet settles its report")
        #expect(checked(world) == [])
    }

    // MARK: Formats

    @Test func badEntriesArePointedAt() {
        let round = "---\nopened: 2026-11-01T00:00:00Z\ncloses: 2026-11-08T00:00:00Z\nhidden:\n- id: bob-2026\n  by: keeper\n  at: 2026-11-02T00:00:00Z\n  reason: ' '\n  note: x\n---\n"
        #expect(
            thrown { () throws(Diagnostics) in try RoundFile.parse(round, path: "round.md", number: Make.number(1)) } == [
                "round.md:5:7: error: 'id' must be a submission id: \(SubmissionID.rule), found 'bob-2026'",
                "round.md:8:11: error: 'reason' must not be empty",
                "round.md:9:3: error: unknown key 'note'",
            ])
        let config = "title: T\nbase-url: https://example.org/\nformer:\n- handle: Bob\n  joined: 2026-10-01T00:00:00Z\n"
        #expect(
            thrown { () throws(Diagnostics) in try ConfigFile.parse(config, path: "prolific.yml") } == [
                "prolific.yml:4:11: error: 'handle' must be a user's handle: \(Handle.rule), found 'Bob'",
                "prolific.yml:1:1: error: missing required key 'removed'",
            ])
        let report = "---\nproject: Moon\nsnippet: bob-20261102100000\nround: 0\n---\nWhy.\n"
        #expect(
            thrown { () throws(Diagnostics) in try ReportFile.parse(report, path: "r.md", id: ReportID("zoe-20261104000000")!) } == [
                "r.md:2:10: error: 'project' must be a project slug: \(Slug.rule), found 'Moon'",
                "r.md:4:8: error: 'round' must be a whole number from 1 to 9999, found '0'",
            ])
    }

    // MARK: Removing a player

    @Test func removingAPlayerKeepsTheirWorkAndTheRecord() throws {
        let (world, bob1, _) = try playground()
        let settings = "# Our settings.\n" + (try world.directory.read("Content/prolific.yml"))
        try world.directory.write(settings, to: "Content/prolific.yml")
        try world.directory.writeImage(to: "Content/users/bob.png")
        let profile = try world.directory.read("Content/users/bob.md")
        try world.directory.write(profile.replacingOccurrences(of: "joined:", with: "avatar: bob.png\njoined:"), to: "Content/users/bob.md")
        _ = try world.game("2026-11-05T00:00:00Z").close(moon)
        let bob2 = try world.game("2026-11-05T10:00:00Z").submit(to: moon, by: bob, ending: false, body: "Bob again.")
        let cat2 = try world.game("2026-11-05T11:00:00Z").submit(to: moon, by: cat, ending: false, body: "Cat again.")
        _ = try world.game("2026-11-05T12:00:00Z").vote(in: moon, by: bob, for: [cat2.id.rawValue])
        _ = try world.game("2026-11-05T12:00:00Z").vote(in: moon, by: ann, for: [bob2.id.rawValue])

        let game = world.game("2026-11-06T00:00:00Z")
        let removed = try game.removeUser(bob)
        #expect(removed.former == FormerUser(handle: bob, joined: Make.time("2026-10-01T00:00:00Z"), removed: Make.time("2026-11-06T00:00:00Z")))
        #expect(removed.withdrawn == ["\(world.root)/projects/moon/rounds/0002/votes/bob.yml"])
        #expect(!world.directory.exists("Content/users/bob.md") && !world.directory.exists("Content/users/bob.png"))
        #expect(world.directory.exists("Content/projects/moon/rounds/0001/votes/bob.yml"), "closed rounds keep their ballots")
        #expect(world.directory.exists("Content/projects/moon/rounds/0001/submissions/\(bob1.id).md"))
        #expect(world.directory.exists("Content/projects/moon/rounds/0002/submissions/\(bob2.id).md"))
        #expect(
            try world.directory.read("Content/prolific.yml")
                == settings + "former:\n- handle: bob\n  joined: 2026-10-01T00:00:00Z\n  removed: 2026-11-06T00:00:00Z\n",
            "the maintainers' lines are kept")
        #expect(Set(game.changes.paths).count == 4, "\(game.changes.paths)")
        #expect(checked(world) == [], "closed tallies re-check, the removed player's entries are known")

        let later = world.game("2026-11-07T00:00:00Z")
        #expect(thrown { () throws(Diagnostics) in try later.removeUser(bob) } == ["error: @bob was already removed at 2026-11-06T00:00:00Z"])
        #expect(thrown { () throws(Diagnostics) in try later.addUser(bob, name: "Bob", bio: "") }?.first?.contains("belonged to a player removed") == true)
        #expect(thrown { () throws(Diagnostics) in try later.removeUser(Make.handle("zed")) }?.first?.contains("unknown user 'zed'") == true)

        // The open round goes on: bob's snippet can still win, and the result checks.
        let closed = try world.game("2026-11-08T00:00:00Z").close(moon)
        guard case .closed(let round2, _) = closed.outcome else {
            Issue.record("round 2 did not close")
            return
        }
        #expect(round2.winner == bob2.id)
        #expect(checked(world) == [])
    }

    @Test func anInterruptedRemovalIsFinishedByRunningItAgain() throws {
        let (world, _, _) = try playground()
        let config = try world.directory.read("Content/prolific.yml")
        try world.directory.write(
            config + "former:\n- handle: cat\n  joined: 2026-10-01T00:00:00Z\n  removed: 2026-11-04T00:00:00Z\n", to: "Content/prolific.yml")
        #expect(checked(world).contains { $0.contains("'cat' is a former player but users/cat.md exists") })
        let written = try world.directory.read("Content/prolific.yml")
        let removed = try world.game("2026-11-05T00:00:00Z").removeUser(cat)
        #expect(removed.former.removed == Make.time("2026-11-04T00:00:00Z"), "the recorded entry is kept")
        #expect(try world.directory.read("Content/prolific.yml") == written)
        #expect(!world.directory.exists("Content/users/cat.md"))
        #expect(checked(world) == [])
    }

    @Test func theFormerListIsReplacedInPlace() throws {
        let gone = [
            FormerUser(handle: bob, joined: Make.time("2026-10-01T00:00:00Z"), removed: Make.time("2026-11-06T00:00:00Z")),
            FormerUser(handle: cat, joined: Make.time("2026-10-02T00:00:00Z"), removed: Make.time("2026-11-07T00:00:00Z")),
        ]
        let text = "title: T # the title\nbase-url: https://example.org/\nformer:\n- handle: bob\n  joined: 2026-10-01T00:00:00Z\n  removed: 2026-11-06T00:00:00Z\n\n# Who runs it:\nmaintainers: [keeper@example.org]\n"
        let replaced = ConfigFile.replacingFormer(in: text, with: gone, path: "prolific.yml")
        #expect(
            replaced
                == "title: T # the title\nbase-url: https://example.org/\nformer:\n- handle: bob\n  joined: 2026-10-01T00:00:00Z\n  removed: 2026-11-06T00:00:00Z\n- handle: cat\n  joined: 2026-10-02T00:00:00Z\n  removed: 2026-11-07T00:00:00Z\n\n# Who runs it:\nmaintainers: [keeper@example.org]\n")
        #expect(try ConfigFile.parse(try #require(replaced), path: "prolific.yml").former == gone)
        // A layout it can't edit safely: a list it would have to split. Refused, not guessed.
        let odd = "title: T\nbase-url: https://example.org/\nformer:\n# a comment at the margin\n  - handle: bob\n    joined: 2026-10-01T00:00:00Z\n    removed: 2026-11-06T00:00:00Z\n"
        #expect(ConfigFile.replacingFormer(in: odd, with: gone, path: "prolific.yml") == nil)
    }
}
