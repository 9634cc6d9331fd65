import Testing

@testable import ProlificCore

/// One clean content, and one test per rule that breaks it in exactly one place.
@Suite struct ContentCheckTests {
    static let round1 = "Content/projects/moon/rounds/0001"
    static let round2 = "Content/projects/moon/rounds/0002"

    let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z", round: 1)
    let cat1 = Make.submission("cat", at: "2026-11-03T10:00:00Z", round: 1)
    let ann2 = Make.submission("ann", at: "2026-11-09T12:00:00Z", round: 2)
    let bob2 = Make.submission("bob", at: "2026-11-10T12:00:00Z", round: 2)

    var users: [User] {
        let follows = User.Follows(projects: [Make.slug("moon")], users: [Make.handle("bob")])
        let positions: Positions = [
            "follows.projects.0": TextPosition(line: 5, column: 15), "follows.users.0": TextPosition(line: 6, column: 12),
            "follows.users.1": TextPosition(line: 6, column: 17),
        ]
        return [Make.user("ann", follows: follows, positions: positions), Make.user("bob"), Make.user("cat")]
    }

    /// Round 1 closed (bob won, two ballots), round 2 open with two snippets and one ballot.
    var project: Project {
        let round1 = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [bob1, cat1],
            ballots: [
                Make.ballot("ann", at: "2026-11-04T00:00:00Z", for: [bob1.id], round: 1),
                Make.ballot("cat", at: "2026-11-04T00:00:00Z", for: [bob1.id], round: 1),
            ])
        let round2 = Make.round(
            2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: [ann2, bob2],
            ballots: [Make.ballot("cat", at: "2026-11-11T00:00:00Z", for: [ann2.id, bob2.id], round: 2)])
        return Make.project(roundLimit: 3, rounds: [round1, round2])
    }

    func problems(users: [User]? = nil, _ change: (inout Project) -> Void = { _ in }) -> [String] {
        var project = project
        change(&project)
        return ContentCheck.problems(in: Make.content(users: users ?? self.users, projects: [project])).map(\.description)
    }

    @Test func cleanContentHasNoProblems() {
        #expect(project.rounds[0].winner == bob1.id)
        #expect(problems() == [])
        #expect(ContentCheck.problems(in: Make.content(users: [], projects: [])) == [])
    }

    // MARK: References

    @Test func unknownOwner() {
        #expect(
            problems { $0.owner = Make.handle("zed") }
                == ["Content/projects/moon/project.md:3:8: error: owner 'zed' is not a user"])
    }

    @Test func unknownAuthor() {
        let zed = Make.submission("zed", at: "2026-11-11T12:00:00Z", round: 2)
        #expect(
            problems { $0.rounds[1].submissions.append(zed) }
                == ["\(Self.round2)/submissions/zed-20261111120000.md:2:9: error: author 'zed' is not a user"])
    }

    @Test func unknownVoter() {
        let ballot = Make.ballot("zed", at: "2026-11-11T00:00:00Z", for: [ann2.id], round: 2)
        #expect(
            problems { $0.rounds[1].ballots.append(ballot) }
                == ["\(Self.round2)/votes/zed.yml:1:8: error: voter 'zed' is not a user"])
    }

    @Test func choiceNotInTheRound() {
        #expect(
            problems { $0.rounds[1].ballots[0].choices[1] = bob1.id }
                == ["\(Self.round2)/votes/cat.yml:5:3: error: 'bob-20261102100000' is not a submission of round 2"])
    }

    @Test func votingForOwnSnippet() {
        let ballot = Make.ballot("bob", at: "2026-11-11T00:00:00Z", for: [ann2.id, bob2.id], round: 2)
        #expect(
            problems { $0.rounds[1].ballots.append(ballot) }
                == ["\(Self.round2)/votes/bob.yml:5:3: error: @bob votes for their own snippet 'bob-20261110120000'"])
    }

    @Test func duplicateChoice() {
        let ballot = Make.ballot("ann", at: "2026-11-11T00:00:00Z", for: [bob2.id, bob2.id], round: 2)
        #expect(
            problems { $0.rounds[1].ballots.append(ballot) }
                == ["\(Self.round2)/votes/ann.yml:5:3: error: 'bob-20261110120000' is named twice"])
    }

    @Test func emptyBallot() {
        let ballot = Make.ballot("ann", at: "2026-11-11T00:00:00Z", for: [], round: 2)
        #expect(
            problems { $0.rounds[1].ballots.append(ballot) }
                == ["\(Self.round2)/votes/ann.yml:4:3: error: a ballot names at least one submission"])
    }

    @Test func followsUnknownProjectAndUser() {
        var users = users
        users[0].follows = User.Follows(projects: [Make.slug("sun")], users: [Make.handle("bob"), Make.handle("zed")])
        #expect(
            problems(users: users)
                == [
                    "Content/users/ann.md:5:15: error: follows unknown project 'sun'",
                    "Content/users/ann.md:6:17: error: follows unknown user 'zed'",
                ])
    }

    // MARK: Rounds

    @Test func nonContiguousRounds() {
        #expect(
            problems { $0.rounds[1].number = Make.number(3) }
                == ["\(Self.round2)/round.md:1:1: error: round 3 follows round 1; round numbers must be contiguous"])
    }

    @Test func firstRoundNotNumberedOne() {
        #expect(
            problems { $0.rounds.removeFirst() }
                == ["\(Self.round2)/round.md:1:1: error: the first round is numbered 2; round numbers start at 1"])
    }

    @Test func anOpenRoundThatIsNotTheLast() {
        #expect(
            problems { project in
                project.rounds[0].closed = nil
                project.rounds[0].winner = nil
                project.rounds[0].tally = nil
            } == ["\(Self.round1)/round.md:1:1: error: round 1 is open but a later round exists; only the last round may be open"])
    }

    @Test func anOpenRoundWithAResult() {
        let tally = TallyRecord(method: Tally.method, ballots: 0, scores: [])
        #expect(
            problems { project in
                project.rounds[1].winner = ann2.id
                project.rounds[1].tally = tally
            } == [
                "\(Self.round2)/round.md:5:9: error: an open round has no winner; add 'closed' or remove 'winner'",
                "\(Self.round2)/round.md:7:3: error: an open round has no tally; add 'closed' or remove 'tally'",
            ])
    }

    @Test func deadlineNotAfterOpening() {
        #expect(
            problems { $0.rounds[1].closes = $0.rounds[1].opened }
                .contains("\(Self.round2)/round.md:3:9: error: the deadline 2026-11-08T00:00:00Z is not after the opening 2026-11-08T00:00:00Z"))
    }

    @Test func closedBeforeOpening() {
        // Every ballot is then also cast after the closing, which is only a warning: the error is the one.
        #expect(
            problems { $0.rounds[0].closed = Make.time("2026-10-31T00:00:00Z") }.filter { $0.contains(": error: ") }
                == ["\(Self.round1)/round.md:4:9: error: closed at 2026-10-31T00:00:00Z, before the round opened at 2026-11-01T00:00:00Z"])
    }

    @Test func closedRoundWithoutWinner() {
        #expect(
            problems { $0.rounds[0].winner = nil }
                == ["\(Self.round1)/round.md:4:9: error: a closed round names its 'winner'"])
    }

    @Test func closedRoundWithoutTally() {
        #expect(
            problems { $0.rounds[0].tally = nil }
                == ["\(Self.round1)/round.md:4:9: error: a closed round records its 'tally'"])
    }

    @Test func winnerNotASubmissionOfTheRound() {
        #expect(
            problems { $0.rounds[0].winner = ann2.id }
                == ["\(Self.round1)/round.md:5:9: error: winner 'ann-20261109120000' is not a submission of round 1"])
    }

    @Test func recordedWinnerDiffersFromTheTally() {
        #expect(
            problems { $0.rounds[0].winner = cat1.id }
                == ["\(Self.round1)/round.md:5:9: error: recorded winner 'cat-20261103100000' differs from the tally, which gives 'bob-20261102100000'"])
    }

    @Test func recordedScoreDiffersFromTheTally() {
        var positions = Make.roundPositions
        positions["tally.scores.bob-20261102100000"] = TextPosition(line: 10, column: 25)
        #expect(
            problems { project in
                project.rounds[0].origin.positions = positions
                project.rounds[0].tally?.scores[0].score = 1.5
            } == ["\(Self.round1)/round.md:10:25: error: recorded score 1.5 of 'bob-20261102100000' differs from the tally, which gives 2.0"])
    }

    @Test func anUnknownTallyMethodIsAnError() {
        #expect(
            problems { project in
                project.rounds[0].winner = cat1.id
                project.rounds[0].tally?.method = "ranked-1"
            } == ["\(Self.round1)/round.md:1:1: error: unknown tally method 'ranked-1'; expected 'fair-1' or 'plain-1'"])
    }

    // MARK: Entries

    @Test func submissionOutsideTheRoundWindow() {
        let late = Make.submission("cat", at: "2026-11-15T00:00:01Z", round: 2)
        #expect(
            problems { $0.rounds[1].submissions.append(late) }
                == ["\(Self.round2)/submissions/cat-20261115000001.md:3:12: error: submitted at 2026-11-15T00:00:01Z, outside round 2's window (from 2026-11-08T00:00:00Z, before 2026-11-15T00:00:00Z)"])
        let early = Make.submission("cat", at: "2026-11-07T23:59:59Z", round: 2)
        #expect(
            problems { $0.rounds[1].submissions.append(early) }
                == ["\(Self.round2)/submissions/cat-20261107235959.md:3:12: error: submitted at 2026-11-07T23:59:59Z, outside round 2's window (from 2026-11-08T00:00:00Z, before 2026-11-15T00:00:00Z)"])
    }

    @Test func ballotOutsideTheRoundWindow() {
        #expect(
            problems { $0.rounds[1].ballots[0].cast = Make.time("2026-11-16T00:00:00Z") }
                == ["\(Self.round2)/votes/cat.yml:2:7: error: cast at 2026-11-16T00:00:00Z, outside round 2's window (from 2026-11-08T00:00:00Z, before 2026-11-15T00:00:00Z)"])
    }

    /// The deadline itself is already too late, as `submit` and `vote` refuse it.
    @Test func anEntryExactlyAtTheDeadlineIsOutsideTheWindow() {
        #expect(
            problems { $0.rounds[1].ballots[0].cast = Make.time("2026-11-15T00:00:00Z") }
                == ["\(Self.round2)/votes/cat.yml:2:7: error: cast at 2026-11-15T00:00:00Z, outside round 2's window (from 2026-11-08T00:00:00Z, before 2026-11-15T00:00:00Z)"])
    }

    @Test func entriesBeforeTheUserJoined() {
        var users = users
        users[2].joined = Make.time("2026-11-11T12:00:00Z")  // cat
        #expect(
            problems(users: users)
                == [
                    "\(Self.round1)/submissions/cat-20261103100000.md:3:12: error: submitted at 2026-11-03T10:00:00Z, before @cat joined at 2026-11-11T12:00:00Z",
                    "\(Self.round1)/votes/cat.yml:2:7: error: cast at 2026-11-04T00:00:00Z, before @cat joined at 2026-11-11T12:00:00Z",
                    "\(Self.round2)/votes/cat.yml:2:7: error: cast at 2026-11-11T00:00:00Z, before @cat joined at 2026-11-11T12:00:00Z",
                ])
    }

    @Test func sameAuthorTwiceInARound() {
        let again = Make.submission("ann", at: "2026-11-12T00:00:00Z", round: 2)
        #expect(
            problems { $0.rounds[1].submissions.append(again) }
                == [
                    "\(Self.round2)/submissions/ann-20261112000000.md:2:9: error: @ann submitted twice to round 2; one snippet per round\n"
                        + "\(Self.round2)/submissions/ann-20261109120000.md:1:1: note: the other snippet"
                ])
    }

    // MARK: Status

    @Test func statusCompleteWhileNotComplete() {
        #expect(
            problems { $0.status = .complete }
                == ["Content/projects/moon/project.md:8:9: error: status is 'complete' but no ending has won and only 1 of 3 rounds have closed"])
    }

    @Test func openRoundInACompleteProject() {
        #expect(
            problems { $0.roundLimit = 1 }
                == ["\(Self.round2)/round.md:1:1: error: round 2 is open but the project is already complete"])
    }

    @Test func unsettledProjectsAreWarnedAbout() {
        let noOpenRound = ContentCheck.problems(
            in: Make.content(users: users, projects: [{ var p = project; p.rounds.removeLast(); return p }()]))
        #expect(noOpenRound.map(\.severity) == [.warning])
        #expect(
            noOpenRound.map(\.description)
                == ["Content/projects/moon/project.md:8:9: warning: the project has no open round; the next command on it opens one"])

        var ended = project
        ended.rounds.removeLast()
        ended.roundLimit = 1
        #expect(
            ContentCheck.problems(in: Make.content(users: users, projects: [ended])).map(\.description)
                == ["Content/projects/moon/project.md:8:9: warning: the project is complete but its status says 'open'; the next command on it records 'complete'"])
        ended.status = .complete
        #expect(ContentCheck.problems(in: Make.content(users: users, projects: [ended])) == [])
    }

    @Test func problemsAreSortedByPathThenPosition() {
        let found = ContentCheck.problems(
            in: Make.content(
                users: [Make.user("bob")],
                projects: [{ var p = project; p.rounds[1].ballots[0].choices = [bob1.id, ann2.id]; return p }()]))
        #expect(found == found.sorted())
        #expect(found.first?.path == "Content/projects/moon/project.md")
        #expect(found.count >= 4)
    }
}
