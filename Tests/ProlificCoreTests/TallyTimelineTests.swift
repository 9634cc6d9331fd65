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

    func commit(_ identity: String, _ time: String) -> IdentityEvidence.Commit {
        IdentityEvidence.Commit(identity: identity, time: Make.time(time))
    }

    /// Round 2 of moon (Nov 8–15), open: snippets by bob and cat, ann votes for bob's, bob for cat's.
    var moonRound2: Round {
        let bob2 = Make.submission("bob", at: "2026-11-09T10:00:00Z", round: 2)
        let cat2 = Make.submission("cat", at: "2026-11-09T11:00:00Z", round: 2)
        return Make.round(
            2, opened: "2026-11-08T00:00:00Z", closes: "2026-11-15T00:00:00Z", submissions: [bob2, cat2],
            ballots: [
                Make.ballot("ann", at: "2026-11-09T12:00:00Z", for: [bob2.id], round: 2),
                Make.ballot("bob", at: "2026-11-09T12:00:00Z", for: [cat2.id], round: 2),
            ])
    }

    /// The context of `round` of moon as if it closed at `closing`.
    func context(_ evidence: IdentityEvidence, _ round: Round, closing: String, content: Content? = nil) -> TallyContext {
        let timeline = TallyTimeline(content: content ?? twoProjects, evidence: evidence)
        var round = round
        round.closed = Make.time(closing)
        return timeline.context(for: round, of: Make.slug("moon"), history: timeline.history(before: Make.time(closing)))
    }

    @Test func joinedIsCorrectedPerRoundByAFirstCommitButNeverEarlier() throws {
        let evidence = IdentityEvidence(profileCommits: [
            Make.handle("ann"): [commit("ann@example.org", "2026-11-05T00:00:00Z")],  // later than the profile says
            Make.handle("bob"): [commit("bob@example.org", "2026-09-01T00:00:00Z")],  // earlier
            Make.handle("zed"): [commit("zed@example.org", "2026-09-01T00:00:00Z")],  // no such user
        ])
        let timeline = TallyTimeline(content: twoProjects, evidence: evidence)
        // The timeline keeps the profiles' own times: the correction depends on the round.
        #expect(timeline.joined[Make.handle("ann")] == Make.time("2026-10-01T00:00:00Z"))
        #expect(timeline.joined[Make.handle("zed")] == nil)
        #expect(timeline.joined == TallyTimeline(content: twoProjects).joined)
        #expect(timeline.joined.count == 5)

        // A round's context holds its voters only, ann moved later and bob not earlier.
        let joined = context(evidence, moonRound2, closing: "2026-11-10T00:00:00Z").joined
        #expect(joined == [Make.handle("ann"): Make.time("2026-11-05T00:00:00Z"), Make.handle("bob"): Make.time("2026-10-01T00:00:00Z")])

        // The tally weighs ann as five days old.
        let later = timeline.tally(moonRound2, of: Make.slug("moon"), closingAt: Make.time("2026-11-10T00:00:00Z"))
        let ann = try #require(later.ballots.first { $0.voter == Make.handle("ann") })
        #expect(ann.ageDays == 5)
        #expect(nearly(ann.base, VoteWeight.karmaGate(3) * VoteWeight.ageGate(days: 5)))
        // Without the evidence, forty days.
        let plain = TallyTimeline(content: twoProjects).tally(moonRound2, of: Make.slug("moon"), closingAt: Make.time("2026-11-10T00:00:00Z"))
        #expect(plain.ballots.first { $0.voter == Make.handle("ann") }?.ageDays == 40)
    }

    @Test func aProfilesFirstCommitCountsOnlyFromItsTimeOn() {
        let evidence = IdentityEvidence(profileCommits: [
            Make.handle("ann"): [commit("ann@example.org", "2026-11-12T00:00:00Z")]
        ])
        func ann(closing: String) -> Timestamp? { context(evidence, moonRound2, closing: closing).joined[Make.handle("ann")] }
        // At a cutoff before the commit, the profile's own time.
        #expect(ann(closing: "2026-11-10T00:00:00Z") == Make.time("2026-10-01T00:00:00Z"))
        #expect(ann(closing: "2026-11-11T23:59:59Z") == Make.time("2026-10-01T00:00:00Z"))
        // From the commit on, the commit's.
        #expect(ann(closing: "2026-11-12T00:00:00Z") == Make.time("2026-11-12T00:00:00Z"))
        #expect(ann(closing: "2026-11-14T00:00:00Z") == Make.time("2026-11-12T00:00:00Z"))
        #expect(evidence.firstCommit(of: Make.handle("ann"), asOf: Make.time("2026-11-11T23:59:59Z")) == nil)
        #expect(evidence.firstCommit(of: Make.handle("ann"), asOf: Make.time("2026-11-12T00:00:00Z")) == Make.time("2026-11-12T00:00:00Z"))
    }

    @Test func aProfileFirstCommittedByAMaintainerIsNoEvidence() {
        // keeper added ann's profile; ann edited it the day after.
        let commits = [commit("keeper@example.org", "2026-11-05T00:00:00Z"), commit("ann@example.org", "2026-11-06T00:00:00Z")]
        func ann(_ evidence: IdentityEvidence, closing: String) -> Timestamp? {
            context(evidence, moonRound2, closing: closing).joined[Make.handle("ann")]
        }
        let profile = Make.time("2026-10-01T00:00:00Z"), keepers = Make.time("2026-11-05T00:00:00Z")
        // keeper is nobody special: their commit is ann's first.
        let anyone = IdentityEvidence(profileCommits: [Make.handle("ann"): commits])
        #expect(ann(anyone, closing: "2026-11-10T00:00:00Z") == keepers)
        // A listed maintainer: no correction, and ann's own later edit is not her first commit.
        let listed = IdentityEvidence(profileCommits: [Make.handle("ann"): commits], maintainers: ["keeper@example.org"])
        #expect(ann(listed, closing: "2026-11-10T00:00:00Z") == profile)
        // keeper committed prolific.yml before the cutoff: a maintainer for this round.
        let config = IdentityEvidence(
            profileCommits: [Make.handle("ann"): commits], configCommitters: ["keeper@example.org": Make.time("2026-11-09T00:00:00Z")])
        #expect(ann(config, closing: "2026-11-10T00:00:00Z") == profile)
        // ... but not yet for a round whose cutoff came before it.
        #expect(ann(config, closing: "2026-11-08T12:00:00Z") == keepers)
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
                Make.handle("dan"): [commit("dan@example.org", "2026-11-03T11:00:00Z")],
                Make.handle("eve"): [commit("eve@example.org", "2026-11-03T12:00:00Z")],
            ],
            "sun/0001": [Make.handle("cat"): [commit("cat@example.org", "2026-11-01T00:00:00Z")]],
        ])
        #expect(!evidence.isEmpty)
        #expect(IdentityEvidence().isEmpty)
        #expect(!IdentityEvidence(profileCommits: [Make.handle("ann"): [commit("ann@example.org", "2026-11-01T00:00:00Z")]]).isEmpty)

        let content = Make.content(users: users, projects: [Make.project(rounds: [round])])
        let timeline = TallyTimeline(content: content, evidence: evidence)
        func context(_ slug: String, _ round: Round = round) -> TallyContext {
            timeline.context(for: round, of: Make.slug(slug), history: VotingHistory())
        }
        let moon = context("moon")
        #expect(
            moon.suspect == [Make.handle("dan"): "cast 2026-11-03T12:00:00Z is after the commit that added it (2026-11-03T11:00:00Z)"])
        #expect(moon.identities == [Make.handle("dan"): "dan@example.org", Make.handle("eve"): "eve@example.org"])
        #expect(Set(moon.joined.keys.map(\.rawValue)) == ["cat", "dan", "eve"])
        // The commits are looked up by the round's project: in "sun", cat's commit predates her cast.
        #expect(context("sun").suspect.keys.map(\.rawValue) == ["cat"])
        #expect(context("sun").identities == [Make.handle("cat"): "cat@example.org"])
        #expect(context("star").suspect.isEmpty)
        #expect(context("star").identities.isEmpty)
        // ... and by its number.
        var second = round
        second.number = Make.number(2)
        #expect(context("moon", second).identities.isEmpty)
        #expect(context("moon", second).suspect.isEmpty)

        // The tally drops dan's ballot: only eve and cat count.
        let outcome = timeline.tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
        #expect(outcome.ballots.map(\.voter.rawValue) == ["cat", "eve"])
        #expect(outcome.record.ballots == 2)
        let plain = TallyTimeline(content: content).tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
        #expect(plain.record.ballots == 3)
    }

    // MARK: Evidence as of the cutoff

    /// Round 1 of moon (Nov 1–8): dan's ballot, and pip's and pop's (the puppets, of one person).
    var puppetRound: (Content, Round) {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat1 = Make.submission("cat", at: "2026-11-02T11:00:00Z")
        let round = Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: [bob1, cat1],
            ballots: [
                // dan voted on the 3rd and changed his mind on the 5th.
                Make.ballot("dan", at: "2026-11-05T00:00:00Z", for: [cat1.id]),
                Make.ballot("pip", at: "2026-11-03T10:00:00Z", for: [bob1.id]),
                Make.ballot("pop", at: "2026-11-03T11:00:00Z", for: [bob1.id]),
            ])
        let voters = users + [Make.user("pip"), Make.user("pop", joined: "2026-10-06T00:00:00Z")]
        return (Make.content(users: voters, projects: [Make.project(rounds: [round])]), round)
    }

    /// Each ballot committed by its voter when cast, the puppets' by one identity.
    var honestCommits: [Handle: [IdentityEvidence.Commit]] {
        [
            Make.handle("dan"): [commit("dan@example.org", "2026-11-03T00:00:00Z"), commit("dan@example.org", "2026-11-05T00:00:00Z")],
            Make.handle("pip"): [commit("puppet@example.org", "2026-11-03T10:00:00Z")],
            Make.handle("pop"): [commit("puppet@example.org", "2026-11-03T11:00:00Z")],
        ]
    }

    func puppetTally(_ evidence: IdentityEvidence) -> FairTally.Outcome {
        let (content, round) = puppetRound
        return TallyTimeline(content: content, evidence: evidence)
            .tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-08T00:00:00Z"))
    }

    func factors(_ outcome: FairTally.Outcome) -> [String: [Double]] {
        Dictionary(uniqueKeysWithValues: outcome.ballots.map { ($0.voter.rawValue, $0.factors.map(\.value)) })
    }

    @Test func aBallotsIdentityIsItsLatestCommitByTheCutoff() {
        let moon = Make.slug("moon"), one = Make.number(1), pip = Make.handle("pip")
        let evidence = IdentityEvidence(ballotCommits: [
            "moon/0001": [pip: [commit("puppet@example.org", "2026-11-03T10:00:00Z"), commit("pip@example.org", "2026-11-08T00:00:00Z")]]
        ])
        #expect(evidence.ballotCommit(moon, one, pip, asOf: Make.time("2026-11-03T09:59:59Z")) == nil)
        #expect(evidence.ballotCommit(moon, one, pip, asOf: Make.time("2026-11-03T10:00:00Z"))?.identity == "puppet@example.org")
        #expect(evidence.ballotCommit(moon, one, pip, asOf: Make.time("2026-11-07T23:59:59Z"))?.identity == "puppet@example.org")
        #expect(evidence.ballotCommit(moon, one, pip, asOf: Make.time("2026-11-08T00:00:00Z"))?.identity == "pip@example.org")
        #expect(evidence.ballotCommit(moon, Make.number(2), pip, asOf: Make.time("2026-11-08T00:00:00Z")) == nil)
        #expect(evidence.ballotCommit(moon, one, Make.handle("pop"), asOf: Make.time("2026-11-08T00:00:00Z")) == nil)
    }

    @Test func thePuppetsShareOneVoteAndAReVoteCountsFromItsOwnCommit() throws {
        let outcome = puppetTally(IdentityEvidence(ballotCommits: ["moon/0001": honestCommits]))
        #expect(outcome.record.ballots == 3)
        #expect(factors(outcome) == ["dan": [], "pip": [0.5], "pop": [0.5]])
        #expect(puppetTally(IdentityEvidence()) != outcome)
    }

    @Test func commitsAfterTheCutoffDoNotChangeTheRound() {
        let honest = IdentityEvidence(ballotCommits: ["moon/0001": honestCommits])
        let expected = puppetTally(honest)
        typealias Change = (inout IdentityEvidence, String) -> Void
        let changes: [(String, Change)] = [
            ("pip re-commits her ballot", { e, t in e.ballotCommits["moon/0001"]![Make.handle("pip")]!.append(self.commit("pip@example.org", t)) }),
            (
                "a maintainer re-commits pop's ballot",
                { e, t in
                    e.maintainers = ["keeper@example.org"]
                    e.ballotCommits["moon/0001"]![Make.handle("pop")]!.append(self.commit("keeper@example.org", t))
                }
            ),
            ("the puppet commits prolific.yml", { e, t in e.configCommitters["puppet@example.org"] = Make.time(t) }),
            ("pop's profile is first committed", { e, t in e.profileCommits[Make.handle("pop")] = [self.commit("pop@example.org", t)] }),
        ]
        for (what, change) in changes {
            var later = honest
            change(&later, "2026-11-08T00:00:01Z")
            #expect(puppetTally(later) == expected, "\(what) after the cutoff")
            // The same commit before the cutoff is evidence: so the test above can tell.
            var earlier = honest
            change(&earlier, "2026-11-07T00:00:00Z")
            #expect(puppetTally(earlier) != expected, "\(what) before the cutoff")
        }
    }

    @Test func aMaintainersReCommitClearsTheIdentityAndTheSuspicion() throws {
        // dan's re-vote (cast the 5th) and pop's ballot were committed again by the maintainer.
        var commits = honestCommits
        commits[Make.handle("dan")] = [commit("dan@example.org", "2026-11-03T00:00:00Z"), commit("keeper@example.org", "2026-11-05T12:00:00Z")]
        commits[Make.handle("pop")]!.append(commit("keeper@example.org", "2026-11-04T00:00:00Z"))
        let (content, round) = puppetRound
        for evidence in [
            IdentityEvidence(ballotCommits: ["moon/0001": commits], maintainers: ["keeper@example.org"]),
            IdentityEvidence(ballotCommits: ["moon/0001": commits], configCommitters: ["keeper@example.org": Make.time("2026-09-30T00:00:00Z")]),
        ] {
            let timeline = TallyTimeline(content: content, evidence: evidence)
            let context = timeline.context(for: round, of: Make.slug("moon"), history: VotingHistory())
            #expect(context.identities == [Make.handle("pip"): "puppet@example.org"])
            #expect(context.suspect == [:])
            // dan's re-vote counts; pip and pop, no longer seen as one, count fully.
            let outcome = puppetTally(evidence)
            #expect(outcome.record.ballots == 3)
            #expect(factors(outcome) == ["dan": [], "pip": [], "pop": []])
        }

        // Without the maintainer's commit, dan's re-vote is later than his last commit: not counted.
        var without = commits
        without[Make.handle("dan")]!.removeLast()
        let dropped = puppetTally(IdentityEvidence(ballotCommits: ["moon/0001": without], maintainers: ["keeper@example.org"]))
        #expect(dropped.ballots.map(\.voter.rawValue) == ["pip", "pop"])
        // When the maintainer is nobody special, their commit is evidence like anyone's: pop is keeper's.
        let anyone = TallyTimeline(content: content, evidence: IdentityEvidence(ballotCommits: ["moon/0001": commits]))
            .context(for: round, of: Make.slug("moon"), history: VotingHistory())
        #expect(anyone.identities[Make.handle("pop")] == "keeper@example.org")
        #expect(anyone.identities[Make.handle("dan")] == "keeper@example.org")
    }

    @Test func whoeverCommitsTheConfigIsAMaintainerOnlyFromThenOn() throws {
        let cutoff = Make.time("2026-11-08T00:00:00Z")
        // The puppet committed prolific.yml the day after the round: its ballots are evidence for it.
        var evidence = IdentityEvidence(
            profileCommits: [Make.handle("pip"): [commit("puppet@example.org", "2026-11-02T00:00:00Z")]],
            ballotCommits: ["moon/0001": honestCommits],
            configCommitters: ["puppet@example.org": Make.time("2026-11-09T00:00:00Z")])
        #expect(!evidence.isMaintainer("puppet@example.org", at: cutoff))
        #expect(evidence.isMaintainer("puppet@example.org", at: Make.time("2026-11-09T00:00:00Z")))
        #expect(!evidence.isMaintainer("dan@example.org", at: Make.time("2027-01-01T00:00:00Z")))
        let outcome = puppetTally(evidence)
        #expect(factors(outcome) == ["dan": [], "pip": [0.5], "pop": [0.5]])
        // pip's profile, first committed by the puppet on the 2nd, makes pip six days old.
        #expect(try #require(outcome.ballots.first { $0.voter == Make.handle("pip") }).ageDays == 6)

        // Committed at the cutoff itself, it is a maintainer for the round: no evidence at all.
        evidence.configCommitters["puppet@example.org"] = cutoff
        #expect(evidence.isMaintainer("puppet@example.org", at: cutoff))
        let maintained = puppetTally(evidence)
        #expect(factors(maintained) == ["dan": [], "pip": [], "pop": []])
        #expect(try #require(maintained.ballots.first { $0.voter == Make.handle("pip") }).ageDays == 38)
    }

    @Test func listedMaintainersNeverCount() throws {
        var commits = honestCommits
        commits[Make.handle("pip")] = [commit("boss@example.org", "2026-11-03T10:00:00Z")]
        commits[Make.handle("pop")] = [commit("boss@example.org", "2026-11-03T11:00:00Z")]
        let profiles = [Make.handle("pip"): [commit("boss@example.org", "2026-11-02T00:00:00Z")]]
        let listed = IdentityEvidence(ballotCommits: ["moon/0001": commits], maintainers: ["boss@example.org"])
        #expect(listed.isMaintainer("boss@example.org", at: Timestamp(secondsSinceEpoch: 0)))
        let outcome = puppetTally(IdentityEvidence(profileCommits: profiles, ballotCommits: ["moon/0001": commits], maintainers: ["boss@example.org"]))
        #expect(factors(outcome) == ["dan": [], "pip": [], "pop": []])
        #expect(try #require(outcome.ballots.first { $0.voter == Make.handle("pip") }).ageDays == 38)
        // Unlisted, boss is one person committing two handles' ballots and pip's profile.
        let unlisted = puppetTally(IdentityEvidence(profileCommits: profiles, ballotCommits: ["moon/0001": commits]))
        #expect(factors(unlisted) == ["dan": [], "pip": [0.5], "pop": [0.5]])
        #expect(try #require(unlisted.ballots.first { $0.voter == Make.handle("pip") }).ageDays == 6)
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

    /// The history the replay hands over for `close`'s cache is every closed round recorded in
    /// closing order, without the projects: the pairs, habits and karma of recording them anew.
    @Test func theReplaysHistoryIsEveryClosedRoundWithoutProjects() throws {
        let content = try Self.played()
        let timeline = TallyTimeline(content: content)
        let (replayed, history) = timeline.replayExplainedWithHistory()
        #expect(replayed == timeline.replayExplained())
        let closed = content.projects.flatMap { project in project.closedRounds.map { (project.slug, $0) } }
            .sorted { a, b in (a.1.closed ?? a.1.closes, a.0, a.1.number) < (b.1.closed ?? b.1.closes, b.0, b.1.number) }
        var recorded = VotingHistory()
        for (_, round) in closed { recorded.record(round) }
        // The last round closes after every cutoff: the replay never needed it.
        #expect(recorded.roundsRecorded == 4 && !recorded.pairs.isEmpty)
        #expect(history.pairs == recorded.pairs)
        #expect(history.habitual == recorded.habitual)
        #expect(history.karma == recorded.karma)
        #expect(history.roundsRecorded == recorded.roundsRecorded)
    }

    /// A build after `close` adds the closed rounds' tallies to the last replay, against the
    /// history `close` keeps: the result must be the whole replay's, and the history the one the
    /// whole replay hands over.
    @Test func addingTheLastClosedRoundsGivesTheWholeReplay() throws {
        let content = try Self.played()
        let timeline = TallyTimeline(content: content)
        let (whole, wholeHistory) = timeline.replayExplainedWithHistory()
        // What `close` keeps: every other closed round, recorded in closing order, no projects.
        func past(leavingOut added: Set<String>) -> VotingHistory {
            let closed = content.projects.flatMap { project in project.closedRounds.map { (project.slug, $0) } }
                .filter { !added.contains(IdentityEvidence.key($0.0, $0.1.number)) }
                .sorted { a, b in (a.1.closed ?? a.1.closes, a.0, a.1.number) < (b.1.closed ?? b.1.closes, b.0, b.1.number) }
            var history = VotingHistory()
            for (_, round) in closed { history.record(round) }
            return history
        }
        for added in [["sun/0002"], ["moon/0002", "sun/0002"]] {
            let result = try #require(timeline.replayAdding(Set(added), to: past(leavingOut: Set(added))), "\(added)")
            #expect(result.replayed == Array(whole.suffix(added.count)), "\(added)")
            #expect(result.history.pairs == wholeHistory.pairs)
            #expect(result.history.habitual == wholeHistory.habitual)
            #expect(result.history.karma == wholeHistory.karma)
            #expect(result.history.roundsRecorded == wholeHistory.roundsRecorded)
        }
        // Sun's first round (cutoff Nov 11) is in the past of moon's second (closed Nov 15): added
        // alone, that later tally would be left as it was.
        #expect(timeline.replayAdding(["sun/0001"], to: past(leavingOut: ["sun/0001"])) == nil)
        #expect(timeline.replayAdding(["moon/0002"], to: past(leavingOut: ["moon/0002"])) == nil)
        #expect(timeline.replayAdding(["sun/0009"], to: past(leavingOut: [])) == nil, "not a closed round")
    }

    /// A round closed past its deadline is tallied as of the deadline: rounds that closed
    /// between the two are not in its past, and a build adds its tally all the same, recording
    /// them after it. Moon's second round (deadline Nov 15) closed on Nov 19, after sun's second
    /// (closed Nov 18), which didn't see it: added alone, its tally is the whole replay's.
    @Test func aRoundClosedPastItsDeadlineIsAddedAgainstItsOwnPast() throws {
        var content = try Self.played()
        let m = try #require(content.projects.firstIndex { $0.slug == Make.slug("moon") })
        content.projects[m].rounds[1].closed = Make.time("2026-11-19T00:00:00Z")
        let timeline = TallyTimeline(content: content)
        let (whole, wholeHistory) = timeline.replayExplainedWithHistory()
        var past = VotingHistory()
        for key in ["moon/1", "sun/1"] {
            let (slug, number) = (key.split(separator: "/")[0], Int(key.split(separator: "/")[1]) ?? 0)
            let round = try #require(content.project(Make.slug(String(slug)))?.rounds[number - 1])
            past.record(round)
        }
        let result = try #require(timeline.replayAdding(["moon/0002"], to: past))
        let moon2 = try #require(whole.first { $0.slug == Make.slug("moon") && $0.round.number.value == 2 })
        #expect(result.replayed == [moon2])
        #expect(result.history.pairs == wholeHistory.pairs)
        #expect(result.history.habitual == wholeHistory.habitual)
        #expect(result.history.karma == wholeHistory.karma)
        #expect(result.history.roundsRecorded == 4)
        // Sun's second round in its past too: that history is refused, and against it the tally
        // would differ (the past matters).
        var tooMuch = past
        tooMuch.record(try #require(content.project(Make.slug("sun"))?.rounds[1]))
        #expect(timeline.replayAdding(["moon/0002"], to: tooMuch) == nil)
        let round = moon2.round
        func tally(against history: VotingHistory) -> FairTally.Outcome {
            var history = history
            for project in content.projects where project.created < TallyContext.cutoff(of: round) { history.recordProject(owner: project.owner) }
            var context = timeline.context(for: round, of: Make.slug("moon"), history: history)
            context.mutualGroups = history.mutualGroups
            return FairTally.count(round, slug: Make.slug("moon"), context: context)
        }
        #expect(tally(against: past).record == moon2.explained?.record)
        #expect(tally(against: tooMuch).record != moon2.explained?.record)
        // Closed before sun's second round's cutoff (Nov 18), it was in that tally's past.
        content.projects[m].rounds[1].closed = Make.time("2026-11-17T00:00:00Z")
        #expect(TallyTimeline(content: content).replayAdding(["moon/0002"], to: past) == nil)
    }

    /// Rounds not added that closed between the added rounds' cutoffs are recorded between their
    /// tallies: sun's first round closed late (Nov 16, due Nov 11) is in the past of sun's second
    /// (cutoff Nov 18), not of moon's second (closed late, cutoff Nov 15). Both added at once,
    /// from a history of moon's first round alone, they are the whole replay's.
    @Test func roundsClosedBetweenTheAddedCutoffsAreRecordedBetweenTheirTallies() throws {
        var content = try Self.played()
        let m = try #require(content.projects.firstIndex { $0.slug == Make.slug("moon") })
        let s = try #require(content.projects.firstIndex { $0.slug == Make.slug("sun") })
        content.projects[m].rounds[1].closed = Make.time("2026-11-19T00:00:00Z")
        content.projects[s].rounds[0].closed = Make.time("2026-11-16T00:00:00Z")
        let timeline = TallyTimeline(content: content)
        let (whole, wholeHistory) = timeline.replayExplainedWithHistory()
        var past = VotingHistory()
        past.record(content.projects[m].rounds[0])
        let result = try #require(timeline.replayAdding(["moon/0002", "sun/0002"], to: past))
        let key = { (r: TallyTimeline.Replayed) in "\(r.slug)/\(r.round.number.value)" }
        #expect(result.replayed.map(key) == ["moon/2", "sun/2"])
        #expect(result.replayed == whole.filter { ["moon/2", "sun/2"].contains(key($0)) })
        #expect(result.history.pairs == wholeHistory.pairs && result.history.karma == wholeHistory.karma)
        #expect(result.history.roundsRecorded == 4)
        // Either alone too; but sun's first round alone, no: sun's second (cutoff Nov 18) saw it.
        #expect(timeline.replayAdding(["moon/0002"], to: past)?.replayed == whole.filter { key($0) == "moon/2" })
        #expect(timeline.replayAdding(["sun/0001"], to: past) == nil)
    }

    /// The history kept for `close` may stop short of the last closings: it is the first of the
    /// rounds in closing order, as the replay recorded them.
    @Test func theReplaysHistoryCanStopAtAGivenRound() throws {
        let content = try Self.played()
        let timeline = TallyTimeline(content: content)
        let closed = content.projects.flatMap { project in project.closedRounds.map { (project.slug, $0) } }
            .sorted { a, b in (a.1.closed ?? a.1.closes, a.0, a.1.number) < (b.1.closed ?? b.1.closes, b.0, b.1.number) }
        for kept in 0...closed.count {
            var recorded = VotingHistory()
            for (_, round) in closed.prefix(kept) { recorded.record(round) }
            let (replayed, history) = timeline.replayExplainedWithHistory(keeping: kept)
            #expect(replayed == timeline.replayExplained())
            #expect(history.roundsRecorded == kept)
            #expect(history.pairs == recorded.pairs, "\(kept)")
            #expect(history.habitual == recorded.habitual, "\(kept)")
            #expect(history.karma == recorded.karma, "\(kept)")
        }
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

    /// sun's round 2 (bob's and cat's snippets, four ballots) with its tally's keys placed as a
    /// round file would place them.
    func tamper(_ change: @escaping (inout TallyRecord) -> Void) throws -> [String] {
        try problems { content in
            let sun = index(content, "sun")
            var positions = Make.roundPositions
            positions["tally.ballots"] = TextPosition(line: 8, column: 12)
            positions["tally.scores"] = TextPosition(line: 9, column: 3)
            content.projects[sun].rounds[1].origin.positions = positions
            change(&content.projects[sun].rounds[1].tally!)
        }
    }

    static let sun2 = "Content/projects/sun/rounds/0002/round.md"
    static let bob = Make.id("bob", "2026-11-12T10:00:00Z"), cat = Make.id("cat", "2026-11-12T11:00:00Z")

    @Test func sunsSecondRoundIsAsTheTamperingTestsExpect() throws {
        let round = try #require(try TallyTimelineTests.played().project(Make.slug("sun"))?.rounds[1])
        #expect(round.tally?.ballots == 4)
        #expect(Set(try #require(round.tally).scores.map(\.id)) == [Self.bob, Self.cat])
        #expect(try tamper { _ in } == [])
    }

    @Test func anAlteredBallotCountIsReported() throws {
        #expect(
            try tamper { $0.ballots = 5 }
                == ["\(Self.sun2):8:12: error: recorded 5 counted ballots, but the tally counts 4"])
        #expect(
            try tamper { $0.ballots = 0 }
                == ["\(Self.sun2):8:12: error: recorded 0 counted ballots, but the tally counts 4"])
    }

    @Test func aMissingScoreIsReported() throws {
        #expect(
            try tamper { $0.scores.removeAll { $0.id == Self.cat } }
                == ["\(Self.sun2):9:3: error: the recorded scores have no score for cat-20261112110000"])
        #expect(
            try tamper { $0.scores.removeAll() }
                == ["\(Self.sun2):9:3: error: the recorded scores have no score for bob-20261112100000, cat-20261112110000"])
    }

    @Test func aScoreForANonSnippetIsReported() throws {
        // A snippet of another round, and an id of nobody's.
        let other = Make.id("bob", "2026-11-02T10:00:00Z"), zed = Make.id("zed", "2026-11-12T11:00:00Z")
        #expect(
            try tamper { $0.scores.append(TallyRecord.Score(id: other, score: 0)) }
                == ["\(Self.sun2):9:3: error: the recorded scores have a score for bob-20261102100000, not a snippet of the round"])
        #expect(
            try tamper { $0.scores += [TallyRecord.Score(id: zed, score: 1), TallyRecord.Score(id: other, score: 0)] }
                == [
                    "\(Self.sun2):9:3: error: the recorded scores have a score for bob-20261102100000, zed-20261112110000, "
                        + "not a snippet of the round"
                ])
        // cat's score recorded under another id: both at once.
        #expect(
            try tamper { tally in
                let i = tally.scores.firstIndex { $0.id == Self.cat }!
                tally.scores[i].id = zed
            } == [
                "\(Self.sun2):9:3: error: the recorded scores have no score for cat-20261112110000 and a score for "
                    + "zed-20261112110000, not a snippet of the round"
            ])
    }

    /// moon's round 1 closed early, on Nov 6, with its deadline on Nov 8; eve's ballot cast at `late`.
    func closedEarly(late: String) -> Content {
        let bob1 = Make.submission("bob", at: "2026-11-02T10:00:00Z")
        let cat1 = Make.submission("cat", at: "2026-11-02T11:00:00Z")
        var round = Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-06T00:00:00Z",
            submissions: [bob1, cat1],
            ballots: [Make.ballot("dan", at: "2026-11-03T00:00:00Z", for: [bob1.id]), Make.ballot("eve", at: late, for: [cat1.id])])
        let users = ["ann", "bob", "cat", "dan", "eve"].map { Make.user($0) }
        let open = Make.round(2, opened: "2026-11-06T00:00:00Z", closes: "2026-11-13T00:00:00Z")
        let outcome = TallyTimeline(content: Make.content(users: users, projects: [Make.project(rounds: [round, open])]))
            .tally(round, of: Make.slug("moon"), closingAt: Make.time("2026-11-06T00:00:00Z"))
        round.winner = outcome.winner
        round.tally = outcome.record
        return Make.content(users: users, projects: [Make.project(rounds: [round, open])])
    }

    @Test func aBallotCastAfterAnEarlyClosingIsOnlyAWarning() throws {
        let votes = "Content/projects/moon/rounds/0001/votes"
        for late in ["2026-11-06T00:00:00Z", "2026-11-07T23:59:59Z"] {
            let content = closedEarly(late: late)
            let round = try #require(content.projects.first?.rounds.first)
            #expect(round.tally?.method == "fair-1")
            #expect(round.tally?.ballots == 1)
            #expect(round.winner == Make.id("bob", "2026-11-02T10:00:00Z"))
            let found = ContentCheck.problems(in: content)
            #expect(
                found.map(\.description) == [
                    "\(votes)/eve.yml:2:7: warning: cast at \(late), not before the round closed at 2026-11-06T00:00:00Z; "
                        + "it was not counted"
                ])
            #expect(found.map(\.severity) == [.warning])
        }
        // A second before the closing, it was counted: nothing to say.
        let inTime = closedEarly(late: "2026-11-05T23:59:59Z")
        #expect(inTime.projects.first?.rounds.first?.tally?.ballots == 2)
        #expect(ContentCheck.problems(in: inTime) == [])
        // At the deadline, it is outside the round's window: an error, and not this warning.
        #expect(
            ContentCheck.problems(in: closedEarly(late: "2026-11-08T00:00:00Z")).map(\.description) == [
                "\(votes)/eve.yml:2:7: error: cast at 2026-11-08T00:00:00Z, outside round 1's window (from "
                    + "2026-11-01T00:00:00Z, before 2026-11-08T00:00:00Z)"
            ])
    }

    /// The rule `replayAdding` and the handed tallies share: no round not added may have its
    /// cutoff after the closing of one that is (its tally saw that round).
    @Test func roundsAreAddedOnlyWhenNoOtherTallySawThem() {
        func t(_ day: Int) -> Timestamp { Timestamp(secondsSinceEpoch: Int64(day) * 86_400) }
        #expect(TallyTimeline.noOtherTallySaw([(t(5), t(5))], cutoffsBefore: nil))
        #expect(TallyTimeline.noOtherTallySaw([(t(5), t(5))], cutoffsBefore: t(4)))
        #expect(TallyTimeline.noOtherTallySaw([(t(5), t(5))], cutoffsBefore: t(5)), "a cutoff at the closing: closed strictly before it is seen")
        #expect(!TallyTimeline.noOtherTallySaw([(t(5), t(5))], cutoffsBefore: t(6)))
        #expect(TallyTimeline.noOtherTallySaw([(t(5), t(5)), (t(5), t(5))], cutoffsBefore: t(4)), "two closed at once")
        // Closed past its deadline: the tally looks back from the deadline, the others from theirs.
        #expect(TallyTimeline.noOtherTallySaw([(t(3), t(7))], cutoffsBefore: t(6)), "another closed meanwhile, its cutoff before this closing")
        #expect(!TallyTimeline.noOtherTallySaw([(t(3), t(7)), (t(8), t(8))], cutoffsBefore: t(8)), "the first was seen")
    }
}
