import ProlificCore

/// One run of the game: honest writers and voters with latent skill and noisy taste, plus one
/// scenario's attackers, over warm-up rounds and then the measured rounds.
struct Simulation {
    enum Method: String { case plain, fair }

    struct Result {
        var attackedRounds = 0
        var successes = 0
        var rounds = 0
        var unchanged = 0
        var bestWins = 0
        var agreesWithPlain = 0
        var disagreement = 0
    }

    static let writers = 16
    static let honestVoters = 40
    static let warmUp = 60

    let scenario: Scenario
    let method: Method
    let rounds: Int
    var random: SeededRandom

    var skill: [Handle] = []
    var writerSkill: [Handle: Double] = [:]
    var voters: [(handle: Handle, noise: Double, favorite: Handle)] = []
    var joined: [Handle: Timestamp] = [:]
    var identities: [Handle: String] = [:]
    var history = VotingHistory()
    let start = Timestamp(year: 2026, month: 1, day: 1)

    init(scenario: Scenario, method: Method, rounds: Int, seed: UInt64) {
        self.scenario = scenario
        self.method = method
        self.rounds = rounds
        random = SeededRandom(seed: seed)
    }

    func handle(_ text: String) -> Handle { Handle(text) ?? Handle("x")! }
    func day(_ n: Int) -> Timestamp { Timestamp(secondsSinceEpoch: start.secondsSinceEpoch + Int64(n) * 86_400) }

    /// Writers sorted by skill; the target is a middling one, its partners next to it.
    var colluders: [Handle] {
        let sorted = writerSkill.keys.sorted { writerSkill[$0]! < writerSkill[$1]! }
        return Array(sorted[(Self.writers / 2)..<(Self.writers / 2 + scenario.colluders)])
    }

    mutating func setUp() {
        for i in 0..<Self.writers {
            let h = handle(String(format2("w", i)))
            writerSkill[h] = random.normal()
            joined[h] = day(-120 + i)
        }
        let writerList = writerSkill.keys.sorted()
        for i in 0..<Self.honestVoters {
            let h = handle(format2("h", i))
            voters.append((h, 0.6 + random.uniform() * 0.8, writerList[Int(random.next() % UInt64(writerList.count))]))
            joined[h] = day(-100 + i)
        }
        // Standing attackers: fans or sleepers join long before; sleepers all on one day.
        for i in 0..<scenario.fans {
            let h = handle(format2(scenario.isSleepers ? "s" : "f", i))
            switch scenario {
            case .sleepers, .sleepersWithGit: joined[h] = day(-40) + TimeSpan(seconds: Int64(60 * (i + 1)))!
            case .sleepersStaggered: joined[h] = day(-80 + 7 * i)
            default: joined[h] = day(-90 + 7 * i)
            }
            if scenario == .sleepersWithGit { identities[h] = "sleeper@example.org" }
        }
        for i in 0..<3 { joined[handle(format2("a", i))] = day(-80 + i * 5) }
        for owner in writerList { history.recordProject(owner: owner) }
    }

    /// A voter's honest ballot: the snippet they like best, sometimes the two best.
    mutating func honestChoice(noise: Double, favorite: Handle?, snippets: [(Submission, Double)], voter: Handle) -> [SubmissionID] {
        var scored = snippets.filter { $0.0.author != voter }.map { (s, q) -> (SubmissionID, Double) in
            (s.id, q + noise * random.normal() + (s.author == favorite ? 0.3 : 0))
        }
        scored.sort { $0.1 > $1.1 }
        guard !scored.isEmpty else { return [] }
        return random.chance(0.3) && scored.count > 1 ? [scored[0].0, scored[1].0] : [scored[0].0]
    }

    mutating func run() -> Result {
        setUp()
        var result = Result()
        let sideList = colluders
        let side = Set(sideList)
        let target = colluders[0]
        let writerList = writerSkill.keys.sorted()
        for r in 0..<(Self.warmUp + rounds) {
            let measured = r >= Self.warmUp
            let attacking = measured && scenario != .none
            let opened = day(r), cast = day(r) + TimeSpan(seconds: 3600)!
            // Snippets: attacker-side writers take part half the time, the rest are drawn at random.
            var authors: [Handle] = []
            for writer in sideList where random.chance(0.5) { authors.append(writer) }
            let size = 4 + Int(random.next() % 3)
            while authors.count < size {
                let w = writerList[Int(random.next() % UInt64(writerList.count))]
                if !authors.contains(w) { authors.append(w) }
            }
            authors.sort()
            var snippets: [(Submission, Double)] = []
            for (i, author) in authors.enumerated() {
                let time = opened + TimeSpan(seconds: Int64(60 * (i + 1)))!
                let id = SubmissionID(author: author, time: time)
                let quality = writerSkill[author]! + 0.8 * random.normal()
                snippets.append((Submission(id: id, author: author, submitted: time, body: "r\(r) \(author)", origin: Origin(path: "")), quality))
            }
            let best = snippets.max { $0.1 < $1.1 }!.0.id

            var honest: [Ballot] = []
            func ballot(_ voter: Handle, _ ids: [SubmissionID]) -> Ballot {
                Ballot(voter: voter, cast: cast, choices: ids, origin: Origin(path: ""))
            }
            for voter in voters where random.chance(0.5) {
                let ids = honestChoice(noise: voter.noise, favorite: voter.favorite, snippets: snippets, voter: voter.handle)
                if !ids.isEmpty { honest.append(ballot(voter.handle, ids)) }
            }
            var attack: [Ballot] = []
            let present = snippets.filter { side.contains($0.0.author) }.map(\.0)
            // Colluding writers back each other; otherwise vote honestly.
            if scenario.colluders > 1 {
                for writer in sideList {
                    let friends = present.filter { $0.author != writer }.map(\.id)
                    let ids = attacking && !friends.isEmpty ? friends : honestChoice(noise: 1, favorite: nil, snippets: snippets, voter: writer)
                    if !ids.isEmpty { attack.append(ballot(writer, ids)) }
                }
            }
            // Fans and sleepers: always for the target when it is there, innocuous otherwise.
            for i in 0..<scenario.fans {
                let h = handle(format2(scenario.isSleepers ? "s" : "f", i))
                if let mine = present.first(where: { $0.author == target }), attacking {
                    attack.append(ballot(h, [mine.id]))
                } else if random.chance(0.6) {
                    let ids = honestChoice(noise: 1, favorite: nil, snippets: snippets, voter: h)
                    if !ids.isEmpty { attack.append(ballot(h, ids)) }
                }
            }
            // Fresh sockpuppets, made for the round.
            if attacking, scenario.freshPuppets > 0, let mine = present.first(where: { $0.author == target }) {
                for i in 0..<scenario.freshPuppets {
                    let h = handle("p\(r)-\(i)")
                    joined[h] = opened + TimeSpan(seconds: Int64(60 * i + 60))!
                    attack.append(ballot(h, [mine.id]))
                }
            }
            let frontRunner = Tally.count(round(r, snippets.map(\.0), honest)).winner
            var extraHonest: [Ballot] = []
            for i in 0..<3 {
                let h = handle(format2("a", i))
                let ids = honestChoice(noise: 1, favorite: nil, snippets: snippets, voter: h)
                extraHonest.append(ballot(h, ids))
            }
            if scenario == .approveEverything || scenario == .bury {
                for i in 0..<3 {
                    let h = handle(format2("a", i))
                    if !attacking {
                        attack.append(extraHonest[i])
                    } else if scenario == .approveEverything {
                        attack.append(ballot(h, snippets.map(\.0.id)))
                    } else {
                        attack.append(ballot(h, snippets.map(\.0.id).filter { $0 != frontRunner }))
                    }
                }
            }

            let all = round(r, snippets.map(\.0), honest + attack)
            let winner = tally(all)
            if measured {
                result.rounds += 1
                let reference = tally(round(r, snippets.map(\.0), honest))
                if winner == best { result.bestWins += 1 }
                if winner == Tally.count(all).winner { result.agreesWithPlain += 1 }
                if winner == reference { result.unchanged += 1 }
                if !present.isEmpty, scenario.colluders > 1 || scenario.fans > 0 || scenario.freshPuppets > 0 {
                    result.attackedRounds += 1
                    let won = present.contains { $0.id == winner }
                    let deserved = present.contains { $0.id == reference }
                    if won && !deserved { result.successes += 1 }
                }
                if scenario == .bury {
                    if reference == frontRunner && winner != frontRunner { result.successes += 1 }
                    if tally(round(r, snippets.map(\.0), honest + extraHonest)) != reference { result.disagreement += 1 }
                    result.attackedRounds += 1
                }
            }
            var closed = all
            closed.closed = closed.closes
            closed.winner = winner
            history.record(closed)
        }
        return result
    }

    func round(_ r: Int, _ submissions: [Submission], _ ballots: [Ballot]) -> Round {
        Round(
            number: RoundNumber(1)!, opened: day(r), closes: day(r + 1), submissions: submissions, ballots: ballots,
            origin: Origin(path: ""))
    }

    func tally(_ round: Round) -> SubmissionID? {
        switch method {
        case .plain: return Tally.count(round).winner
        case .fair:
            let context = TallyContext(history: history, joined: joined, identities: identities)
            return FairTally.count(round, slug: Slug("sim")!, context: context).winner
        }
    }
}

func format2(_ prefix: String, _ n: Int) -> String { n < 10 ? "\(prefix)0\(n)" : "\(prefix)\(n)" }
