import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `new submission`, `new ballot`, `follow` and `unfollow` on a real content directory.
@Suite struct ContributorActionsTests {
    let moon = Make.slug("moon")
    let world: Playground

    init() throws {
        world = try Playground()
        try world.standardSetup()
    }

    @Test func newSubmissionWritesAPlaceholderThatCheckRefuses() throws {
        let game = world.game("2026-11-02T10:00:00Z")
        let draft = try game.newSubmission(to: moon, by: Make.handle("bob"), ending: false, body: nil)
        let path = "\(world.root)/projects/moon/rounds/0001/submissions/bob-20261102100000.md"
        #expect(draft.origin.path == path)
        #expect(game.changes.paths == [path])
        #expect(
            try world.directory.read("Content/projects/moon/rounds/0001/submissions/bob-20261102100000.md")
                == "---\nauthor: bob\nsubmitted: 2026-11-02T10:00:00Z\nending: false\n---\n\n\(Placeholder.snippet)\n")
        let (content, problems) = world.reader.loadAll()
        #expect(problems.isEmpty)
        let found = try #require(content).projects.flatMap(\.rounds).flatMap(\.submissions).flatMap(Placeholder.problems(of:))
        #expect(found.map(\.description).first?.hasPrefix("\(path):7:1: error: the snippet is still the placeholder") == true)

        // The same rules as submit: one snippet per author and round.
        #expect(
            thrown { () throws(Diagnostics) in
                try world.game("2026-11-02T11:00:00Z").newSubmission(to: moon, by: Make.handle("bob"), ending: false, body: "Again.")
            } == ["error: @bob already submitted 'bob-20261102100000' to round 1; one snippet per round"])
    }

    @Test func thePlaceholderIsFoundAtItsLineWhateverTheBlankLinesAbove() throws {
        let id = Make.id("bob-20261102100000")
        let text = "---\r\nauthor: bob\r\nsubmitted: 2026-11-02T10:00:00Z\r\n---\r\n\r\n  \r\n\r\nIt began.\r\n\(Placeholder.snippet)\r\n"
        let submission = try SubmissionFile.parse(text, path: "s.md", id: id)
        #expect(submission.origin.positions["body"] == TextPosition(line: 8, column: 1))
        #expect(Placeholder.problems(of: submission).first?.position == TextPosition(line: 9, column: 1))
    }

    @Test func newSubmissionWithABodyIsASnippet() throws {
        let draft = try world.game("2026-11-02T10:00:00Z").newSubmission(
            to: moon, by: Make.handle("cat"), ending: true, body: "The end.\n")
        #expect(draft.ending && draft.body == "The end.\n")
        #expect(try world.directory.read("Content/projects/moon/rounds/0001/submissions/cat-20261102100000.md").hasSuffix("\nThe end.\n"))
    }

    @Test func newBallotIsCreatedOnceAndNamesTheChoicesWhenThereAreNone() throws {
        let bob = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        let cat = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat.")
        let game = world.game("2026-11-03T00:00:00Z")
        let before = try world.snapshot()
        let listing = thrown { () throws(Diagnostics) in try game.newBallot(in: moon, by: Make.handle("ann"), for: []) }
        let names = Set([bob.id.rawValue, cat.id.rawValue])
        #expect(listing?.count == 1)
        #expect(listing?.first?.hasPrefix("error: name the snippets @ann approves; round 1 of 'moon' has ") == true)
        #expect(names.allSatisfy { listing?.first?.contains($0) == true })
        #expect(try world.snapshot() == before)

        let draft = try game.newBallot(in: moon, by: Make.handle("ann"), for: [cat.id.rawValue])
        let path = "\(world.root)/projects/moon/rounds/0001/votes/ann.yml"
        #expect(draft.ballot.origin.path == path && draft.round == Make.number(1))
        #expect(game.changes.paths == [path])
        #expect(
            try world.directory.read("Content/projects/moon/rounds/0001/votes/ann.yml")
                == "voter: ann\ncast: 2026-11-03T00:00:00Z\nfor:\n- \(cat.id)\n")
        #expect(
            thrown { () throws(Diagnostics) in
                try world.game("2026-11-03T01:00:00Z").newBallot(in: moon, by: Make.handle("ann"), for: [bob.id.rawValue])
            } == [
                "\(path):1:1: error: @ann already has a ballot in round 1 of 'moon'; edit this file, or replace it with 'prolific vote'"
            ])
        #expect(
            thrown { () throws(Diagnostics) in
                try game.newBallot(in: moon, by: Make.handle("bob"), for: [bob.id.rawValue])
            } == ["error: @bob cannot vote for their own snippet '\(bob.id)'"])
    }

    @Test func ballotChoicesAnswerWithoutWriting() throws {
        let bob = try world.game("2026-11-02T10:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        let cat = try world.game("2026-11-02T11:00:00Z").submit(to: moon, by: Make.handle("cat"), ending: false, body: "Cat.")
        let game = world.game("2026-11-03T00:00:00Z")
        let before = try world.snapshot()
        let forAnn = try game.ballotChoices(in: moon, for: Make.handle("ann"))
        #expect(forAnn.round == Make.number(1) && Set(forAnn.choices) == [bob.id, cat.id] && forAnn.existing == nil)
        #expect(try game.ballotChoices(in: moon, for: Make.handle("bob")).choices == [cat.id])
        #expect(try world.snapshot() == before && game.changes.paths.isEmpty)

        _ = try game.newBallot(in: moon, by: Make.handle("ann"), for: [cat.id.rawValue])
        #expect(
            try world.game("2026-11-03T01:00:00Z").ballotChoices(in: moon, for: Make.handle("ann")).existing
                == "\(world.root)/projects/moon/rounds/0001/votes/ann.yml")
        #expect(
            thrown { () throws(Diagnostics) in try world.game("2026-11-03T01:00:00Z").ballotChoices(in: moon, for: Make.handle("dee")) }
                == ["error: unknown user 'dee': there is no \(world.root)/users/dee.md"])
    }

    @Test func followRewritesOnlyTheFollows() throws {
        let profile = """
            ---
            name: ANN
            joined: 2026-10-01T00:00:00Z
            links:
            - title: Home
              url: https://ann.example/
            ---

            Writes at *night*.

            """
        try world.directory.write(profile, to: "Content/users/ann.md")
        let game = world.game("2026-11-02T00:00:00Z")
        let followed = try game.follow(.project(moon), by: Make.handle("ann"))
        #expect(followed.changed)
        #expect(try game.follow(.user(Make.handle("bob")), by: Make.handle("ann")).changed)
        #expect(game.changes.paths == ["\(world.root)/users/ann.md"])
        let after = try world.reader.loadUser(Make.handle("ann"))
        #expect(after.follows == User.Follows(projects: [moon], users: [Make.handle("bob")]))
        #expect(after.links == [User.Link(title: "Home", url: "https://ann.example/")])
        #expect(after.bio == "Writes at *night*." && after.name == "ANN" && after.joined == Make.time("2026-10-01T00:00:00Z"))

        let before = try world.snapshot()
        let again = world.game("2026-11-02T01:00:00Z")
        #expect(try !again.follow(.project(moon), by: Make.handle("ann")).changed)
        #expect(try !again.unfollow(.project(Make.slug("sun")), by: Make.handle("ann")).changed)
        #expect(again.changes.paths.isEmpty)
        #expect(try world.snapshot() == before)

        #expect(try again.unfollow(.user(Make.handle("bob")), by: Make.handle("ann")).changed)
        #expect(try world.reader.loadUser(Make.handle("ann")).follows == User.Follows(projects: [moon]))
    }

    @Test func followRefusesUnknownTargetsAndSelf() throws {
        let game = world.game("2026-11-02T00:00:00Z")
        let before = try world.snapshot()
        #expect(
            thrown { () throws(Diagnostics) in try game.follow(.project(Make.slug("sun")), by: Make.handle("ann")) }
                == ["error: unknown project 'sun': there is no \(world.root)/projects/sun/project.md"])
        #expect(
            thrown { () throws(Diagnostics) in try game.follow(.user(Make.handle("dee")), by: Make.handle("ann")) }
                == ["error: unknown user 'dee': there is no \(world.root)/users/dee.md"])
        #expect(
            thrown { () throws(Diagnostics) in try game.follow(.user(Make.handle("ann")), by: Make.handle("ann")) }
                == ["error: @ann cannot follow themselves"])
        #expect(
            thrown { () throws(Diagnostics) in try game.follow(.project(moon), by: Make.handle("dee")) }
                == ["error: unknown user 'dee': there is no \(world.root)/users/dee.md"])
        #expect(try world.snapshot() == before)
    }

    @Test func actionsRecordEveryFileTheyWrite() throws {
        let game = world.game("2026-11-09T00:00:00Z")
        _ = try world.game("2026-11-02T00:00:00Z").submit(to: moon, by: Make.handle("bob"), ending: false, body: "Bob.")
        _ = try game.close(moon)
        #expect(
            game.changes.paths == [
                "\(world.root)/projects/moon/rounds/0001/round.md", "\(world.root)/projects/moon/rounds/0002/round.md",
            ])
    }
}
