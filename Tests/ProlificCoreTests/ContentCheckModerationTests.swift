import Testing

@testable import ProlificCore

/// `check` with removed players, hidden snippets and readers' reports.
@Suite struct ContentCheckModerationTests {
    static let round1 = "Content/projects/moon/rounds/0001"
    static let round2 = "Content/projects/moon/rounds/0002"

    let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z", round: 1)
    let cat1 = Make.submission("cat", at: "2026-11-03T10:00:00Z", round: 1)
    let ann2 = Make.submission("ann", at: "2026-11-09T12:00:00Z", round: 2)
    let cat2 = Make.submission("cat", at: "2026-11-10T12:00:00Z", round: 2)

    /// ann's project: round 1 closed (bob won; ann and cat voted), round 2 open with ann's and
    /// cat's snippets and no ballot yet.
    var project: Project {
        let round1 = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [bob1, cat1],
            ballots: [
                Make.ballot("ann", at: "2026-11-04T00:00:00Z", for: [bob1.id], round: 1),
                Make.ballot("cat", at: "2026-11-04T00:00:00Z", for: [bob1.id], round: 1),
            ])
        let round2 = Make.round(2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: [ann2, cat2])
        return Make.project(roundLimit: 3, rounds: [round1, round2])
    }

    /// cat removed at 2026-11-12: no profile, listed under `former`.
    func problems(
        users: [String] = ["ann", "bob"], removed: String = "2026-11-12T00:00:00Z", reports: [Report] = [],
        _ change: (inout Project) -> Void = { _ in }
    ) -> [String] {
        var project = project
        change(&project)
        var config = Config.defaults()
        config.former = [FormerUser(handle: Make.handle("cat"), joined: Make.time("2026-10-01T00:00:00Z"), removed: Make.time(removed))]
        config.origin = Origin(path: "Content/prolific.yml", positions: ["former.0.handle": TextPosition(line: 7, column: 11)])
        let profiles = users.map { Make.user($0) }
        let content = Content(
            config: config, users: Dictionary(uniqueKeysWithValues: profiles.map { ($0.handle, $0) }), projects: [project],
            reports: reports)
        return ContentCheck.problems(in: content).map(\.description)
    }

    // MARK: Removed players

    @Test func aRemovedPlayersSnippetsAndClosedBallotsStay() {
        #expect(problems() == [])
    }

    @Test func aBallotInAnOpenRoundByARemovedPlayerIsAnError() {
        let ballot = Make.ballot("cat", at: "2026-11-11T00:00:00Z", for: [ann2.id], round: 2)
        #expect(
            problems { $0.rounds[1].ballots.append(ballot) }
                == [
                    "\(Self.round2)/votes/cat.yml:1:8: error: voter 'cat' was removed at 2026-11-12T00:00:00Z; their ballots in open rounds were withdrawn"
                ])
    }

    @Test func nothingByARemovedPlayerAfterTheirRemoval() {
        #expect(
            problems(removed: "2026-11-10T00:00:00Z")
                == [
                    "\(Self.round2)/submissions/cat-20261110120000.md:3:12: error: submitted at 2026-11-10T12:00:00Z, after @cat was removed at 2026-11-10T00:00:00Z"
                ])
    }

    @Test func aTypoIsStillUnknown() {
        let zed = Make.submission("zed", at: "2026-11-11T12:00:00Z", round: 2)
        #expect(
            problems { $0.rounds[1].submissions.append(zed) }
                == ["\(Self.round2)/submissions/zed-20261111120000.md:2:9: error: author 'zed' is not a user"])
    }

    @Test func aRemovedOwnerStillOwns() {
        #expect(problems { $0.owner = Make.handle("cat") } == [])
    }

    @Test func aRemovedHandleIsNotReused() {
        #expect(
            problems(users: ["ann", "bob", "cat"])
                == [
                    "Content/prolific.yml:7:11: error: 'cat' is a former player but users/cat.md exists; a removed handle is not reused ('prolific user remove cat' finishes an interrupted removal)"
                ])
    }

    // MARK: Hidden snippets

    @Test func hiddenEntriesNameTheRoundsOwnSnippetsButNotItsWinner() {
        let entry = { (id: SubmissionID) in Round.Hidden(id: id, by: "keeper", at: Make.time("2026-11-09T00:00:00Z"), reason: "r") }
        #expect(problems { $0.rounds[0].hidden = [entry(cat1.id)] } == [], "an alternate take hidden after the close")
        let found = problems { $0.rounds[0].hidden = [entry(bob1.id), entry(ann2.id), entry(cat1.id), entry(cat1.id)] }
        #expect(
            found == [
                "\(Self.round1)/round.md:1:1: error: 'cat-20261103100000' is hidden twice",
                "\(Self.round1)/round.md:1:1: error: hidden 'ann-20261109120000' is not a submission of round 1",
                "\(Self.round1)/round.md:1:1: error: the winner 'bob-20261102100000' is hidden; a winner is part of the story",
            ])
    }

    @Test func aBallotCastAfterAHideIsWarnedAbout() {
        let ballot = Make.ballot("bob", at: "2026-11-11T00:00:00Z", for: [ann2.id, cat2.id], round: 2)
        let found = problems { project in
            project.rounds[1].ballots.append(ballot)
            project.rounds[1].hidden = [Round.Hidden(id: cat2.id, by: "keeper", at: Make.time("2026-11-10T13:00:00Z"), reason: "r")]
        }
        #expect(
            found == [
                "\(Self.round2)/votes/bob.yml:5:3: warning: 'cat-20261110120000' was hidden at 2026-11-10T13:00:00Z, before this ballot was cast; it counts for nothing"
            ])
    }

    // MARK: Reports

    @Test func reportsNameAKnownSnippet() {
        func report(_ project: String, _ snippet: SubmissionID, round: Int? = nil) -> Report {
            Report(
                id: ReportID(reporter: Make.handle("zoe"), time: Make.time("2026-11-11T00:00:00Z")), project: Make.slug(project),
                round: round.map(Make.number), snippet: snippet, reason: "Not ok.",
                origin: Origin(
                    path: "Content/reports/zoe-20261111000000.md",
                    positions: ["project": TextPosition(line: 2, column: 10), "round": TextPosition(line: 3, column: 8), "snippet": TextPosition(line: 4, column: 10)]))
        }
        #expect(problems(reports: [report("moon", cat2.id), report("moon", cat1.id, round: 1)]) == [])
        #expect(problems(reports: [report("sun", cat2.id)]) == ["Content/reports/zoe-20261111000000.md:2:10: error: unknown project 'sun'"])
        #expect(
            problems(reports: [report("moon", Make.id("cat", "2026-11-10T12:00:01Z"))])
                == ["Content/reports/zoe-20261111000000.md:4:10: error: 'cat-20261110120001' is not a snippet of project 'moon'"])
        #expect(
            problems(reports: [report("moon", cat2.id, round: 1)])
                == ["Content/reports/zoe-20261111000000.md:3:8: error: 'cat-20261110120000' is a snippet of round 2, not round 1"])
    }
}
