import Testing

@testable import ProlificCore

@Suite struct VoteWeightTests {
    func record(backs: Int, expected: Double, chances: Int = 20) -> VotingHistory.PairRecord {
        var record = VotingHistory.PairRecord()
        record.chances = chances
        record.backs = backs
        record.expected = expected
        return record
    }

    @Test func karmaGateHasAFloorRisesAndSaturates() {
        #expect(VoteWeight.karmaGate(0) == 0.05)
        #expect(VoteWeight.karmaGate(-3) == 0.05)
        var previous = VoteWeight.karmaGate(0)
        for karma in 1...40 {
            let gate = VoteWeight.karmaGate(karma)
            #expect(gate > previous, "karma \(karma)")
            #expect(gate < 1)
            previous = gate
        }
        #expect(nearly(VoteWeight.karmaGate(8), 1 - 1 / 2.718281828459045, within: 1e-12))
        #expect(VoteWeight.karmaGate(20) > 0.9)
        #expect(VoteWeight.karmaGate(30) > 0.97)
        // Past the gate, farming buys almost nothing.
        #expect(VoteWeight.karmaGate(100) - VoteWeight.karmaGate(30) < 0.03)
    }

    @Test func ageGateHasAFloorAndIsFullAtTwoWeeks() {
        #expect(VoteWeight.ageGate(days: 0) == 0.1)
        #expect(VoteWeight.ageGate(days: 1) == 0.1)
        #expect(VoteWeight.ageGate(days: 7) == 0.5)
        #expect(VoteWeight.ageGate(days: 13.9) < 1)
        #expect(VoteWeight.ageGate(days: 14) == 1)
        #expect(VoteWeight.ageGate(days: 400) == 1)
    }

    @Test func newcomersAreYoungOrLowOnKarma() {
        #expect(VoteWeight.isNewcomer(karma: 100, days: 13.99))
        #expect(VoteWeight.isNewcomer(karma: 4, days: 100))
        #expect(!VoteWeight.isNewcomer(karma: 5, days: 14))
        #expect(!VoteWeight.isNewcomer(karma: 30, days: 60))
    }

    /// The rule `((expected + slack) / backs)²`, written out with the tuned constants.
    @Test func habitFactor() {
        let minimum = VoteWeight.habitMinimumBacks, slack = VoteWeight.habitSlack
        #expect(minimum >= 2 && slack > 0)
        // Too few backs to judge, however lopsided.
        #expect(VoteWeight.habitFactor(record(backs: minimum - 1, expected: 0)) == 1)
        #expect(VoteWeight.habitFactor(VotingHistory.PairRecord()) == 1)
        // Following the crowd: backs within expected + slack.
        #expect(VoteWeight.habitFactor(record(backs: 5, expected: 5 - slack)) == 1)
        #expect(VoteWeight.habitFactor(record(backs: 12, expected: 12 - slack + 0.5)) == 1)
        #expect(VoteWeight.habitFactor(record(backs: 15, expected: 15)) == 1)
        // Beyond: damped smoothly.
        let allowed = 3.5 + slack
        #expect(nearly(VoteWeight.habitFactor(record(backs: 15, expected: 3.5)), (allowed / 15) * (allowed / 15)))
        #expect(VoteWeight.habitFactor(record(backs: 15, expected: 3.5)) < VoteWeight.habitFactor(record(backs: 10, expected: 3.5)))
        #expect(nearly(VoteWeight.habitFactor(record(backs: minimum, expected: 0)), (slack / Double(minimum)) * (slack / Double(minimum))))
        #expect(nearly(VoteWeight.habitFactor(record(backs: 4, expected: 0)), (slack / 4) * (slack / 4)))
        // An edge of the mutual-support graph is a factor of at most one half.
        #expect(VoteWeight.isHabitual(record(backs: 4, expected: 0)))
        #expect(!VoteWeight.isHabitual(record(backs: 15, expected: 15)))
        #expect(!VoteWeight.isHabitual(record(backs: minimum - 1, expected: 0)))
    }
}

@Suite struct FairTallyTests {
    static let opened = "2026-11-01T00:00:00Z"
    static let closes = "2026-11-08T00:00:00Z"
    static let joinedLongAgo = "2026-10-01T00:00:00Z"
    let ann = Make.submission("ann", at: "2026-11-02T10:00:00Z")
    let bob = Make.submission("bob", at: "2026-11-02T11:00:00Z")
    let cat = Make.submission("cat", at: "2026-11-02T12:00:00Z")
    let vote = "2026-11-03T00:00:00Z"
    let slug = Make.slug("moon")

    func round(_ ballots: [Ballot], submissions: [Submission]? = nil, closed: String? = nil) -> Round {
        Make.round(
            1, opened: Self.opened, closes: Self.closes, closed: closed, submissions: submissions ?? [ann, bob, cat],
            ballots: ballots)
    }

    /// Every voter joined long ago with 2 projects (karma 6) unless told otherwise.
    func context(
        _ voters: [String], projects: [String: Int] = [:], joined: [String: String] = [:],
        identities: [String: String] = [:], suspect: [String: String] = [:], history: VotingHistory? = nil
    ) -> TallyContext {
        var counts: [String: Int] = [:]
        for voter in voters { counts[voter] = projects[voter] ?? 2 }
        var times: [Handle: Timestamp] = [:]
        for voter in voters { times[Make.handle(voter)] = Make.time(joined[voter] ?? Self.joinedLongAgo) }
        return TallyContext(
            history: history ?? Make.history(projects: counts), joined: times,
            identities: Dictionary(uniqueKeysWithValues: identities.map { (Make.handle($0.key), $0.value) }),
            suspect: Dictionary(uniqueKeysWithValues: suspect.map { (Make.handle($0.key), $0.value) }))
    }

    func count(_ round: Round, _ context: TallyContext) -> FairTally.Outcome {
        FairTally.count(round, slug: slug, context: context)
    }

    func score(_ outcome: FairTally.Outcome, _ submission: Submission) -> Double? {
        outcome.record.scores.first { $0.id == submission.id }?.score
    }

    func ballot(_ outcome: FairTally.Outcome, _ voter: String) -> FairTally.WeightedBallot? {
        outcome.ballots.first { $0.voter == Make.handle(voter) }
    }

    /// karma 6 and 38 days: the base of every voter here unless told otherwise.
    let base = VoteWeight.karmaGate(6)

    // MARK: Counting

    @Test func aBallotsWeightIsSplitEquallyOverItsSnippets() throws {
        let outcome = count(round([Make.ballot("dan", at: vote, for: [ann.id, bob.id])]), context(["dan"]))
        #expect(outcome.record.method == "fair-1")
        #expect(outcome.record.method == FairTally.method)
        #expect(outcome.record.ballots == 1)
        let dan = try #require(ballot(outcome, "dan"))
        #expect(dan.karma.total == 6)
        #expect(dan.ageDays == 38)
        #expect(nearly(dan.base, base))
        #expect(dan.factors.isEmpty)
        #expect(dan.shares.map(\.id) == [ann.id, bob.id])
        #expect(dan.shares.allSatisfy { nearly($0.weight, base / 2) })
        #expect(score(outcome, ann) == Tally.rounded(base / 2))
        #expect(score(outcome, bob) == Tally.rounded(base / 2))
        #expect(score(outcome, cat) == 0)
        #expect(outcome.record.scores.count == 3)
        #expect(outcome.record.scores.last?.id == cat.id)
        #expect(dan.explanation == "karma 6, joined 38 days before → base 0.53; split over 2 snippets; 0.26 to @ann; 0.26 to @bob")
    }

    /// Every part of an explanation at once, in its order and words: the base, a group factor,
    /// the split, a habit and mutual support on one share, a plain share.
    @Test func anExplanationNamesEveryPartInOrder() throws {
        let time = Timestamp(year: 2026, month: 1, day: 2)
        let ann = SubmissionID(author: try #require(Handle("ann")), time: time)
        let bob = SubmissionID(author: try #require(Handle("bob")), time: time)
        let ballot = FairTally.WeightedBallot(
            voter: try #require(Handle("dan")), karma: Karma(snippets: 1, ballots: 2), ageDays: 38, base: 0.53,
            factors: [.init(value: 0.5, reason: "one of 2 voters committed by the same git identity")], weight: 0.265,
            shares: [
                FairTally.Share(
                    id: ann, weight: 0.13, habit: 0.25, record: VotingHistory.PairRecord(chances: 4, backs: 4, expected: 0.26),
                    mutual: true),
                FairTally.Share(id: bob, weight: 0.13, habit: 1, record: VotingHistory.PairRecord(), mutual: false),
            ])
        #expect(
            ballot.explanation
                == "karma 4, joined 38 days before → base 0.53; one of 2 voters committed by the same git identity → ×0.5; "
                + "split over 2 snippets; 0.13 to @ann (backed @ann in 4 of 4 past chances, crowd expected 0.3 → habit ×0.25) "
                + "(mutual support → ×0.1); 0.13 to @bob")
    }

    @Test func theHighestTotalWins() {
        let outcome = count(
            round([
                Make.ballot("dan", at: vote, for: [cat.id]),
                Make.ballot("eve", at: vote, for: [bob.id, cat.id]),
                Make.ballot("fay", at: vote, for: [ann.id, bob.id]),
            ]),
            context(["dan", "eve", "fay"], joined: ["eve": "2026-10-05T00:00:00Z", "fay": "2026-10-09T00:00:00Z"]))
        #expect(outcome.winner == cat.id)
        #expect(outcome.record.ballots == 3)
        #expect(outcome.record.scores.map(\.id) == [cat.id, bob.id, ann.id])
        #expect(outcome.record.scores.map(\.score) == [1.5 * base, base, 0.5 * base].map(Tally.rounded))
    }

    @Test func ballotsOutsideTheWindowDoNotCount() {
        // Closed early at 2026-11-06: the cutoff is the closing, not the deadline.
        let outcome = count(
            round(
                [
                    Make.ballot("dan", at: "2026-11-06T00:00:00Z", for: [ann.id]),  // at the cutoff
                    Make.ballot("eve", at: "2026-11-05T23:59:59Z", for: [bob.id]),  // just before
                    Make.ballot("fay", at: "2026-10-31T23:59:59Z", for: [cat.id]),  // before the opening
                    Make.ballot("gus", at: "2026-11-07T00:00:00Z", for: [ann.id]),  // after the closing
                    Make.ballot("hal", at: Self.opened, for: [cat.id]),  // at the opening
                ], closed: "2026-11-06T00:00:00Z"),
            context(["dan", "eve", "fay", "gus", "hal"]))
        #expect(outcome.ballots.map(\.voter.rawValue) == ["eve", "hal"])
        #expect(outcome.record.ballots == 2)
        #expect(score(outcome, ann) == 0)

        // Still open: the cutoff is the deadline.
        let open = count(
            round([
                Make.ballot("dan", at: Self.closes, for: [ann.id]),
                Make.ballot("eve", at: "2026-11-07T23:59:59Z", for: [bob.id]),
            ]),
            context(["dan", "eve"]))
        #expect(open.ballots.map(\.voter.rawValue) == ["eve"])
    }

    @Test func ownSnippetsAndChoicesOutsideTheRoundAreIgnored() {
        let elsewhere = Make.id("zed", "2026-10-02T10:00:00Z")
        let outcome = count(
            round([
                Make.ballot("ann", at: vote, for: [ann.id, bob.id, elsewhere]),
                Make.ballot("bob", at: vote, for: [bob.id]),
                Make.ballot("cat", at: vote, for: [bob.id, bob.id]),
            ]),
            context(["ann", "bob", "cat"], joined: ["ann": "2026-10-01T00:00:00Z", "cat": "2026-10-05T00:00:00Z"]))
        // bob's ballot names only his own snippet: not counted at all.
        #expect(outcome.ballots.map(\.voter.rawValue) == ["ann", "cat"])
        #expect(outcome.record.ballots == 2)
        #expect(outcome.ballots.allSatisfy { $0.shares.map(\.id) == [bob.id] })
        #expect(outcome.ballots.allSatisfy { nearly($0.shares[0].weight, base) })
        #expect(score(outcome, bob) == Tally.rounded(2 * base))
        #expect(!(ballot(outcome, "ann")?.explanation.contains("split") ?? true))
    }

    @Test func suspectBallotsAreIgnored() {
        let ballots = [Make.ballot("dan", at: vote, for: [ann.id]), Make.ballot("eve", at: vote, for: [bob.id])]
        let trusted = count(round(ballots), context(["dan", "eve"], joined: ["eve": "2026-10-05T00:00:00Z"]))
        #expect(trusted.record.ballots == 2)
        let outcome = count(
            round(ballots),
            context(["dan", "eve"], joined: ["eve": "2026-10-05T00:00:00Z"], suspect: ["dan": "made up"]))
        #expect(outcome.ballots.map(\.voter.rawValue) == ["eve"])
        #expect(outcome.record.ballots == 1)
        #expect(score(outcome, ann) == 0)
        #expect(outcome.winner == bob.id)
    }

    // MARK: Groups

    @Test func voterCommittedByOneGitIdentityShareOneVote() throws {
        // Different choices and join times far apart: only the identity rule applies.
        let ballots = [
            Make.ballot("dan", at: vote, for: [ann.id]), Make.ballot("eve", at: vote, for: [bob.id]),
            Make.ballot("fay", at: vote, for: [cat.id]),
        ]
        let joined = ["eve": "2026-10-05T00:00:00Z", "fay": "2026-10-09T00:00:00Z"]
        let outcome = count(
            round(ballots),
            context(["dan", "eve", "fay"], joined: joined, identities: ["dan": "x@example.org", "eve": "x@example.org", "fay": "y@example.org"]))
        for name in ["dan", "eve"] {
            let weighed = try #require(ballot(outcome, name))
            #expect(weighed.factors.map(\.value) == [0.5])
            #expect(weighed.factors.first?.reason == "one of 2 voters committed by the same git identity")
            #expect(nearly(weighed.weight, base * 0.5))
            #expect(weighed.explanation.contains("same git identity → ×0.5"))
        }
        let fay = try #require(ballot(outcome, "fay"))
        #expect(fay.factors.isEmpty)
        #expect(nearly(fay.weight, base))
        #expect(!fay.explanation.contains("git identity"))
        #expect(score(outcome, ann) == Tally.rounded(base / 2))
        #expect(score(outcome, cat) == Tally.rounded(base))
        #expect(outcome.winner == cat.id)

        let three = count(
            round(ballots),
            context(["dan", "eve", "fay"], joined: joined, identities: ["dan": "x", "eve": "x", "fay": "x"]))
        #expect(three.ballots.allSatisfy { $0.factors.map(\.value) == [1.0 / 3] })
        #expect(three.ballots.allSatisfy { nearly($0.weight, base / 3) })
    }

    @Test func accountsCreatedTogetherThatVoteAlikeCountAsRootN() throws {
        let voters = ["dan", "eve", "fay", "gus"]
        let ballots = voters.map { Make.ballot($0, at: vote, for: [ann.id]) }
        let joined = [
            "dan": "2026-10-01T00:00:00Z", "eve": "2026-10-01T06:00:00Z", "fay": "2026-10-01T12:00:00Z",
            "gus": "2026-10-01T23:59:59Z",
        ]
        let outcome = count(round(ballots), context(voters, joined: joined))
        for weighed in outcome.ballots {
            #expect(weighed.factors.map(\.value) == [0.5])
            #expect(weighed.factors.first?.reason == "one of 4 accounts created together that voted alike")
            #expect(weighed.explanation.contains("created together that voted alike → ×0.5"))
        }
        // Four puppets weigh as much as two honest voters: √4.
        #expect(score(outcome, ann) == Tally.rounded(2 * base))

        // The same accounts voting differently are no cohort.
        let different = count(
            round([
                Make.ballot("dan", at: vote, for: [ann.id]), Make.ballot("eve", at: vote, for: [bob.id]),
                Make.ballot("fay", at: vote, for: [ann.id, bob.id]), Make.ballot("gus", at: vote, for: [cat.id]),
            ]),
            context(voters, joined: joined))
        #expect(different.ballots.allSatisfy { $0.factors.isEmpty })
    }

    @Test func accountsCreatedDaysApartAreNoCohort() {
        let voters = ["dan", "eve", "fay"]
        let ballots = voters.map { Make.ballot($0, at: vote, for: [ann.id]) }
        let outcome = count(
            round(ballots),
            context(
                voters,
                joined: ["dan": "2026-10-01T00:00:00Z", "eve": "2026-10-03T00:00:00Z", "fay": "2026-10-05T00:00:00Z"]))
        #expect(outcome.ballots.allSatisfy { $0.factors.isEmpty })
        #expect(score(outcome, ann) == Tally.rounded(3 * base))
        // A day and a second apart is too far as well.
        let apart = count(
            round(Array(ballots.prefix(2))),
            context(["dan", "eve"], joined: ["dan": "2026-10-01T00:00:00Z", "eve": "2026-10-02T00:00:01Z"]))
        #expect(apart.ballots.allSatisfy { $0.factors.isEmpty })
    }

    @Test func cohortWindowsAreAnchoredNotChained() throws {
        // eve joined 12 h after dan, fay 12 h + 1 s after eve: a chain would make all three one cohort,
        // but fay is a day and a second after dan, who opened the window.
        let voters = ["dan", "eve", "fay"]
        let outcome = count(
            round(voters.map { Make.ballot($0, at: vote, for: [ann.id]) }),
            context(
                voters,
                joined: ["dan": "2026-10-01T00:00:00Z", "eve": "2026-10-01T12:00:00Z", "fay": "2026-10-02T00:00:01Z"]))
        let half = 1 / Double(2).squareRoot()
        #expect(try #require(ballot(outcome, "dan")).factors.map(\.value) == [half])
        #expect(try #require(ballot(outcome, "eve")).factors.map(\.value) == [half])
        #expect(try #require(ballot(outcome, "fay")).factors.isEmpty)
        #expect(try #require(ballot(outcome, "dan")).factors.first?.reason == "one of 2 accounts created together that voted alike")
    }

    @Test func newcomersTogetherWeighAtMostAQuarterOfTheEstablished() throws {
        // eve is established (karma 6, joined long ago). Five newcomers with no karma, joined two days
        // apart (no cohort), and one with karma but only a week old, all back bob.
        let newcomers = ["n1", "n2", "n3", "n4", "n5"]
        var joined: [String: String] = [
            "n1": "2026-10-01T00:00:00Z", "n2": "2026-10-03T00:00:00Z", "n3": "2026-10-05T00:00:00Z",
            "n4": "2026-10-07T00:00:00Z", "n5": "2026-10-09T00:00:00Z", "young": "2026-11-01T00:00:00Z",
        ]
        joined["eve"] = "2026-09-01T00:00:00Z"
        var projects = Dictionary(uniqueKeysWithValues: newcomers.map { ($0, 0) })
        projects["young"] = 2
        let ballots =
            [Make.ballot("eve", at: vote, for: [ann.id])] + (newcomers + ["young"]).map { Make.ballot($0, at: vote, for: [bob.id]) }
        let outcome = count(round(ballots), context(["eve"] + newcomers + ["young"], projects: projects, joined: joined))

        let eve = try #require(ballot(outcome, "eve"))
        #expect(eve.factors.isEmpty)
        #expect(nearly(eve.weight, base))
        let young = try #require(ballot(outcome, "young"))
        #expect(young.ageDays == 7)
        #expect(nearly(young.base, base * 0.5))
        let newcomerBallots = outcome.ballots.filter { $0.voter.rawValue != "eve" }
        #expect(newcomerBallots.count == 6)
        let before = 5 * 0.05 + base * 0.5
        let factor = 0.25 * base / before
        for weighed in newcomerBallots {
            #expect(weighed.factors.count == 1)
            #expect(weighed.factors.first?.reason == "newcomers' share of the round capped")
            #expect(nearly(weighed.factors.first?.value ?? 0, factor))
            #expect(weighed.explanation.contains("newcomers' share of the round capped → ×"))
        }
        let total = newcomerBallots.map(\.weight).reduce(0, +)
        #expect(nearly(total, 0.25 * eve.weight))
        // Six newcomers' ballots lose to one established voter's.
        #expect(outcome.winner == ann.id)
        #expect(score(outcome, bob) == Tally.rounded(0.25 * base))
    }

    @Test func noCapWithoutEstablishedVotersOrBelowTheCap() {
        let newcomers = ["n1", "n2", "n3"]
        let joined = ["n1": "2026-10-01T00:00:00Z", "n2": "2026-10-03T00:00:00Z", "n3": "2026-10-05T00:00:00Z"]
        let onlyNew = count(
            round(newcomers.map { Make.ballot($0, at: vote, for: [bob.id]) }),
            context(newcomers, projects: ["n1": 0, "n2": 0, "n3": 0], joined: joined))
        #expect(onlyNew.ballots.count == 3)
        #expect(onlyNew.ballots.allSatisfy { $0.factors.isEmpty && $0.weight == 0.05 })
        #expect(score(onlyNew, bob) == 0.15)

        // One newcomer (0.05) beside one established voter (0.53): under a quarter, untouched.
        let below = count(
            round([Make.ballot("n1", at: vote, for: [bob.id]), Make.ballot("eve", at: vote, for: [ann.id])]),
            context(["n1", "eve"], projects: ["n1": 0], joined: ["eve": "2026-09-01T00:00:00Z"]))
        #expect(below.ballots.allSatisfy { $0.factors.isEmpty })
        #expect(score(below, bob) == 0.05)
    }

    // MARK: Per share

    @Test func habitDampsTheShareForTheHabituallyBackedAuthor() throws {
        // In 4 past rounds dan always backed ann, whom nobody else backed; eve backed bob, fay cat.
        let history = Make.history(
            rounds: 4, authors: ["ann", "bob", "cat"], votes: ["dan": ["ann"], "eve": ["bob"], "fay": ["cat"]])
        let record = history.record(voter: Make.handle("dan"), author: Make.handle("ann"))
        #expect(record.backs == 4 && record.chances == 4 && record.expected == 0)
        let habit = (VoteWeight.habitSlack / 4) * (VoteWeight.habitSlack / 4)
        #expect(habit < 1)
        let outcome = count(round([Make.ballot("dan", at: vote, for: [ann.id, bob.id])]), context(["dan"], history: history))
        let dan = try #require(ballot(outcome, "dan"))
        #expect(dan.karma.total == 4)
        let split = VoteWeight.karmaGate(4) / 2
        #expect(dan.shares.count == 2)
        #expect(dan.shares[0].id == ann.id)
        #expect(nearly(dan.shares[0].habit, habit))
        #expect(dan.shares[0].record == record)
        #expect(nearly(dan.shares[0].weight, split * habit))
        #expect(dan.shares[1].habit == 1)
        #expect(nearly(dan.shares[1].weight, split))
        #expect(!dan.shares.contains { $0.mutual })
        #expect(score(outcome, ann) == Tally.rounded(split * habit))
        #expect(score(outcome, bob) == Tally.rounded(split))
        #expect(outcome.winner == bob.id)
        #expect(dan.explanation.contains("to @ann (backed @ann in 4 of 4 past chances, crowd expected 0 → habit ×\(format(habit)))"))
        #expect(dan.explanation.contains("habit ×"))
        #expect(dan.explanation.contains("split over 2 snippets"))
        // bob's share has no habit to explain.
        #expect(dan.explanation.hasSuffix("; \(format(split)) to @bob"))
        #expect(!dan.explanation.contains("mutual"))
    }

    @Test func mutualSupportDampsSharesInsideAGroup() throws {
        // ann and bob backed each other in 3 past rounds; cat, the crowd, backed dan.
        let history = Make.history(
            rounds: 3, authors: ["ann", "bob", "dan"], votes: ["ann": ["bob"], "bob": ["ann"], "cat": ["dan"]])
        let groups = MutualSupport.groups(in: history)
        #expect(groups[Make.handle("ann")] != nil && groups[Make.handle("ann")] == groups[Make.handle("bob")])
        let record = history.record(voter: Make.handle("ann"), author: Make.handle("bob"))
        let habit = VoteWeight.habitFactor(record)
        #expect(habit < 1)
        let outcome = count(
            round([Make.ballot("ann", at: vote, for: [bob.id, cat.id])]),
            TallyContext(history: history, joined: [Make.handle("ann"): Make.time(Self.joinedLongAgo)]))
        let ann = try #require(ballot(outcome, "ann"))
        #expect(ann.karma.total == 9)  // 3 snippets, 3 ballots
        let split = VoteWeight.karmaGate(9) / 2
        let toBob = try #require(ann.shares.first { $0.id == bob.id })
        let toCat = try #require(ann.shares.first { $0.id == cat.id })
        #expect(toBob.mutual)
        #expect(toBob.record == record)
        #expect(nearly(toBob.habit, habit))
        #expect(nearly(toBob.weight, split * habit * 0.1))
        #expect(!toCat.mutual)
        #expect(toCat.habit == 1)
        #expect(nearly(toCat.weight, split))
        #expect(ann.explanation.contains("habit ×\(format(habit))) (mutual support → ×0.1)"))
        #expect(outcome.winner == cat.id)

        // cat is outside the group: his ballot for bob is not damped as mutual.
        let fromCat = count(
            round([Make.ballot("cat", at: vote, for: [bob.id])]),
            TallyContext(history: history, joined: [Make.handle("cat"): Make.time(Self.joinedLongAgo)]))
        #expect(fromCat.ballots.first?.shares.first?.mutual == false)
    }

    // MARK: Ties

    @Test func tiesAreBrokenByTheSnippetsTextNotByHandles() {
        let first = "The owl left at dawn.", second = "The owl stayed all night."
        func winningBody(annWrites annBody: String, bobWrites bobBody: String, reversed: Bool = false) -> String? {
            let a = Make.snippet("ann", at: "2026-11-02T10:00:00Z", body: annBody)
            let b = Make.snippet("bob", at: "2026-11-02T10:00:00Z", body: bobBody)
            let r = round(
                [Make.ballot("dan", at: vote, for: [a.id]), Make.ballot("eve", at: vote, for: [b.id])],
                submissions: reversed ? [b, a] : [a, b])
            let outcome = count(r, context(["dan", "eve"], joined: ["eve": "2026-10-05T00:00:00Z"]))
            #expect(outcome.record.scores[0].score == outcome.record.scores[1].score)
            return outcome.winner.flatMap { r.submission($0) }?.body
        }
        let expected =
            NeutralOrder.fnv1a("moon/0001/\(first)") < NeutralOrder.fnv1a("moon/0001/\(second)") ? first : second
        #expect(winningBody(annWrites: first, bobWrites: second) == expected)
        #expect(winningBody(annWrites: second, bobWrites: first) == expected)
        #expect(winningBody(annWrites: first, bobWrites: second, reversed: true) == expected)
        #expect(winningBody(annWrites: second, bobWrites: first, reversed: true) == expected)
    }

    @Test func withoutBallotsAWinnerIsStillChosenDeterministically() throws {
        let snippets = [
            Make.snippet("ann", at: "2026-11-02T10:00:00Z", body: "North."),
            Make.snippet("bob", at: "2026-11-02T11:00:00Z", body: "South."),
            Make.snippet("cat", at: "2026-11-02T12:00:00Z", body: "East."),
        ]
        let outcome = count(round([], submissions: snippets), context([]))
        let expected = try #require(snippets.min { FairTally.tieKey($0, slug: slug, round: Make.number(1)) < FairTally.tieKey($1, slug: slug, round: Make.number(1)) })
        #expect(outcome.winner == expected.id)
        #expect(outcome.record.ballots == 0)
        #expect(outcome.record.scores.count == 3)
        #expect(outcome.record.scores.allSatisfy { $0.score == 0 })
        #expect(outcome.ballots.isEmpty)
        #expect(count(round([], submissions: snippets.reversed()), context([])) == outcome)
        #expect(count(round([], submissions: [snippets[1], snippets[2], snippets[0]]), context([])).winner == expected.id)
        // The order depends on the text and place, not on when or by whom.
        #expect(FairTally.tieKey(snippets[0], slug: slug, round: Make.number(1)) == NeutralOrder.fnv1a("moon/0001/North."))
    }

    @Test func noSubmissionsNoWinner() {
        let outcome = count(round([], submissions: []), context([]))
        #expect(outcome.winner == nil)
        #expect(outcome.record.scores.isEmpty)
    }

    @Test func theSameInputGivesTheSameOutcome() {
        let ballots = [
            Make.ballot("dan", at: vote, for: [ann.id, bob.id]), Make.ballot("eve", at: vote, for: [bob.id]),
            Make.ballot("fay", at: vote, for: [cat.id, ann.id]),
        ]
        let history = Make.history(
            rounds: 4, authors: ["ann", "bob", "cat"], votes: ["dan": ["ann"], "eve": ["bob"], "fay": ["cat", "ann"]])
        let joined = ["dan": "2026-10-01T00:00:00Z", "eve": "2026-10-01T01:00:00Z", "fay": "2026-11-02T00:00:00Z"]
        let a = count(round(ballots), context(["dan", "eve", "fay"], joined: joined, history: history))
        let b = count(round(ballots.reversed()), context(["dan", "eve", "fay"], joined: joined, history: history))
        #expect(a == b)
        #expect(a.ballots.map(\.voter.rawValue) == ["dan", "eve", "fay"])
    }

    @Test func explanationsUseTheWordsOfTheRules() throws {
        let outcome = count(
            round([Make.ballot("dan", at: vote, for: [ann.id])]),
            context(["dan"], joined: ["dan": "2026-11-07T18:00:00Z"]))
        let dan = try #require(ballot(outcome, "dan"))
        #expect(dan.explanation.hasPrefix("karma 6, joined 6 hours before → base "))
        let soon = count(
            round([Make.ballot("dan", at: vote, for: [ann.id])]),
            context(["dan"], joined: ["dan": "2026-11-07T23:00:00Z"]))
        #expect(try #require(ballot(soon, "dan")).explanation.hasPrefix("karma 6, joined just before → base "))
    }
}
