/// What the fair tally knows of the past: every closed round before a moment, reduced to the
/// counts its rules need.
///
/// Built by recording closed rounds in the order they closed, so one value can serve a whole
/// `check` (advance it round by round) or a simulation of thousands of rounds.
public struct VotingHistory: Sendable {
    /// A voter and an author, for habit counts.
    public struct Pair: Hashable, Sendable, Comparable {
        public var voter: Handle
        public var author: Handle

        public init(voter: Handle, author: Handle) {
            self.voter = voter
            self.author = author
        }

        public static func < (a: Pair, b: Pair) -> Bool { (a.voter, a.author) < (b.voter, b.author) }
    }

    /// How a voter treated an author's snippets in the past.
    public struct PairRecord: Hashable, Sendable {
        /// Rounds in which the voter voted and the author had a snippet (and others, without a
        /// habit towards the author, voted too).
        public var chances = 0
        /// How many of those the voter approved the author's snippet in.
        public var backs = 0
        /// How many backs the crowd's own rates predict: the sum, over those rounds, of the share
        /// of the other voters who approved the author's snippet, leaving out voters who already
        /// had a habit towards the author.
        public var expected = 0.0
    }

    public private(set) var pairs: [Pair: PairRecord] = [:]
    /// The pairs whose habit is strong (`VoteWeight.isHabitual`): the mutual-support graph's edges,
    /// kept up to date so a tally never scans every pair.
    public private(set) var habitual: Set<Pair> = [] {
        didSet { mutualGroupsAreCurrent = false }
    }
    private var mutualGroupsAreCurrent = true
    private var cachedMutualGroups: [Handle: Int] = [:]

    /// The mutual-support groups of the current habits, computed once per change of the habits.
    public var mutualGroups: [Handle: Int] {
        mutating get {
            if !mutualGroupsAreCurrent {
                cachedMutualGroups = MutualSupport.groups(in: self)
                mutualGroupsAreCurrent = true
            }
            return cachedMutualGroups
        }
    }
    public private(set) var karma: [Handle: Karma] = [:]
    public private(set) var roundsRecorded = 0

    public init() {}

    /// Counts a project as started by `owner`.
    public mutating func recordProject(owner: Handle) {
        karma[owner, default: Karma()].projects += 1
    }

    /// Adds a closed round: its snippets, its valid ballots and its winner.
    public mutating func record(_ round: Round) {
        roundsRecorded += 1
        let authors = Dictionary(round.submissions.map { ($0.id, $0.author) }, uniquingKeysWith: { a, _ in a })
        for submission in round.submissions { karma[submission.author, default: Karma()].snippets += 1 }
        if let winner = round.winner, let author = authors[winner] { karma[author, default: Karma()].wins += 1 }

        var backed: [Handle: Set<Handle>] = [:]
        for ballot in round.ballots {
            let chosen = Set(ballot.choices.compactMap { authors[$0] }.filter { $0 != ballot.voter })
            guard !chosen.isEmpty, backed[ballot.voter] == nil else { continue }
            backed[ballot.voter] = chosen
            karma[ballot.voter, default: Karma()].ballots += 1
        }
        guard backed.count > 1 else { return }
        // The crowd for an author is the voters without a habit towards them (as of before this
        // round): a group that backs an author together can't raise its own expectation.
        var updates: [(Pair, PairRecord)] = []
        for author in Set(authors.values).sorted() {
            var crowd = 0, crowdBackers = 0
            var habitual: Set<Handle> = []
            for (voter, chosen) in backed where voter != author {
                if VoteWeight.isHabitual(record(voter: voter, author: author)) {
                    habitual.insert(voter)
                } else {
                    crowd += 1
                    if chosen.contains(author) { crowdBackers += 1 }
                }
            }
            for (voter, chosen) in backed where voter != author {
                let mine = chosen.contains(author)
                let inCrowd = !habitual.contains(voter)
                let size = crowd - (inCrowd ? 1 : 0)
                guard size > 0 else { continue }
                let share = Double(crowdBackers - (inCrowd && mine ? 1 : 0)) / Double(size)
                var record = record(voter: voter, author: author)
                record.chances += 1
                record.expected += share
                if mine { record.backs += 1 }
                updates.append((Pair(voter: voter, author: author), record))
            }
        }
        for (pair, record) in updates {
            pairs[pair] = record
            // Touch the set only on a change, so the mutual groups stay cached otherwise.
            let strong = VoteWeight.isHabitual(record)
            if strong != habitual.contains(pair) {
                if strong { habitual.insert(pair) } else { habitual.remove(pair) }
            }
        }
    }

    public func record(voter: Handle, author: Handle) -> PairRecord {
        pairs[Pair(voter: voter, author: author)] ?? PairRecord()
    }

    public func karma(of handle: Handle) -> Karma { karma[handle] ?? Karma() }
}
