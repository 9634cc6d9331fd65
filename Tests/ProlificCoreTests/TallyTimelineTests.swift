import Testing

@testable import ProlificCore

@Suite struct TallyContextTests {
    func round(closes: String, closed: String? = nil) -> Round {
        Make.round(1, opened: "2026-11-01T00:00:00Z", closes: closes, closed: closed)
    }

    @Test func cutoffIsTheDeadlineOrAnEarlierClosing() {
        let deadline = "2026-11-08T00:00:00Z"
        // Open, no clock: the deadline.
        #expect(TallyContext.cutoff(of: round(closes: deadline)) == Make.time(deadline))
        // Open, closing now before the deadline: now; after it: the deadline.
        #expect(
            TallyContext.cutoff(of: round(closes: deadline), closingAt: Make.time("2026-11-05T00:00:00Z"))
                == Make.time("2026-11-05T00:00:00Z"))
        #expect(
            TallyContext.cutoff(of: round(closes: deadline), closingAt: Make.time("2026-11-09T00:00:00Z"))
                == Make.time(deadline))
        // Closed early: the closing, whatever the clock says.
        let early = round(closes: deadline, closed: "2026-11-06T00:00:00Z")
        #expect(TallyContext.cutoff(of: early) == Make.time("2026-11-06T00:00:00Z"))
        #expect(TallyContext.cutoff(of: early, closingAt: Make.time("2026-11-04T00:00:00Z")) == Make.time("2026-11-06T00:00:00Z"))
        #expect(TallyContext.cutoff(of: early, closingAt: Make.time("2026-12-01T00:00:00Z")) == Make.time("2026-11-06T00:00:00Z"))
        // Closed late (by `close --due` after the deadline): the deadline.
        let late = round(closes: deadline, closed: "2026-11-10T00:00:00Z")
        #expect(TallyContext.cutoff(of: late) == Make.time(deadline))
        #expect(TallyContext.cutoff(of: late, closingAt: Make.time("2026-11-05T00:00:00Z")) == Make.time(deadline))
    }
}

@Suite struct TallyTimelineTests {
    let users = ["ann", "bob", "cat", "dan", "eve"].map { Make.user($0) }

    // MARK: History as of a moment

    /// moon (ann's, created 2026-11-01) has round 1 closed at 2026-11-08; sun (bob's) was created
    /// at 2026-11-08 and has round 1 closed at 2026-11-15.
    var twoProjects: Content {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat1 = Make.submission("cat", at: "2026-11-02T11:00:00Z")
        let moon = Make.project(
            "moon", owner: "ann", created: "2026-11-01T00:00:00Z",
            rounds: [
                Make.closedRound(
                    1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
                    submissions: [bob1, cat1], ballots: [Make.ballot("dan", at: "2026-11-03T00:00:00Z", for: [bob1.id])])
            ])
        let ann1 = Make.submission("ann", at: "2026-11-09T10:00:00Z", slug: "sun")
        let sun = Make.project(
            "sun", owner: "bob", created: "2026-11-08T00:00:00Z",
            rounds: [
                Make.closedRound(
                    1, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", closed: "2026-11-15T00:00:00Z",
                    submissions: [ann1], slug: "sun")
            ])
        return Make.content(users: users, projects: [moon, sun])
    }

    @Test func historyHoldsOnlyWhatWasOverStrictlyBeforeTheCutoff() {
        let timeline = TallyTimeline(content: twoProjects)
        func karma(_ history: VotingHistory, _ name: String) -> Karma { history.karma(of: Make.handle(name)) }

        let start = timeline.history(before: Make.time("2026-11-01T00:00:00Z"))
        #expect(start.roundsRecorded == 0)
        #expect(start.karma.isEmpty)

        // At 2026-11-08 moon's round closes and sun is created: neither is in the past yet.
        let atClose = timeline.history(before: Make.time("2026-11-08T00:00:00Z"))
        #expect(atClose.roundsRecorded == 0)
        #expect(karma(atClose, "ann") == Karma(projects: 1))
        #expect(karma(atClose, "bob") == Karma())

        let after = timeline.history(before: Make.time("2026-11-08T00:00:01Z"))
        #expect(after.roundsRecorded == 1)
        #expect(karma(after, "bob") == Karma(snippets: 1, wins: 1, projects: 1))
        #expect(karma(after, "cat") == Karma(snippets: 1))
        #expect(karma(after, "dan") == Karma(ballots: 1))
        #expect(karma(after, "ann") == Karma(projects: 1))

        let all = timeline.history(before: Make.time("2026-11-15T00:00:01Z"))
        #expect(all.roundsRecorded == 2)
        #expect(karma(all, "ann") == Karma(snippets: 1, wins: 1, projects: 1))
    }

    @Test func openRoundsAreNoHistory() {
        var content = twoProjects
        content.projects[0].rounds[0].closed = nil
        content.projects[0].rounds[0].winner = nil
        content.projects[0].rounds[0].tally = nil
        let history = TallyTimeline(content: content).history(before: Make.time("2027-01-01T00:00:00Z"))
        #expect(history.roundsRecorded == 1)
        #expect(history.karma(of: Make.handle("dan")) == Karma())
    }

    // MARK: Git evidence

    @Test func joinedIsMovedLaterByAFirstCommitButNeverEarlier() throws {
        let evidence = IdentityEvidence(firstCommits: [
            Make.handle("ann"): Make.time("2026-11-05T00:00:00Z"),  // later than the profile says
            Make.handle("bob"): Make.time("2026-09-01T00:00:00Z"),  // earlier
            Make.handle("zed"): Make.time("2026-09-01T00:00:00Z"),  // no such user
        ])
        let timeline = TallyTimeline(content: twoProjects, evidence: evidence)
        #expect(timeline.joined[Make.handle("ann")] == Make.time("2026-11-05T00:00:00Z"))
        #expect(timeline.joined[Make.handle("bob")] == Make.time("2026-10-01T00:00:00Z"))
        #expect(timeline.joined[Make.handle("cat")] == Make.time("2026-10-01T00:00:00Z"))
        #expect(timeline.joined[Make.handle("zed")] == nil)
        #expect(TallyTimeline(content: twoProjects).joined[Make.handle("ann")] == Make.time("2026-10-01T00:00:00Z"))

        // The tally weighs ann as three days old.
        let bob2 = Make.submission("bob", at: "2026-11-09T10:00:00Z", round: 2)
        let open = Make.round(
            2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: [bob2],
            ballots: [Make.ballot("ann", at: "2026-11-09T12:00:00Z", for: [bob2.id], round: 2)])
        let later = timeline.tally(open, of: Make.slug("moon"), closingAt: Make.time("2026-11-10T00:00:00Z"))
        #expect(try #require(later.ballots.first).ageDays == 5)
        #expect(nearly(try #require(later.ballots.first).base, VoteWeight.karmaGate(3) * VoteWeight.ageGate(days: 5)))
    }

    @Test func evidenceGivesIdentitiesAndSuspects() throws {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let round = Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bob1],
            ballots: [
                Make.ballot("dan", at: "2026-11-03T12:00:00Z", for: [bob1.id]),
                Make.ballot("eve", at: "2026-11-03T12:00:00Z", for: [bob1.id]),
                Make.ballot("cat", at: "2026-11-03T12:00:00Z", for: [bob1.id]),
            ])
        let key = IdentityEvidence.key(Make.slug("moon"), Make.number(1))
        #expect(key == "moon/0001")
        let evidence = IdentityEvidence(ballotCommits: [
            key: [
                // dan's ballot claims a cast an hour after the commit that added it.
                Make.handle("dan"): .init(identity: "dan@example.org", time: Make.time("2026-11-03T11:00:00Z")),
                Make.handle("eve"): .init(identity: "eve@example.org", time: Make.time("2026-11-03T12:00:00Z")),
            ],
            "sun/0001": [Make.handle("cat"): .init(identity: "cat@example.org", time: Make.time("2026-11-01T00:00:00Z"))],
        ])
        #expect(!evidence.isEmpty)
        #expect(IdentityEvidence().isEmpty)
        #expect(
            evidence.suspects(in: round, of: Make.slug("moon"))
                == [Make.handle("dan"): "cast 2026-11-03T12:00:00Z is after the commit that added it (2026-11-03T11:00:00Z)"])
        // The commits are looked up by the round's project: in "sun", cat's commit predates her cast.
        #expect(evidence.suspects(in: round, of: Make.slug("sun")).keys.map(\.rawValue) == ["cat"])
        #expect(evidence.suspects(in: round, of: Make.slug("star")).isEmpty)
        #expect(
            evidence.identities(Make.slug("moon"), Make.number(1))
                == [Make.handle("dan"): "dan@example.org", Make.handle("eve"): "eve@example.org"])
        #expect(evidence.identities(Make.slug("moon"), Make.number(2)).isEmpty)

        // The tally drops dan's ballot: only eve and cat count.
        let content = Make.content(users: users, projects: [Make.project(rounds: [round])])
        let outcome = TallyTimeline(content: content, evidence: evidence)
            .tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
        #expect(outcome.ballots.map(\.voter.rawValue) == ["cat", "eve"])
        #expect(outcome.record.ballots == 2)
        let plain = TallyTimeline(content: content)
            .tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
        #expect(plain.record.ballots == 3)
    }

    // MARK: Replay

    /// Two projects whose rounds interleave, each round closed in time order with the timeline's
    /// tally as `close --due` would, then a third round opened in each.
    ///
    /// moon r1 Nov 1–8, sun r1 Nov 4–11, moon r2 Nov 8–15, sun r2 Nov 11–18.
    static func played() throws -> Content {
        let users = ["ann", "bob", "cat", "dan", "eve"].map { Make.user($0) } + [Make.user("fay", joined: "2026-11-05T00:00:00Z")]
        let m1b = Make.submission("bob", at: "2026-11-02T10:00:00Z", round: 1, slug: "moon")
        let m1c = Make.submission("cat", at: "2026-11-02T11:00:00Z", round: 1, slug: "moon")
        let s1a = Make.submission("ann", at: "2026-11-05T10:00:00Z", round: 1, slug: "sun")
        let s1d = Make.submission("dan", at: "2026-11-05T11:00:00Z", round: 1, slug: "sun")
        let m2c = Make.submission("cat", at: "2026-11-09T10:00:00Z", round: 2, slug: "moon")
        let m2d = Make.submission("dan", at: "2026-11-09T11:00:00Z", round: 2, slug: "moon")
        let m2e = Make.submission("eve", at: "2026-11-10T10:00:00Z", round: 2, slug: "moon")
        let s2b = Make.submission("bob", at: "2026-11-12T10:00:00Z", round: 2, slug: "sun")
        let s2c = Make.submission("cat", at: "2026-11-12T11:00:00Z", round: 2, slug: "sun")
        func ballot(_ voter: String, _ at: String, _ choices: [Submission], _ round: Int, _ slug: String) -> Ballot {
            Make.ballot(voter, at: at, for: choices.map(\.id), round: round, slug: slug)
        }
        let contents: [String: (submissions: [Submission], ballots: [Ballot])] = [
            "moon/1": (
                [m1b, m1c],
                [
                    ballot("ann", "2026-11-03T00:00:00Z", [m1b], 1, "moon"),
                    ballot("dan", "2026-11-03T00:00:00Z", [m1c], 1, "moon"),
                    ballot("eve", "2026-11-04T00:00:00Z", [m1b, m1c], 1, "moon"),
                ]
            ),
            "sun/1": (
                [s1a, s1d],
                [
                    ballot("bob", "2026-11-09T00:00:00Z", [s1a], 1, "sun"),
                    ballot("cat", "2026-11-09T00:00:00Z", [s1d], 1, "sun"),
                    ballot("eve", "2026-11-06T00:00:00Z", [s1a], 1, "sun"),
                    ballot("fay", "2026-11-07T00:00:00Z", [s1d], 1, "sun"),
                ]
            ),
            "moon/2": (
                [m2c, m2d, m2e],
                [
                    ballot("ann", "2026-11-12T00:00:00Z", [m2c], 2, "moon"),
                    ballot("bob", "2026-11-12T00:00:00Z", [m2d, m2e], 2, "moon"),
                    ballot("fay", "2026-11-12T00:00:00Z", [m2e], 2, "moon"),
                    ballot("cat", "2026-11-12T00:00:00Z", [m2d], 2, "moon"),
                ]
            ),
            "sun/2": (
                [s2b, s2c],
                [
                    ballot("ann", "2026-11-14T00:00:00Z", [s2b], 2, "sun"),
                    ballot("dan", "2026-11-14T00:00:00Z", [s2c], 2, "sun"),
                    ballot("eve", "2026-11-14T00:00:00Z", [s2c], 2, "sun"),
                    ballot("fay", "2026-11-14T00:00:00Z", [s2b], 2, "sun"),
                ]
            ),
        ]
        func fill(_ round: Round, of slug: String) -> Round {
            var round = round
            round.origin = Origin(
                path: "Content/projects/\(slug)/rounds/\(round.number.folderName)/round.md", positions: Make.roundPositions)
            if let content = contents["\(slug)/\(round.number.value)"] {
                round.submissions = content.submissions
                round.ballots = content.ballots
            }
            return round
        }

        var projects: [String: Project] = [
            "moon": Make.project("moon", owner: "ann", created: "2026-11-01T00:00:00Z", roundLimit: 3),
            "sun": Make.project("sun", owner: "bob", created: "2026-11-04T00:00:00Z", roundLimit: 3),
        ]
        // Open each first round as the game would.
        for slug in ["moon", "sun"] {
            guard case .open(let round) = Closing.nextStep(for: projects[slug]!) else { Issue.record("no round 1"); continue }
            projects[slug]!.rounds.append(fill(round, of: slug))
        }
        for slug in ["moon", "sun", "moon", "sun"] {
            let content = Make.content(users: users, projects: Array(projects.values))
            let timeline = TallyTimeline(content: content)
            var project = projects[slug]!
            let now = try #require(project.openRound).closes
            let plan = try Closing.plan(project, trigger: .due, now: now) { round in
                let outcome = timeline.tally(round, of: project.slug, closingAt: now)
                return Tally.Outcome(record: outcome.record, winner: outcome.winner)
            }
            guard case .close(let closed) = plan else {
                Issue.record("round of \(slug) was not closed: \(String(describing: plan))")
                continue
            }
            project.rounds[project.rounds.count - 1] = closed
            guard case .open(let next) = Closing.nextStep(for: project) else { Issue.record("no next round"); continue }
            #expect(next.opened == now)
            project.rounds.append(fill(next, of: slug))
            projects[slug] = project
        }
        return Make.content(users: users, projects: Array(projects.values))
    }

    @Test func replayRecountsEachRoundAgainstItsOwnPast() throws {
        let content = try Self.played()
        let closed = content.projects.flatMap { project in project.closedRounds.map { (project.slug, $0) } }
        #expect(closed.count == 4)
        for (_, round) in closed {
            #expect(round.tally?.method == "fair-1")
            #expect(round.winner != nil)
        }
        let timeline = TallyTimeline(content: content)
        let results = timeline.replay()
        // In cutoff order: moon 1 (Nov 8), sun 1 (Nov 11), moon 2 (Nov 15), sun 2 (Nov 18).
        #expect(results.map { "\($0.slug)/\($0.round.number.value)" } == ["moon/1", "sun/1", "moon/2", "sun/2"])
        for result in results {
            #expect(result.outcome.winner == result.round.winner, "\(result.slug) round \(result.round.number)")
            #expect(result.outcome.record == result.round.tally, "\(result.slug) round \(result.round.number)")
        }
        // Each round saw only its own past: the rounds closed before its cutoff.
        let seen = results.map { timeline.history(before: TallyContext.cutoff(of: $0.round)).roundsRecorded }
        #expect(seen == [0, 1, 2, 3])

        // Against the whole history instead, the first round's scores come out differently:
        // so the replay's agreement is not for lack of history mattering.
        let moon1 = try #require(content.project(Make.slug("moon"))?.rounds.first)
        let everything = timeline.history(before: Make.time("2027-01-01T00:00:00Z"))
        let wrong = FairTally.count(
            moon1, slug: Make.slug("moon"), context: timeline.context(for: moon1, of: Make.slug("moon"), history: everything))
        #expect(wrong.record != moon1.tally)
    }

    @Test func replayUsesThePlainCountForPlainRounds() {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat1 = Make.submission("cat", at: "2026-11-03T10:00:00Z")
        let round = Make.closedRound(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [bob1, cat1], ballots: [Make.ballot("dan", at: "2026-11-04T00:00:00Z", for: [bob1.id, cat1.id])])
        let results = TallyTimeline(content: Make.content(users: users, projects: [Make.project(rounds: [round])])).replay()
        #expect(results.count == 1)
        #expect(results.first?.outcome == Tally.count(round))
        #expect(results.first?.outcome.record.method == "plain-1")
    }
}

@Suite struct FairContentCheckTests {
    func problems(_ change: (inout Content) -> Void = { _ in }) throws -> [String] {
        var content = try TallyTimelineTests.played()
        change(&content)
        return ContentCheck.problems(in: content).map(\.description)
    }

    func index(_ content: Content, _ slug: String) -> Int {
        content.projects.firstIndex { $0.slug == Make.slug(slug) }!
    }

    @Test func cleanFairContentHasNoProblems() throws {
        #expect(try problems() == [])
    }

    @Test func anAlteredFairScoreIsReported() throws {
        var recorded: TallyRecord.Score?
        let found = try problems { content in
            let sun = index(content, "sun")
            recorded = content.projects[sun].rounds[1].tally?.scores[1]
            content.projects[sun].rounds[1].tally?.scores[1].score += 0.25
        }
        let score = try #require(recorded)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("Content/projects/sun/rounds/0002/round.md:") == true)
        #expect(
            found.first?.hasSuffix(
                "error: recorded score \(score.score + 0.25) of '\(score.id)' differs from the tally, which gives \(score.score)")
                == true, "\(found)")
    }

    @Test func anAlteredFairWinnerIsReported() throws {
        var loser: SubmissionID?, winner: SubmissionID?
        let found = try problems { content in
            let sun = index(content, "sun")
            let round = content.projects[sun].rounds[1]
            winner = round.winner
            loser = round.submissions.first { $0.id != round.winner }?.id
            content.projects[sun].rounds[1].winner = loser
        }
        let (was, now) = (try #require(winner), try #require(loser))
        #expect(
            found == [
                "Content/projects/sun/rounds/0002/round.md:5:9: error: recorded winner '\(now)' differs from the tally, "
                    + "which gives '\(was)'"
            ])
    }

    @Test func anEarlierAlteredWinnerIsReportedAtItsRound() throws {
        let found = try problems { content in
            let moon = index(content, "moon")
            let round = content.projects[moon].rounds[0]
            content.projects[moon].rounds[0].winner = round.submissions.first { $0.id != round.winner }?.id
        }
        #expect(found.contains { $0.hasPrefix("Content/projects/moon/rounds/0001/round.md:5:9: error: recorded winner ") })
    }

    @Test func aFairRoundRecordedAsPlainIsRecountedPlainly() throws {
        // Relabelling a fair round as plain makes check recount it plainly: scores no longer match.
        let found = try problems { content in
            let moon = index(content, "moon")
            content.projects[moon].rounds[0].tally?.method = "plain-1"
        }
        #expect(found.contains { $0.contains("Content/projects/moon/rounds/0001/round.md") && $0.contains("differs from the tally") })
    }
}
