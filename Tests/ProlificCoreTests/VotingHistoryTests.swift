import Testing

@testable import ProlificCore

@Suite struct VotingHistoryTests {
    let ann = Make.submission("ann", at: "2026-11-02T10:00:00Z")
    let bob = Make.submission("bob", at: "2026-11-02T11:00:00Z")
    let cat = Make.submission("cat", at: "2026-11-02T12:00:00Z")
    let vote = "2026-11-03T00:00:00Z"

    func pair(_ history: VotingHistory, _ voter: String, _ author: String) -> VotingHistory.PairRecord {
        history.record(voter: Make.handle(voter), author: Make.handle(author))
    }

    func karma(_ history: VotingHistory, _ name: String) -> Karma { history.karma(of: Make.handle(name)) }

    /// Snippets by ann, bob and cat (cat won); ann, dan and eve voted; fay's ballot names nothing of the round.
    var round: Round {
        let elsewhere = Make.id("zed", "2026-10-02T10:00:00Z")
        var round = Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", closed: "2026-11-08T00:00:00Z",
            submissions: [ann, bob, cat],
            ballots: [
                // ann's own snippet is not a choice she can make: only bob counts.
                Make.ballot("ann", at: vote, for: [ann.id, bob.id]),
                Make.ballot("dan", at: vote, for: [bob.id, cat.id]),
                Make.ballot("eve", at: vote, for: [cat.id]),
                Make.ballot("fay", at: vote, for: [elsewhere]),
            ])
        round.winner = cat.id
        return round
    }

    @Test func karmaCountsSnippetsValidBallotsWinsAndProjects() {
        var history = VotingHistory()
        history.record(round)
        history.recordProject(owner: Make.handle("ann"))
        #expect(history.roundsRecorded == 1)
        #expect(karma(history, "ann") == Karma(snippets: 1, ballots: 1, wins: 0, projects: 1))
        #expect(karma(history, "bob") == Karma(snippets: 1))
        #expect(karma(history, "cat") == Karma(snippets: 1, wins: 1))
        #expect(karma(history, "dan") == Karma(ballots: 1))
        #expect(karma(history, "eve") == Karma(ballots: 1))
        // A ballot with no valid choice earns nothing.
        #expect(karma(history, "fay") == Karma())
        #expect(karma(history, "fay").total == 0)
        // 2 per snippet, 1 per ballot, 5 per win, 3 per project.
        #expect(karma(history, "ann").total == 6)
        #expect(karma(history, "cat").total == 7)
        #expect(karma(history, "ann").breakdown == "6 (1 snippet, 1 ballot, 1 project)")
        #expect(karma(history, "fay").breakdown == "0")
    }

    @Test func aKarmaOnlyHistoryCountsTheSameKarmaWithoutPairs() {
        var full = VotingHistory(), karmaOnly = VotingHistory()
        for _ in 0..<2 {
            full.record(round)
            karmaOnly.recordKarma(round)
        }
        #expect(!full.pairs.isEmpty)
        #expect(karmaOnly.pairs.isEmpty)
        #expect(karmaOnly.karma == full.karma)
        #expect(karmaOnly.roundsRecorded == 2)
    }

    @Test func aBallotForOnlyTheVotersOwnSnippetEarnsNoKarma() {
        var round = round
        round.ballots = [
            Make.ballot("ann", at: vote, for: [ann.id]),
            Make.ballot("bob", at: vote, for: [ann.id]),
        ]
        var history = VotingHistory(), karmaOnly = VotingHistory()
        history.record(round)
        karmaOnly.recordKarma(round)
        #expect(karma(history, "ann").ballots == 0)
        #expect(karma(history, "bob").ballots == 1)
        #expect(karmaOnly.karma == history.karma)
    }

    @Test func aWinnerThatIsNoSnippetOfTheRoundEarnsNoWin() {
        var round = round
        round.winner = Make.id("zed", "2026-11-02T10:00:00Z")
        var history = VotingHistory()
        history.record(round)
        #expect(history.karma.values.allSatisfy { $0.wins == 0 })
        #expect(karma(history, "zed") == Karma())
    }

    @Test func pairsCountChancesBacksAndTheOtherVotersShare() {
        var history = VotingHistory()
        history.record(round)
        // Three voters (ann, dan, eve); bob is backed by ann and dan, cat by dan and eve, ann by nobody.
        // expected = share of the OTHER two voters who backed the author.
        let expected: [String: (chances: Int, backs: Int, expected: Double)] = [
            "ann→bob": (1, 1, 0.5),  // dan of {dan, eve}
            "ann→cat": (1, 0, 1.0),  // dan and eve
            "dan→ann": (1, 0, 0.0),
            "dan→bob": (1, 1, 0.5),  // ann of {ann, eve}
            "dan→cat": (1, 1, 0.5),  // eve of {ann, eve}
            "eve→ann": (1, 0, 0.0),
            "eve→bob": (1, 0, 1.0),  // ann and dan
            "eve→cat": (1, 1, 0.5),  // dan of {ann, dan}
        ]
        var actual: [String: (chances: Int, backs: Int, expected: Double)] = [:]
        for (key, record) in history.pairs {
            actual["\(key.voter)→\(key.author)"] = (record.chances, record.backs, record.expected)
        }
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (key, value) in expected {
            let found = actual[key]
            #expect(found?.chances == value.chances, "\(key)")
            #expect(found?.backs == value.backs, "\(key)")
            #expect(found.map { nearly($0.expected, value.expected) } == true, "\(key): \(String(describing: found))")
        }
        // The voter's own snippet is never a chance; fay, who named nothing valid, has no pairs.
        #expect(history.pairs[VotingHistory.Pair(voter: Make.handle("ann"), author: Make.handle("ann"))] == nil)
        #expect(!history.pairs.keys.contains { $0.voter == Make.handle("fay") })
        #expect(pair(history, "fay", "bob") == VotingHistory.PairRecord())
    }

    @Test func pairsAccumulateOverRounds() {
        var history = VotingHistory()
        history.record(round)
        var second = round
        second.number = Make.number(2)
        history.record(second)
        #expect(history.roundsRecorded == 2)
        #expect(pair(history, "ann", "cat").chances == 2)
        #expect(pair(history, "ann", "cat").backs == 0)
        #expect(nearly(pair(history, "ann", "cat").expected, 2.0))
        #expect(pair(history, "dan", "bob").backs == 2)
        #expect(nearly(pair(history, "dan", "bob").expected, 1.0))
        #expect(karma(history, "cat").wins == 2)
    }

    @Test func aRoundWithASingleVoterAddsNoPairChances() {
        var round = round
        round.ballots = [Make.ballot("dan", at: vote, for: [bob.id])]
        var history = VotingHistory()
        history.record(round)
        #expect(history.pairs.isEmpty)
        // The ballot still counts for karma.
        #expect(karma(history, "dan").ballots == 1)
    }

    @Test func aSecondBallotOfTheSameVoterCountsOnce() {
        var round = round
        round.ballots = [
            Make.ballot("dan", at: vote, for: [bob.id]),
            Make.ballot("dan", at: vote, for: [cat.id]),
            Make.ballot("eve", at: vote, for: [cat.id]),
        ]
        var history = VotingHistory()
        history.record(round)
        #expect(karma(history, "dan").ballots == 1)
        // The first ballot is the one kept: dan backed bob, not cat.
        #expect(pair(history, "dan", "bob").backs == 1)
        #expect(pair(history, "dan", "cat").backs == 0)
        #expect(pair(history, "dan", "cat").chances == 1)
    }

    /// A cache writer takes the records one at a time (`forEachRecord`) and the rest from
    /// `snapshotLeavingOutRecords`: together they must be the whole snapshot.
    @Test func theRecordsHandedOverOneAtATimeAreTheSnapshots() {
        let history = Make.history(
            rounds: VoteWeight.habitMinimumBacks, authors: ["ann", "bob", "dan"],
            votes: ["ann": ["bob"], "bob": ["ann"], "cat": ["dan", "bob"]])
        let whole = history.snapshot
        #expect(!whole.strong.isEmpty && whole.records.count > 3)
        var handed: [(key: UInt64, chances: Int, backs: Int, expected: Double)] = []
        history.forEachRecord { handed.append(($0, $1, $2, $3)) }
        #expect(history.recordCount == whole.records.count)
        var rest = history.snapshotLeavingOutRecords
        #expect(rest.records.isEmpty)
        rest.records = handed
        #expect(rest == whole)
    }
}
