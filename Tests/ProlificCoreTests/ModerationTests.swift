import Testing

@testable import ProlificCore

/// Hiding snippets: the rules of `Moderation`, and how the play, the tallies and `check` honour them.
@Suite struct ModerationTests {
    let bob = Make.submission("bob", at: "2026-11-02T10:00:00Z")
    let cat = Make.submission("cat", at: "2026-11-03T10:00:00Z")
    let dan = Make.submission("dan", at: "2026-11-03T11:00:00Z")

    /// Round 1 open (2026-11-01 to 2026-11-08): three snippets; bob's has most ballots.
    var openRound: Round {
        Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bob, cat, dan],
            ballots: [
                Make.ballot("ann", at: "2026-11-04T00:00:00Z", for: [bob.id]),
                Make.ballot("eve", at: "2026-11-04T00:00:00Z", for: [bob.id, cat.id]),
                Make.ballot("fay", at: "2026-11-04T00:00:00Z", for: [bob.id]),
                Make.ballot("gus", at: "2026-11-04T00:00:00Z", for: [cat.id]),
            ])
    }

    func project(_ rounds: [Round]) -> Project { Make.project(rounds: rounds) }

    func hidden(_ id: SubmissionID, at time: String) -> Round.Hidden {
        Round.Hidden(id: id, by: "keeper", at: Make.time(time), reason: "Copied from a novel.")
    }

    // MARK: Hide and unhide

    @Test func hidingRecordsWhoWhenAndWhy() throws {
        let round = try Moderation.hide(
            bob.id, in: project([openRound]), by: "keeper", reason: "Copied from a novel.", now: Make.time("2026-11-05T00:00:00Z"))
        #expect(round.hidden == [hidden(bob.id, at: "2026-11-05T00:00:00Z")])
        #expect(Moderation.shown(round).submissions.map(\.id) == [cat.id, dan.id])
    }

    @Test func hidingIsRefusedWithAReason() {
        let now = Make.time("2026-11-05T00:00:00Z")
        var already = openRound
        already.hidden = [hidden(bob.id, at: "2026-11-04T12:00:00Z")]
        let cases: [(Project, SubmissionID, String, String, String)] = [
            (project([openRound]), Make.id("bob", "2026-11-02T10:00:01Z"), "keeper", "Spam.", "is not a snippet of project 'moon'"),
            (project([already]), bob.id, "keeper", "Spam.", "'bob-20261102100000' is already hidden (by keeper at 2026-11-04T12:00:00Z"),
            (project([openRound]), bob.id, " ", "Spam.", "the --by name must not be empty"),
            (project([openRound]), bob.id, "keeper", "Two\nlines", "the reason must be one line"),
            (project([openRound]), bob.id, "keeper", String(repeating: "x", count: 501), "at most 500"),
        ]
        for (project, id, by, reason, message) in cases {
            #expect {
                try Moderation.hide(id, in: project, by: by, reason: reason, now: now)
            } throws: { ($0 as? RuleViolation)?.message.contains(message) == true }
        }
        #expect {
            try Moderation.hide(bob.id, in: project([openRound]), by: "k", reason: "r", now: Make.time("2026-11-02T09:00:00Z"))
        } throws: { ($0 as? RuleViolation)?.message == "'bob-20261102100000' was submitted at 2026-11-02T10:00:00Z, after --now 2026-11-02T09:00:00Z" }
    }

    @Test func aClosedRoundHidesOnlyAlternateTakesAfterItsClose() throws {
        var closed = openRound
        closed.closed = Make.time("2026-11-08T00:00:00Z")
        let outcome = Tally.count(closed)
        closed.winner = outcome.winner
        closed.tally = outcome.record
        #expect(closed.winner == bob.id)
        let after = Make.time("2026-11-09T00:00:00Z")
        #expect {
            try Moderation.hide(bob.id, in: project([closed]), by: "k", reason: "r", now: after)
        } throws: {
            ($0 as? RuleViolation)?.message == "'bob-20261102100000' won round 1 of 'moon'; a winner is part of the story and can't be hidden"
        }
        #expect {
            try Moderation.hide(cat.id, in: project([closed]), by: "k", reason: "r", now: Make.time("2026-11-08T00:00:00Z"))
        } throws: { ($0 as? RuleViolation)?.message.contains("closed at 2026-11-08T00:00:00Z, not before --now") == true }
        let hiddenLater = try Moderation.hide(cat.id, in: project([closed]), by: "k", reason: "r", now: after)
        // Hidden after the close: off the site, but the recorded tally still re-checks.
        #expect(Moderation.withheld(in: hiddenLater).isEmpty)
        #expect(Tally.count(hiddenLater) == outcome)
        #expect(Moderation.shown(hiddenLater).submissions.map(\.id) == [bob.id, dan.id])
        // …and it can be shown again.
        #expect(try Moderation.unhide(cat.id, in: project([hiddenLater])).hidden == [])
    }

    @Test func aSnippetHiddenBeforeTheCloseStaysHidden() throws {
        var round = openRound
        round.hidden = [hidden(bob.id, at: "2026-11-05T00:00:00Z")]
        #expect(try Moderation.unhide(bob.id, in: project([round])).hidden == [], "in the open round it can come back")
        round.closed = Make.time("2026-11-08T00:00:00Z")
        #expect {
            try Moderation.unhide(bob.id, in: project([round]))
        } throws: { ($0 as? RuleViolation)?.message.contains("was hidden before round 1 of 'moon' closed") == true }
        #expect {
            try Moderation.unhide(cat.id, in: project([round]))
        } throws: { ($0 as? RuleViolation)?.message == "'cat-20261103100000' is not hidden" }
    }

    // MARK: Play and tallies

    @Test func aHiddenSnippetCannotBeVotedFor() {
        var round = openRound
        round.hidden = [hidden(cat.id, at: "2026-11-05T00:00:00Z")]
        #expect {
            try Play.ballot(by: Make.user("ann"), choosing: [cat.id.rawValue], in: round, now: Make.time("2026-11-06T00:00:00Z"))
        } throws: {
            ($0 as? RuleViolation)?.message == "'cat-20261103100000' was hidden by a maintainer at 2026-11-05T00:00:00Z; it can't be voted for"
        }
    }

    @Test func bothTalliesLeaveHiddenSnippetsOut() {
        var round = openRound
        round.hidden = [hidden(bob.id, at: "2026-11-05T00:00:00Z")]
        round.closed = Make.time("2026-11-08T00:00:00Z")
        let plain = Tally.count(round)
        #expect(plain.winner == cat.id)
        #expect(plain.record.scores.map(\.id) == [cat.id, dan.id], "no score for the hidden snippet")
        #expect(plain.record.ballots == 2, "ann's and fay's ballots named only bob's snippet")
        #expect(plain.record.scores.first?.score == 2, "eve's ballot goes whole to cat's snippet")

        let users = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"].map { Make.user($0) }
        let content = Make.content(users: users, projects: [project([round])])
        let fair = TallyTimeline(content: content).tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
        #expect(fair.winner == cat.id)
        #expect(!fair.record.scores.contains { $0.id == bob.id })
        #expect(fair.ballots.allSatisfy { ballot in ballot.shares.allSatisfy { $0.id != bob.id } })
    }

    @Test func closingNeverPicksAHiddenSnippet() throws {
        var round = openRound
        round.hidden = [hidden(bob.id, at: "2026-11-05T00:00:00Z")]
        let plan = try Closing.plan(project([round]), trigger: .now, now: Make.time("2026-11-06T00:00:00Z"))
        guard case .close(let closed) = plan else {
            Issue.record("expected a close")
            return
        }
        #expect(closed.winner == cat.id)
        #expect(closed.hidden == round.hidden, "the entry stays, so a re-run sees what the close saw")

        round.hidden += [hidden(cat.id, at: "2026-11-05T00:00:00Z"), hidden(dan.id, at: "2026-11-05T00:00:00Z")]
        #expect {
            try Closing.plan(project([round]), trigger: .now, now: Make.time("2026-11-06T00:00:00Z"))
        } throws: { ($0 as? RuleViolation)?.message.contains("has no submissions to choose from (its snippets are hidden)") == true }
        #expect {
            try Closing.plan(project([round]), trigger: .now, now: Make.time("2026-11-04T00:00:00Z"))
        } throws: { ($0 as? RuleViolation)?.message.contains("was hidden at 2026-11-05T00:00:00Z, after --now") == true }
    }

    @Test func theHistoryLeavesOutWhatTheTallyLeftOut() {
        var round = openRound
        round.closed = Make.time("2026-11-08T00:00:00Z")
        var withheld = round
        withheld.hidden = [hidden(bob.id, at: "2026-11-05T00:00:00Z")]
        var afterwards = round
        afterwards.hidden = [hidden(bob.id, at: "2026-11-09T00:00:00Z")]
        var a = VotingHistory(), b = VotingHistory(), c = VotingHistory()
        a.record(round)
        b.record(withheld)
        c.record(afterwards)
        #expect(a.karma(of: Make.handle("bob")).snippets == 1)
        #expect(b.karma(of: Make.handle("bob")).snippets == 0)
        #expect(c.snapshot == a.snapshot, "hiding after the close changes no later tally")
    }

    // MARK: Removed players

    @Test func aRemovedVotersPastVotesWeighAsBefore() {
        var round = openRound
        round.closed = Make.time("2026-11-08T00:00:00Z")
        let users = ["ann", "bob", "cat", "dan", "eve", "gus"].map { Make.user($0) } + [Make.user("fay", joined: "2026-11-03T00:00:00Z")]
        let recorded = TallyTimeline(content: Make.content(users: users, projects: [project([round])])).replay()
        var gone = Make.content(users: users.filter { $0.handle.rawValue != "fay" }, projects: [project([round])])
        #expect(TallyTimeline(content: gone).replay().map(\.outcome) != recorded.map(\.outcome), "fay's age counts")
        gone.config.former = [FormerUser(handle: Make.handle("fay"), joined: Make.time("2026-11-03T00:00:00Z"), removed: Make.time("2026-11-09T00:00:00Z"))]
        #expect(TallyTimeline(content: gone).replay().map(\.outcome) == recorded.map(\.outcome))
    }

    // MARK: The queue

    @Test func hidingASnippetSettlesItsReports() {
        let report = { (who: String, snippet: SubmissionID) in
            Report(
                id: ReportID(reporter: Make.handle(who), time: Make.time("2026-11-05T00:00:00Z")), project: Make.slug("moon"),
                snippet: snippet, reason: "Not ok.", origin: Origin(path: "Content/reports/\(who).md"))
        }
        var round = openRound
        round.hidden = [hidden(bob.id, at: "2026-11-06T00:00:00Z")]
        let queue = Moderation.queue([report("zoe", bob.id), report("yan", cat.id)], projects: [project([round])])
        #expect(queue.map(\.snippet) == [cat.id])
    }
}
