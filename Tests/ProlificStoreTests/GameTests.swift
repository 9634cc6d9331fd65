import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct GameLoopTests {
    let moon = Make.slug("moon")

    @Test func initializeWritesAContentDirectory() throws {
        let world = try Playground()
        #expect(try world.snapshot().keys.sorted() == ["projects/", "prolific.yml", "users/"])
        #expect(try world.reader.loadConfig().title == "Test")
        #expect(
            thrown { () throws(Diagnostics) in try Game.initialize(root: world.root, config: Config.defaults()) }
                == ["\(world.root)/prolific.yml:1:1: error: already exists; this is a content directory already"])
    }

    @Test func aWholeGameFromFirstUserToCompleteStory() throws {
        let world = try Playground()
        let joining = world.game("2026-10-01T00:00:00Z")
        let ann = try joining.addUser(Make.handle("ann"), name: "Ann", bio: "Writes at night.")
        #expect(ann.joined == Make.time("2026-10-01T00:00:00Z"))
        for name in ["bob", "cat"] { _ = try joining.addUser(Make.handle(name), name: name, bio: "") }

        let created = try world.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(
                slug: moon, title: "The Moon", owner: Make.handle("ann"), rounds: 2, tags: ["space", "space", "night"],
                starter: "The moon was late."))
        #expect(created.roundLength == Make.span("7d"))  // from prolific.yml
        #expect(created.tags == ["space", "night"])
        #expect(created.rounds.map(\.number.value) == [1])
        #expect(created.openRound?.opened == Make.time("2026-11-01T00:00:00Z"))
        #expect(created.openRound?.closes == Make.time("2026-11-08T00:00:00Z"))
        #expect(world.directory.exists("Content/projects/moon/rounds/0001/round.md"))

        // Round 1: two snippets, three ballots (cat changes her mind).
        let bob1 = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        #expect(bob1.id.rawValue == "bob-20261102100000")
        #expect(world.directory.exists("Content/projects/moon/rounds/0001/submissions/bob-20261102100000.md"))
        let cat1 = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: true, body: "Cat's end.")
        let first = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("ann"), for: [bob1.id.rawValue])
        #expect(first.round == Make.number(1) && !first.replaced)
        _ = try world.game("2026-11-03T01:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob1.id.rawValue])
        let changed = try world.game("2026-11-03T02:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [bob1.id.rawValue])
        #expect(changed.replaced)
        #expect(try world.directory.read("Content/projects/moon/rounds/0001/votes/cat.yml").contains("cast: 2026-11-03T02:00:00Z"))

        let close1 = try world.game("2026-11-05T00:00:00Z").close(moon)
        guard case .closed(let round1, let next) = close1.outcome else {
            Issue.record("round 1 did not close")
            return
        }
        #expect(round1.winner == bob1.id)
        #expect(round1.closed == Make.time("2026-11-05T00:00:00Z"))
        #expect(round1.tally?.scores.map(\.id) == [bob1.id, cat1.id])
        #expect(next?.number == Make.number(2))
        #expect(next?.opened == Make.time("2026-11-05T00:00:00Z"))
        #expect(next?.closes == Make.time("2026-11-12T00:00:00Z"))
        #expect(close1.project.status == .open)

        // Round 2: ann's ending wins, which completes the story.
        let ann2 = try world.game("2026-11-06T00:00:00Z").submit(to: moon, by: Make.handle("ann"), ending: true, body: "Ann's end.")
        _ = try world.game("2026-11-06T01:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob again.")
        let second = try world.game("2026-11-07T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: [ann2.id.rawValue])
        #expect(second.round == Make.number(2))

        let close2 = try world.game("2026-11-08T00:00:00Z").close(moon)
        guard case .closed(let round2, let after) = close2.outcome else {
            Issue.record("round 2 did not close")
            return
        }
        #expect(round2.winner == ann2.id)
        #expect(after == nil)
        #expect(close2.project.status == .complete)
        #expect(try world.directory.read("Content/projects/moon/project.md").contains("status: complete"))
        #expect(!world.directory.exists("Content/projects/moon/rounds/0003"))

        let (content, problems) = world.reader.loadAll()
        #expect(problems == [])
        let loaded = try #require(content)
        #expect(ContentCheck.problems(in: loaded) == [])
        let project = try #require(loaded.project(moon))
        #expect(project.status == .complete)
        #expect(Story(project).chapters.map(\.markdown) == ["The moon was late.", "Bob's part.", "Ann's end."])

        #expect(
            thrown { () throws(Diagnostics) in
                try world.game("2026-11-09T00:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "More?")
            } == ["error: project 'moon' is complete; it takes no more snippets or ballots"])
        #expect(try world.directory.temporaryFiles() == [])
    }

    @Test func closeDueExtendsAnEmptyDueRound() throws {
        let world = try Playground()
        try world.standardSetup()
        // Not due yet: nothing happens.
        let before = try world.snapshot()
        let early = try world.game("2026-11-07T23:59:59Z").closeDue()
        #expect(early.reports.isEmpty && early.problems.isEmpty)
        #expect(try world.snapshot() == before)

        let due = try world.game("2026-11-20T00:00:00Z").closeDue()
        #expect(due.problems.isEmpty)
        #expect(due.reports.count == 1)
        guard case .extended(let round) = due.reports.first?.outcome else {
            Issue.record("expected an extension")
            return
        }
        #expect(round.closes == Make.time("2026-11-22T00:00:00Z"))
        #expect(round.extensions == [Round.Extension(at: Make.time("2026-11-20T00:00:00Z"), from: Make.time("2026-11-08T00:00:00Z"))])
        let (project, _) = world.reader.loadProject(moon, depth: .all)
        #expect(project?.rounds.count == 1)
        #expect(project?.rounds.first?.closes == Make.time("2026-11-22T00:00:00Z"))
        #expect(project?.rounds.first?.extensions == round.extensions)
        #expect(project?.rounds.first?.isOpen == true)

        // The extended round takes snippets again.
        _ = try world.game("2026-11-21T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Finally.")
    }

    @Test func closeDueClosesADueRoundWithSnippets() throws {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        let result = try world.game("2026-11-08T00:00:00Z").closeDue()
        guard case .closed(let round, let next) = result.reports.first?.outcome else {
            Issue.record("expected round 1 to close")
            return
        }
        #expect(round.winner == Make.id("bob-20261102000000"))
        #expect(round.closed == Make.time("2026-11-08T00:00:00Z"))
        #expect(next?.opened == Make.time("2026-11-08T00:00:00Z"))
    }

    /// `close --due` reads whole only the projects a glance at project.md and the latest
    /// round.md can't set aside: a broken snippet in a round not yet due is left to `check` (and
    /// to `close` of that project), and reported once the round is due.
    @Test func closeDueReadsWholeOnlyTheProjectsThatMayBeDue() throws {
        let world = try Playground()
        _ = try world.standardSetup(rounds: 1)
        let sun = Make.slug("sun")
        _ = try world.game("2026-11-05T00:00:00Z").newProject(
            Game.ProjectRequest(slug: sun, title: "Sun", owner: Make.handle("bob"), rounds: 3, roundLength: Make.span("7d"), starter: "Hot."))
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        _ = try world.game("2026-11-06T00:00:00Z").submit(to: sun, by: Make.handle("cat"), ending: false, body: "Cat's part.")
        let snippet = "Content/projects/sun/rounds/0001/submissions/cat-20261106000000.md"
        try world.directory.write("no front matter at all\n", to: snippet)
        #expect(world.reader.glance(at: moon) == .openUntil(Make.time("2026-11-08T00:00:00Z")))
        #expect(world.reader.glance(at: sun) == .openUntil(Make.time("2026-11-12T00:00:00Z")))

        let result = try world.game("2026-11-08T00:00:00Z").closeDue()
        #expect(result.problems.isEmpty, "sun's round is not due: its snippets are not read")
        #expect(result.reports.map(\.project.slug) == [moon])
        #expect(world.reader.glance(at: moon) == .complete, "its one round closed")
        let refusal = thrown { () throws(Diagnostics) in try world.game("2026-11-08T00:00:00Z").close(sun) }
        #expect(refusal?.first?.contains(snippet) == true, "\(String(describing: refusal))")

        let due = try world.game("2026-11-12T00:00:00Z").closeDue()
        #expect(due.reports.isEmpty && due.problems.map(\.path).contains(world.directory.path(snippet)), "\(due.problems)")
        // Anything a glance can't read is read whole: a stray entry among the rounds, a broken project.md.
        try world.directory.write("", to: "Content/projects/sun/rounds/notes.txt")
        #expect(world.reader.glance(at: sun) == .unknown)
        try FileManager.default.removeItem(atPath: world.directory.path("Content/projects/sun/rounds/notes.txt"))
        #expect(world.reader.glance(at: sun) == .openUntil(Make.time("2026-11-12T00:00:00Z")))
        try world.directory.write("---\ntitle: [\n---\n", to: "Content/projects/sun/project.md")
        #expect(world.reader.glance(at: sun) == .unknown)
    }

    @Test func aCloseInterruptedBeforeTheNextRoundIsFinishedByTheNextCommand() throws {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")

        // Close round 1 by hand, as if `close` was killed after its first write.
        let (loaded, _) = world.reader.loadProject(moon, depth: .all)
        let open = try #require(loaded)
        guard case .close(let closed)? = try Closing.plan(open, trigger: .now, now: Make.time("2026-11-04T06:00:00Z")) else {
            Issue.record("expected a close plan")
            return
        }
        try AtomicFile.write(try RoundFile.render(closed), to: "\(world.root)/projects/moon/rounds/0001/round.md")
        #expect(!world.directory.exists("Content/projects/moon/rounds/0002"))
        let (between, _) = world.reader.loadAll()
        #expect(
            ContentCheck.problems(in: try #require(between)).map(\.message)
                == ["the project has no open round; the next command on it opens one"])

        let cat = try world.game("2026-11-06T00:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat's part.")
        #expect(cat.origin.path == "\(world.root)/projects/moon/rounds/0002/submissions/cat-20261106000000.md")
        let round2 = try RoundFile.parse(
            try world.directory.read("Content/projects/moon/rounds/0002/round.md"),
            path: "round.md", number: Make.number(2))
        #expect(round2.opened == Make.time("2026-11-04T06:00:00Z"))
        #expect(round2.closes == Make.time("2026-11-11T06:00:00Z"))
        #expect(round2.isOpen)
        let (after, problems) = world.reader.loadAll()
        #expect(problems == [])
        #expect(ContentCheck.problems(in: try #require(after)) == [])
    }

    /// `close --due` finishes an interrupted close too, though no round is due: a glance finds the
    /// latest round closed in a project still open (or a round folder holding only a temporary
    /// file, as an interrupted opening leaves it) and reads the project whole.
    @Test func closeDueFinishesAnInterruptedCloseThoughNothingIsDue() throws {
        for vacant in [false, true] {
            let world = try Playground()
            try world.standardSetup()
            _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
            let (loaded, _) = world.reader.loadProject(moon, depth: .all)
            guard case .close(let closed)? = try Closing.plan(try #require(loaded), trigger: .now, now: Make.time("2026-11-04T06:00:00Z"))
            else {
                Issue.record("expected a close plan")
                return
            }
            try AtomicFile.write(try RoundFile.render(closed), to: "\(world.root)/projects/moon/rounds/0001/round.md")
            if vacant { try world.directory.write("", to: "Content/projects/moon/rounds/0002/.round.md.tmp") }
            #expect(world.reader.glance(at: moon) == .unknown)

            let result = try world.game("2026-11-06T00:00:00Z").closeDue()
            #expect(result.reports.isEmpty && result.problems.isEmpty, "\(result.problems)")
            #expect(world.reader.glance(at: moon) == .openUntil(Make.time("2026-11-11T06:00:00Z")), "vacant: \(vacant)")
            let (after, problems) = world.reader.loadAll()
            let checked = ContentCheck.problems(in: try #require(after))
            #expect(problems == [] && checked == [])
        }
    }

    @Test func anInterruptedLastCloseIsMarkedCompleteByTheNextCommand() throws {
        let world = try Playground()
        try world.standardSetup(rounds: 1)
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        let (loaded, _) = world.reader.loadProject(moon, depth: .all)
        guard case .close(let closed)? = try Closing.plan(try #require(loaded), trigger: .now, now: Make.time("2026-11-04T00:00:00Z")) else {
            Issue.record("expected a close plan")
            return
        }
        try AtomicFile.write(try RoundFile.render(closed), to: "\(world.root)/projects/moon/rounds/0001/round.md")
        #expect(try world.directory.read("Content/projects/moon/project.md").contains("status: open"))

        #expect(
            thrown { () throws(Diagnostics) in
                try world.game("2026-11-05T00:00:00Z").vote(in: moon, by: Make.handle("cat"), for: ["bob-20261102000000"])
            } == ["error: project 'moon' is complete; it takes no more snippets or ballots"])
        #expect(try world.directory.read("Content/projects/moon/project.md").contains("status: complete"))
        #expect(!world.directory.exists("Content/projects/moon/rounds/0002"))
    }
}

/// Every refused command throws, says why, and leaves the content directory byte-identical.
@Suite struct GameRefusalTests {
    let moon = Make.slug("moon")

    /// ann, bob, cat; `moon` with round 1 open (11-01 to 11-08) and bob's snippet in it.
    func world() throws -> Playground {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob's part.")
        return world
    }

    func expectRefused(
        _ world: Playground, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ action: () throws(Diagnostics) -> Void
    ) throws {
        let before = try world.snapshot()
        let messages = thrown(action)?.map { $0.replacingOccurrences(of: world.root, with: "Content") }
        #expect(messages == expected, sourceLocation: sourceLocation)
        #expect(try world.snapshot() == before, "the refused command changed the content", sourceLocation: sourceLocation)
    }

    @Test func unknownUser() throws {
        let world = try world()
        let game = world.game("2026-11-03T00:00:00Z")
        let expected = ["error: unknown user 'zed': there is no Content/users/zed.md"]
        try expectRefused(world, expected) { () throws(Diagnostics) in
            _ = try game.submit(to: moon, by: Make.handle("zed"), ending: false, body: "Hi.")
        }
        try expectRefused(world, expected) { () throws(Diagnostics) in
            _ = try game.vote(in: moon, by: Make.handle("zed"), for: ["bob-20261102100000"])
        }
        try expectRefused(world, expected) { () throws(Diagnostics) in
            _ = try game.newProject(Game.ProjectRequest(slug: Make.slug("sun"), title: "Sun", owner: Make.handle("zed"), starter: "Hot."))
        }
    }

    @Test func votingForOwnSnippet() throws {
        let world = try world()
        try expectRefused(world, ["error: @bob cannot vote for their own snippet 'bob-20261102100000'"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").vote(in: moon, by: Make.handle("bob"), for: ["bob-20261102100000"])
        }
    }

    @Test func badBallots() throws {
        let world = try world()
        let game = world.game("2026-11-03T00:00:00Z")
        try expectRefused(world, ["error: a ballot names at least one submission"]) { () throws(Diagnostics) in
            _ = try game.vote(in: moon, by: Make.handle("cat"), for: [])
        }
        try expectRefused(world, ["error: 'ann-20261102100000' is not a submission of round 1"]) { () throws(Diagnostics) in
            _ = try game.vote(in: moon, by: Make.handle("cat"), for: ["ann-20261102100000"])
        }
        try expectRefused(world, ["error: 'bob-20261102100000' is named twice"]) { () throws(Diagnostics) in
            _ = try game.vote(in: moon, by: Make.handle("cat"), for: ["bob-20261102100000", "bob-20261102100000"])
        }
    }

    @Test func closingARoundWithoutSubmissions() throws {
        let world = try Playground()
        try world.standardSetup()
        try expectRefused(
            world,
            ["error: round 1 of 'moon' has no submissions to choose from; it stays open (close --due extends it once its deadline passes)"]
        ) { () throws(Diagnostics) in
            _ = try world.game("2026-11-05T00:00:00Z").close(moon)
        }
    }

    @Test func submittingAfterTheDeadline() throws {
        let world = try world()
        for now in ["2026-11-08T00:00:00Z", "2026-12-01T00:00:00Z"] {
            try expectRefused(
                world,
                ["error: round 1 of 'moon' stopped taking entries at its deadline 2026-11-08T00:00:00Z; a maintainer closes it with 'prolific close --due'"]
            ) { () throws(Diagnostics) in
                _ = try world.game(now).submit(to: moon, by: Make.handle("cat"), ending: false, body: "Late.")
            }
        }
    }

    @Test func aSecondSnippetInTheSameRound() throws {
        let world = try world()
        try expectRefused(world, ["error: @bob already submitted 'bob-20261102100000' to round 1; one snippet per round"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Again.")
        }
    }

    @Test func actingBeforeJoining() throws {
        let world = try world()
        _ = try world.game("2026-11-05T00:00:00Z").addUser(Make.handle("dan"), name: "Dan", bio: "")
        try expectRefused(world, ["error: @dan joined at 2026-11-05T00:00:00Z, after --now 2026-11-04T00:00:00Z"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-04T00:00:00Z").submit(to: moon, by: Make.handle("dan"), ending: false, body: "Early.")
        }
    }

    /// Handles that YAML would read as something else (`null`, `true`, `123`) survive a write and a read.
    @Test func handlesThatLookLikeYAMLValues() throws {
        let world = try Playground()
        let joining = world.game("2026-10-01T00:00:00Z")
        for name in ["null", "true", "123", "ann"] {
            _ = try joining.addUser(Make.handle(name), name: name, bio: "")
        }
        _ = try world.game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(slug: Make.slug("null"), title: "null", owner: Make.handle("null"), starter: "Go."))
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: Make.slug("null"), by: Make.handle("null"), ending: false, body: "A.")
        _ = try world.game("2026-11-02T01:00:00Z").submit(to: Make.slug("null"), by: Make.handle("123"), ending: false, body: "B.")
        _ = try world.game("2026-11-02T02:00:00Z").vote(in: Make.slug("null"), by: Make.handle("true"), for: ["null-20261102000000"])
        let report = try world.game("2026-11-03T00:00:00Z").close(Make.slug("null"))
        guard case .closed(let round, _) = report.outcome else { Issue.record("not closed"); return }
        #expect(round.winner == Make.id("null-20261102000000"))
        let (content, problems) = world.reader.loadAll()
        #expect(problems.isEmpty)
        #expect(content?.project(Make.slug("null"))?.owner == Make.handle("null"))
        #expect(content.map { ContentCheck.problems(in: $0) } == [])
    }

    @Test func duplicateUser() throws {
        let world = try world()
        try expectRefused(world, ["Content/users/ann.md:1:1: error: user 'ann' already exists"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").addUser(Make.handle("ann"), name: "Another Ann", bio: "")
        }
    }

    @Test func duplicateProject() throws {
        let world = try world()
        try expectRefused(world, ["Content/projects/moon:1:1: error: project 'moon' already exists"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").newProject(
                Game.ProjectRequest(slug: moon, title: "Moon Two", owner: Make.handle("bob"), starter: "Again."))
        }
    }

    @Test func unknownProject() throws {
        let world = try world()
        try expectRefused(world, ["error: unknown project 'sun': there is no Content/projects/sun"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("bob"), ending: false, body: "Hi.")
        }
        try expectRefused(world, ["error: unknown project 'sun': there is no Content/projects/sun"]) { () throws(Diagnostics) in
            _ = try world.game("2026-11-03T00:00:00Z").close(Make.slug("sun"))
        }
    }

    @Test func badTexts() throws {
        let world = try world()
        let game = world.game("2026-11-03T00:00:00Z")
        try expectRefused(world, ["error: the snippet is empty"]) { () throws(Diagnostics) in
            _ = try game.submit(to: moon, by: Make.handle("cat"), ending: false, body: " \n\t\n")
        }
        try expectRefused(world, ["error: the name must be one line without control characters"]) { () throws(Diagnostics) in
            _ = try game.addUser(Make.handle("dan"), name: "Dan\nDanson", bio: "")
        }
        try expectRefused(world, ["error: --rounds must be from 1 to 9999, found 0"]) { () throws(Diagnostics) in
            _ = try game.newProject(Game.ProjectRequest(slug: Make.slug("sun"), title: "Sun", owner: Make.handle("ann"), rounds: 0, starter: "Hot."))
        }
    }

    @Test func aFolderThatIsNotContent() throws {
        let tmp = try TemporaryDirectory()
        let game = Game(content: tmp.path, now: Make.time("2026-11-01T00:00:00Z"))
        #expect(
            thrown { () throws(Diagnostics) in try game.addUser(Make.handle("ann"), name: "Ann", bio: "") }
                == ["\(tmp.path)/prolific.yml:1:1: error: no prolific.yml here; is '\(tmp.path)' a content directory? ('prolific init' makes one)"])
        #expect(try tmp.snapshot() == [:])
    }
}
