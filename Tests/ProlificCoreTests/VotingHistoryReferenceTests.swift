import Testing

@testable import ProlificCore

/// `VotingHistory.record` looks a round's snippets, voters and habits up in short lists (hash
/// tables only above 16): it must count exactly what the plain rule does, written here with sets
/// and dictionaries of handles, on rounds with repeated snippet ids, second ballots, votes for
/// one's own snippet, choices outside the round, hidden snippets, and more than 16 snippets or
/// ballots.
@Suite struct VotingHistoryReferenceTests {
    /// The rule as it reads, one hash table per question.
    struct Reference {
        var records: [VotingHistory.Pair: VotingHistory.PairRecord] = [:]
        var strong: Set<VotingHistory.Pair> = []
        var karma: [Handle: Karma] = [:]

        mutating func record(_ round: Round) {
            let round = Moderation.counted(round)
            var authors: [SubmissionID: Handle] = [:]
            for snippet in round.submissions where authors[snippet.id] == nil {
                authors[snippet.id] = snippet.author
                karma[snippet.author, default: Karma()].snippets += 1
            }
            if let winner = round.winner, let author = authors[winner] { karma[author, default: Karma()].wins += 1 }
            var seen: Set<Handle> = []
            var backed: [(voter: Handle, chosen: Set<Handle>)] = []
            for ballot in round.ballots {
                let chosen = Set(ballot.choices.compactMap { authors[$0] }.filter { $0 != ballot.voter })
                guard !chosen.isEmpty, seen.insert(ballot.voter).inserted else { continue }
                backed.append((ballot.voter, chosen))
                karma[ballot.voter, default: Karma()].ballots += 1
            }
            guard backed.count > 1 else { return }
            var updates: [(VotingHistory.Pair, VotingHistory.PairRecord)] = []
            for author in Set(authors.values) {
                var crowd = 0, crowdBackers = 0
                var habitual: Set<Handle> = []
                for (voter, chosen) in backed where voter != author {
                    if strong.contains(VotingHistory.Pair(voter: voter, author: author)) {
                        habitual.insert(voter)
                    } else {
                        crowd += 1
                        if chosen.contains(author) { crowdBackers += 1 }
                    }
                }
                for (voter, chosen) in backed where voter != author {
                    let mine = chosen.contains(author), inCrowd = !habitual.contains(voter)
                    let size = crowd - (inCrowd ? 1 : 0)
                    guard size > 0 else { continue }
                    let pair = VotingHistory.Pair(voter: voter, author: author)
                    var record = records[pair] ?? VotingHistory.PairRecord()
                    record.chances += 1
                    record.expected += Double(crowdBackers - (inCrowd && mine ? 1 : 0)) / Double(size)
                    if mine { record.backs += 1 }
                    updates.append((pair, record))
                }
            }
            for (pair, record) in updates {
                records[pair] = record
                if VoteWeight.isHabitual(record) { strong.insert(pair) } else { strong.remove(pair) }
            }
        }
    }

    /// Round `number` of a game of 24 players, each of whom favours a few others.
    func round(_ number: Int, _ random: inout SplitMix64) -> Round {
        let day = (number % 28) + 1
        let stamp = { (hour: Int) in "2026-02-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z" }
        let player = { (index: Int) in "p\(index)" }
        // Up to 30 snippets, so some rounds pass 16; one in eight repeats an earlier snippet's id.
        var snippets: [Submission] = []
        for _ in 0..<(1 + random.next(30)) {
            if !snippets.isEmpty, random.next(8) == 0 {
                snippets.append(snippets[random.next(snippets.count)])
            } else {
                snippets.append(Make.submission(player(random.next(24)), at: stamp(random.next(24))))
            }
        }
        let elsewhere = Make.id("zed", "2025-01-01T00:00:00Z")
        var ballots: [Ballot] = []
        for _ in 0..<random.next(40) {
            let voter = random.next(24)
            var choices: [SubmissionID] = []
            for _ in 0..<(1 + random.next(4)) {
                // Mostly a favourite's snippet when there is one, sometimes any, now and then none of the round's.
                let favourites = snippets.filter { Int($0.author.rawValue.dropFirst()).map { $0 % 5 == voter % 5 } ?? false }
                switch random.next(10) {
                case 0: choices.append(elsewhere)
                case 1...5 where !favourites.isEmpty: choices.append(favourites[random.next(favourites.count)].id)
                default: choices.append(snippets[random.next(snippets.count)].id)
                }
            }
            ballots.append(Make.ballot(player(voter), at: stamp(23), for: choices))
        }
        var round = Make.round(
            number, opened: "2026-01-01T00:00:00Z", closes: "2026-03-01T00:00:00Z", closed: "2026-03-01T00:00:00Z",
            submissions: snippets, ballots: ballots)
        round.winner = random.next(6) == 0 ? elsewhere : snippets[random.next(snippets.count)].id
        if random.next(4) == 0 {
            // Hidden before the round closed (withheld from the tally) or after (counted).
            let hidden = snippets[random.next(snippets.count)].id
            let at = random.next(2) == 0 ? "2026-02-28T00:00:00Z" : "2026-03-02T00:00:00Z"
            round.hidden = [Round.Hidden(id: hidden, by: "mod", at: Make.time(at), reason: "test")]
        }
        return round
    }

    @Test func recordCountsWhatThePlainRuleCounts() {
        var random = SplitMix64(seed: 7)
        var history = VotingHistory(), karmaOnly = VotingHistory(), reference = Reference()
        var sawManySnippets = false, sawManyBallots = false, sawRepeatedID = false
        for number in 1...400 {
            let round = round(number, &random)
            sawManySnippets = sawManySnippets || round.submissions.count > 16
            sawManyBallots = sawManyBallots || round.ballots.count > 16
            sawRepeatedID = sawRepeatedID || Set(round.submissions.map(\.id)).count < round.submissions.count
            history.record(round)
            karmaOnly.recordKarma(round)
            reference.record(round)
        }
        #expect(sawManySnippets && sawManyBallots && sawRepeatedID, "the rounds reach every path")
        #expect(!reference.strong.isEmpty, "some habits grew strong, so the crowd leaves voters out")
        let pairs = history.pairs
        let differing = Set(pairs.keys).union(reference.records.keys).filter { pairs[$0] != reference.records[$0] }
        #expect(differing.isEmpty, "records differ for \(differing.sorted().prefix(3)) among \(pairs.count) pairs")
        #expect(history.habitual.symmetricDifference(reference.strong).sorted().prefix(3) == [])
        #expect(history.karma == reference.karma.filter { $0.value != Karma() })
        #expect(karmaOnly.karma == history.karma)
    }
}

extension SplitMix64 {
    /// A number below `bound`: the same rounds on every run.
    fileprivate mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
