/// The fair tally: votes weighted by karma, account age and behaviour, then counted.
///
/// Each ballot's base weight is a gate on its voter's karma and age; voters who are one person
/// (one git identity) share one vote; accounts created together that vote alike count as √n;
/// newcomers together weigh at most a quarter of the established voters; a ballot's weight is
/// split equally over its snippets; each share is damped by the voter's habit towards its author
/// and by mutual support. The highest total wins; ties end in a hash of the snippets' content.
/// A pure function of the round and its context: the same files always give the same result.
public enum FairTally {
    public static let method = "fair-1"

    /// One share of a ballot: the weight it gives to one snippet, and why.
    public struct Share: Hashable, Sendable {
        public var id: SubmissionID
        public var weight: Double
        public var habit: Double
        public var record: VotingHistory.PairRecord
        public var mutual: Bool

        public init(id: SubmissionID, weight: Double, habit: Double, record: VotingHistory.PairRecord, mutual: Bool) {
            (self.id, self.weight, self.habit, self.record, self.mutual) = (id, weight, habit, record, mutual)
        }
    }

    /// One ballot, weighed.
    public struct WeightedBallot: Hashable, Sendable {
        public var voter: Handle
        public var karma: Karma
        public var ageDays: Double
        public var base: Double
        /// The group factors applied, in order, with their reasons.
        public var factors: [Factor]
        /// The ballot's weight after the group factors, before the split.
        public var weight: Double
        public var shares: [Share]

        public init(
            voter: Handle, karma: Karma, ageDays: Double, base: Double, factors: [Factor], weight: Double, shares: [Share]
        ) {
            (self.voter, self.karma, self.ageDays, self.base) = (voter, karma, ageDays, base)
            (self.factors, self.weight, self.shares) = (factors, weight, shares)
        }

        public struct Factor: Hashable, Sendable {
            public var value: Double
            public var reason: String

            public init(value: Double, reason: String) {
                self.value = value
                self.reason = reason
            }
        }

        /// The whole explanation in one line of plain words: its parts joined by "; ".
        ///
        /// Written into one string as it goes: made part by part, in an array joined at the end,
        /// the explanations of a large site's 140,000 ballots were 1.6 % of a full build's CPU.
        public var explanation: String {
            var text = ""
            text.reserveCapacity(80 + 40 * factors.count + 100 * shares.count)
            text += "karma "
            text += String(karma.total)
            text += ", joined "
            text += VoteWeight.describe(days: ageDays)
            text += " → base "
            text += format(base)
            for factor in factors {
                text += "; "
                text += factor.reason
                text += " → ×"
                text += format(factor.value)
            }
            if shares.count > 1 {
                text += "; split over "
                text += String(shares.count)
                text += " snippets"
            }
            for share in shares {
                let author = share.id.author.rawValue
                text += "; "
                text += format(share.weight)
                text += " to @"
                text += author
                if share.habit < 1 {
                    text += " (backed @"
                    text += author
                    text += " in "
                    text += String(share.record.backs)
                    text += " of "
                    text += String(share.record.chances)
                    text += " past chances, crowd expected "
                    text += format(share.record.expected, digits: 1)
                    text += " → habit ×"
                    text += format(share.habit)
                    text += ")"
                }
                if share.mutual {
                    text += " (mutual support → ×"
                    text += format(VoteWeight.mutualFactor)
                    text += ")"
                }
            }
            return text
        }
    }

    public struct Outcome: Hashable, Sendable {
        public var record: TallyRecord
        public var winner: SubmissionID?
        public var ballots: [WeightedBallot]

        public init(record: TallyRecord, winner: SubmissionID?, ballots: [WeightedBallot]) {
            (self.record, self.winner, self.ballots) = (record, winner, ballots)
        }
    }

    /// The tally of `round` of `slug` against `context`. A build takes the tally `close` made
    /// when a digest of what this reads of the round (its number, times, hidden snippets,
    /// snippets' ids, authors and texts, ballots) and of the context besides the history is the
    /// same (the store's `HandedTallies.inputs`): a field read here must be digested there.
    public static func count(_ round: Round, slug: Slug, context: TallyContext) -> Outcome {
        // Hidden snippets are not candidates: a choice of one counts for nothing.
        let round = Moderation.counted(round)
        let cutoff = TallyContext.cutoff(of: round)
        // Snippets and ballots are read in place, by index: copying each retained its strings,
        // in every round of a replay.
        let snippets = round.submissions
        var authors: [SubmissionID: Handle] = [:]
        authors.reserveCapacity(snippets.count)
        for s in snippets.indices where authors[snippets[s].id] == nil { authors[snippets[s].id] = snippets[s].author }
        // Valid ballots: cast inside the round's window, choices of this round and not the voter's own.
        var ballots: [(voter: Handle, choices: [SubmissionID])] = []
        let cast = round.ballots
        for b in cast.indices.sorted(by: { cast[$0].voter < cast[$1].voter })
        where cast[b].cast >= round.opened && cast[b].cast < cutoff && context.suspect[cast[b].voter] == nil {
            let voter = cast[b].voter
            let choices = Array(Set(cast[b].choices)).sorted().filter { authors[$0] != nil && $0.author != voter }
            if !choices.isEmpty { ballots.append((voter, choices)) }
        }

        var weighed: [WeightedBallot] = ballots.map { ballot in
            let karma = context.history.karma(of: ballot.voter)
            let joined = context.joined[ballot.voter] ?? cutoff
            let days = Double(joined.seconds(until: cutoff)) / 86_400
            let base = VoteWeight.karmaGate(karma.total) * VoteWeight.ageGate(days: days)
            return WeightedBallot(
                voter: ballot.voter, karma: karma, ageDays: days, base: base, factors: [], weight: base, shares: [])
        }

        applyIdentity(&weighed, context: context)
        applyCohorts(&weighed, choices: Dictionary(uniqueKeysWithValues: ballots.map { ($0.voter, $0.choices) }), context: context)
        applyNewcomerCap(&weighed)

        let groups = context.mutualGroups ?? MutualSupport.groups(in: context.history)
        var scores: [SubmissionID: Double] = [:]
        for s in snippets.indices { scores[snippets[s].id] = 0 }
        for (index, ballot) in ballots.enumerated() {
            let split = weighed[index].weight / Double(ballot.choices.count)
            weighed[index].shares = ballot.choices.map { id in
                let author = id.author
                let record = context.history.record(voter: ballot.voter, author: author)
                let habit = VoteWeight.habitFactor(record)
                let mutual = groups[ballot.voter] != nil && groups[ballot.voter] == groups[author]
                let weight = split * habit * (mutual ? VoteWeight.mutualFactor : 1)
                scores[id, default: 0] += weight
                return Share(id: id, weight: weight, habit: habit, record: record, mutual: mutual)
            }
        }

        let ranked = snippets.indices.sorted { a, b in
            let sa = scores[snippets[a].id] ?? 0, sb = scores[snippets[b].id] ?? 0
            if abs(sa - sb) > 1e-9 { return sa > sb }
            let ha = tieKey(snippets[a], slug: slug, round: round.number)
            let hb = tieKey(snippets[b], slug: slug, round: round.number)
            return ha != hb ? ha < hb : snippets[a].id < snippets[b].id
        }.map { snippets[$0].id }
        let record = TallyRecord(
            method: method, ballots: ballots.count,
            scores: ranked.map { TallyRecord.Score(id: $0, score: Tally.rounded(scores[$0] ?? 0)) })
        return Outcome(record: record, winner: ranked.first, ballots: weighed)
    }

    /// Ties end in a hash of the snippet's text and place, so no handle wins by its spelling.
    static func tieKey(_ submission: Submission, slug: Slug, round: RoundNumber) -> UInt64 {
        NeutralOrder.fnv1a("\(slug)/\(round.folderName)/\(submission.body)")
    }

    /// Handles whose ballots one git identity committed are one person: they share one vote.
    static func applyIdentity(_ weighed: inout [WeightedBallot], context: TallyContext) {
        var members: [String: [Int]] = [:]
        for (i, ballot) in weighed.enumerated() {
            if let identity = context.identities[ballot.voter] { members[identity, default: []].append(i) }
        }
        for group in members.values where group.count > 1 {
            let factor = 1 / Double(group.count)
            for i in group {
                weighed[i].weight *= factor
                weighed[i].factors.append(
                    .init(value: factor, reason: "one of \(group.count) voters committed by the same git identity"))
            }
        }
    }

    /// Accounts created within a day of each other that cast identical ballots count as √n voters:
    /// a cohort of sockpuppets, fresh or aged, weighs little more than one.
    static func applyCohorts(
        _ weighed: inout [WeightedBallot], choices: [Handle: [SubmissionID]], context: TallyContext
    ) {
        var byBallot: [[SubmissionID]: [Int]] = [:]
        for (i, ballot) in weighed.enumerated() {
            byBallot[choices[ballot.voter] ?? [], default: []].append(i)
        }
        for (_, same) in byBallot.sorted(by: { $0.value[0] < $1.value[0] }) where same.count > 1 {
            let sorted = same.sorted {
                (context.joined[weighed[$0].voter] ?? Timestamp(secondsSinceEpoch: 0), $0)
                    < (context.joined[weighed[$1].voter] ?? Timestamp(secondsSinceEpoch: 0), $1)
            }
            // Windows anchored at their first member, not chained: a steady stream of sign-ups
            // a day apart never forms one long cohort.
            var cohorts: [[Int]] = []
            var first: Timestamp? = nil
            for i in sorted {
                let joined = context.joined[weighed[i].voter] ?? Timestamp(secondsSinceEpoch: 0)
                if let first, first.seconds(until: joined) < VoteWeight.cohortWindow {
                    cohorts[cohorts.count - 1].append(i)
                } else {
                    cohorts.append([i])
                    first = joined
                }
            }
            for cohort in cohorts where cohort.count > 1 {
                let factor = 1 / Double(cohort.count).squareRoot()
                for i in cohort {
                    weighed[i].weight *= factor
                    weighed[i].factors.append(
                        .init(value: factor, reason: "one of \(cohort.count) accounts created together that voted alike"))
                }
            }
        }
    }

    /// Newcomers together weigh at most `newcomerShare` of the established voters.
    static func applyNewcomerCap(_ weighed: inout [WeightedBallot]) {
        var newcomers = 0.0, established = 0.0
        for ballot in weighed {
            if VoteWeight.isNewcomer(karma: ballot.karma.total, days: ballot.ageDays) {
                newcomers += ballot.weight
            } else {
                established += ballot.weight
            }
        }
        let cap = established * VoteWeight.newcomerShare
        guard established > 0, newcomers > cap else { return }
        let factor = cap / newcomers
        for i in weighed.indices where VoteWeight.isNewcomer(karma: weighed[i].karma.total, days: weighed[i].ageDays) {
            weighed[i].weight *= factor
            weighed[i].factors.append(.init(value: factor, reason: "newcomers' share of the round capped"))
        }
    }
}

extension VoteWeight {
    /// `3 days before`, `5 hours before`, `just before`.
    static func describe(days: Double) -> String {
        if days >= 2 { return "\(Int(days)) days before" }
        if days * 24 >= 2 { return "\(Int(days * 24)) hours before" }
        return "just before"
    }
}

/// `0.27`, `1`, `0.031`: short and stable, for explanations.
func format(_ value: Double, digits: Int = 2) -> String {
    if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    var rounded = (value * scale).rounded() / scale
    var extra = digits
    while rounded == 0 && value != 0 && extra < 6 {
        extra += 1
        scale *= 10
        rounded = (value * scale).rounded() / scale
    }
    return Tally.format(rounded)
}
