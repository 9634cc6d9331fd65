import Testing

@testable import ProlificCore

@Suite struct ClosingPlanTests {
    let opened = "2026-11-01T00:00:00Z"
    let closes = "2026-11-08T00:00:00Z"
    let bob = Make.submission("bob", at: "2026-11-02T10:00:00Z")
    let cat = Make.submission("cat", at: "2026-11-03T10:00:00Z")

    func project(submissions: [Submission] = [], ballots: [Ballot] = []) -> Project {
        Make.project(rounds: [Make.round(1, opened: opened, closes: closes, submissions: submissions, ballots: ballots)])
    }

    func violation(_ project: Project, _ trigger: Closing.Trigger, _ now: String) -> String? {
        do {
            _ = try Closing.plan(project, trigger: trigger, now: Make.time(now))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func closingNowWithoutSubmissionsIsRefused() {
        #expect(
            violation(project(), .now, "2026-11-05T00:00:00Z")
                == "round 1 of 'moon' has no submissions to choose from; it stays open (close --due extends it once its deadline passes)"
        )
        // Even past the deadline, `close PROJECT` does not extend: only --due does.
        #expect(violation(project(), .now, "2026-11-09T00:00:00Z") != nil)
    }

    @Test func closingWithoutAnOpenRoundIsRefused() {
        var stuck = project(submissions: [bob])
        stuck.rounds = []
        #expect(violation(stuck, .now, "2026-11-05T00:00:00Z") == "project 'moon' has no open round")
        let done = Make.project(
            roundLimit: 1,
            rounds: [Make.closedRound(1, opened: opened, closes: closes, closed: closes, submissions: [bob])])
        #expect(violation(done, .now, "2026-11-09T00:00:00Z") == "project 'moon' is complete; it has no open round")
        #expect(violation(done, .due, "2026-11-09T00:00:00Z") == "project 'moon' is complete; it has no open round")
    }

    @Test func closingBeforeTheRoundOpenedIsRefused() {
        #expect(
            violation(project(submissions: [bob]), .now, "2026-10-31T23:59:59Z")
                == "round 1 of 'moon' opened at 2026-11-01T00:00:00Z, after --now 2026-10-31T23:59:59Z")
    }

    @Test func closingAtOrBeforeABallotIsRefused() throws {
        let ballot = Make.ballot("cat", at: "2026-11-05T00:00:00Z", for: [bob.id])
        #expect(
            violation(project(submissions: [bob], ballots: [ballot]), .now, "2026-11-05T00:00:00Z")
                == "@cat's ballot in round 1 of 'moon' was cast at 2026-11-05T00:00:00Z, not before --now 2026-11-05T00:00:00Z; "
                + "a round closes after its last ballot (close it a second later)")
        let plan = try Closing.plan(project(submissions: [bob], ballots: [ballot]), trigger: .now, now: Make.time("2026-11-05T00:00:01Z"))
        guard case .close(let round) = plan else {
            Issue.record("expected a close, got \(String(describing: plan))")
            return
        }
        #expect(round.tally?.ballots == 1)
    }

    @Test func dueButNotYetIsNothingToDo() throws {
        #expect(try Closing.plan(project(submissions: [bob]), trigger: .due, now: Make.time("2026-11-07T23:59:59Z")) == nil)
        #expect(try Closing.plan(project(), trigger: .due, now: Make.time("2026-11-07T23:59:59Z")) == nil)
    }

    @Test func dueAtTheDeadlineCloses() throws {
        let plan = try Closing.plan(project(submissions: [bob]), trigger: .due, now: Make.time(closes))
        guard case .close(let round) = plan else {
            Issue.record("expected a close, got \(String(describing: plan))")
            return
        }
        #expect(round.closed == Make.time(closes))
        #expect(round.winner == bob.id)
    }

    @Test(arguments: [
        // now, new deadline: always the old one plus whole round lengths, strictly after now.
        ("2026-11-08T00:00:00Z", "2026-11-15T00:00:00Z"),
        ("2026-11-14T23:59:59Z", "2026-11-15T00:00:00Z"),
        ("2026-11-15T00:00:00Z", "2026-11-22T00:00:00Z"),
        ("2026-11-20T00:00:00Z", "2026-11-22T00:00:00Z"),
        ("2027-01-01T00:00:00Z", "2027-01-03T00:00:00Z"),
    ])
    func dueWithoutSubmissionsExtends(_ now: String, _ newDeadline: String) throws {
        let plan = try Closing.plan(project(), trigger: .due, now: Make.time(now))
        guard case .extend(let round) = plan else {
            Issue.record("expected an extension, got \(String(describing: plan))")
            return
        }
        #expect(round.closes == Make.time(newDeadline))
        #expect(round.extensions == [Round.Extension(at: Make.time(now), from: Make.time(closes))])
        #expect(round.isOpen)
        #expect(round.opened == Make.time(opened))
        #expect(round.winner == nil && round.tally == nil)
    }

    @Test func anotherExtensionKeepsTheEarlierOnes() throws {
        var earlier = project()
        let first = Round.Extension(at: Make.time("2026-11-01T12:00:00Z"), from: Make.time("2026-11-01T00:00:00Z"))
        earlier.rounds[0].extensions = [first]
        let plan = try Closing.plan(earlier, trigger: .due, now: Make.time("2026-11-09T00:00:00Z"))
        guard case .extend(let round) = plan else {
            Issue.record("expected an extension")
            return
        }
        #expect(round.extensions == [first, Round.Extension(at: Make.time("2026-11-09T00:00:00Z"), from: Make.time(closes))])
    }

    @Test func closingRecordsTheTally() throws {
        let ballots = [Make.ballot("ann", at: "2026-11-04T00:00:00Z", for: [cat.id])]
        let open = project(submissions: [bob, cat], ballots: ballots)
        let now = Make.time("2026-11-05T00:00:00Z")
        let plan = try Closing.plan(open, trigger: .now, now: now)
        var expected = open.rounds[0]
        expected.closed = now
        expected.winner = cat.id
        expected.tally = Tally.count(open.rounds[0]).record
        #expect(plan == .close(expected))
        #expect(expected.tally?.ballots == 1)
    }
}

@Suite struct ClosingNextStepTests {
    let bob = Make.submission("bob", at: "2026-11-02T10:00:00Z")
    let bobEnding = Make.submission("bob", at: "2026-11-02T10:00:00Z", ending: true)

    func closedRound1(_ submissions: [Submission]) -> Round {
        Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-06T09:30:00Z",
            submissions: submissions)
    }

    @Test func opensTheNextRoundAtTheRecordedCloseTime() throws {
        let project = Make.project(roundLimit: 3, roundLength: "1d12h", rounds: [closedRound1([bob])])
        guard case .open(let round) = Closing.nextStep(for: project) else {
            Issue.record("expected a round to open")
            return
        }
        #expect(round.number == Make.number(2))
        #expect(round.opened == Make.time("2026-11-06T09:30:00Z"))
        #expect(round.closes == Make.time("2026-11-07T21:30:00Z"))
        #expect(round.isOpen && round.submissions.isEmpty && round.ballots.isEmpty && round.extensions.isEmpty)
    }

    @Test func aNewProjectOpensRoundOneWhenCreated() throws {
        let project = Make.project(created: "2026-11-01T08:00:00Z", roundLength: "7d")
        guard case .open(let round) = Closing.nextStep(for: project) else {
            Issue.record("expected round 1 to open")
            return
        }
        #expect(round.number == RoundNumber.first)
        #expect(round.opened == Make.time("2026-11-01T08:00:00Z"))
        #expect(round.closes == Make.time("2026-11-08T08:00:00Z"))
    }

    @Test func completesWhenAnEndingWins() {
        let project = Make.project(roundLimit: 5, rounds: [closedRound1([bobEnding])])
        #expect(Closing.isComplete(project))
        #expect(Closing.nextStep(for: project) == .complete)
    }

    @Test func completesWhenTheLastRoundClosed() {
        let project = Make.project(roundLimit: 1, rounds: [closedRound1([bob])])
        #expect(Closing.isComplete(project))
        #expect(Closing.nextStep(for: project) == .complete)
    }

    @Test func settledProjectsNeedNothing() {
        var complete = Make.project(roundLimit: 1, rounds: [closedRound1([bob])])
        complete.status = .complete
        #expect(Closing.nextStep(for: complete) == nil)

        let running = Make.project(rounds: [Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z")])
        #expect(Closing.nextStep(for: running) == nil)

        // Marked complete without being complete is `check`'s business, not something to open a round for.
        var marked = Make.project(rounds: [closedRound1([bob])])
        marked.status = .complete
        #expect(Closing.nextStep(for: marked) == nil)
    }

    @Test func isComplete() {
        #expect(!Closing.isComplete(Make.project(roundLimit: 2, rounds: [closedRound1([bob])])))
        #expect(Closing.isComplete(Make.project(roundLimit: 1, rounds: [closedRound1([bob])])))
        #expect(Closing.isComplete(Make.project(roundLimit: 9, rounds: [closedRound1([bobEnding])])))
        // An ending that did not win does not complete the project.
        let laterEnding = Make.submission("cat", at: "2026-11-03T10:00:00Z", ending: true)
        let round = closedRound1([bob, laterEnding])
        #expect(round.winner == bob.id)
        #expect(!Closing.isComplete(Make.project(roundLimit: 2, rounds: [round])))
        // Open rounds don't count towards the limit.
        let open = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bobEnding])
        #expect(!Closing.isComplete(Make.project(roundLimit: 1, rounds: [open])))
    }
}
