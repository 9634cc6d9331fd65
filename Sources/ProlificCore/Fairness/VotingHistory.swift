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
        /// Rounds in which the voter voted and the author had a snippet (and others voted too).
        public var chances = 0
        /// How many of those the voter approved the author's snippet in.
        public var backs = 0
        /// How many backs the crowd's own rates predict: the sum, over those rounds, of the share
        /// of the other voters who approved the author's snippet.
        public var expected = 0.0
    }

    public private(set) var pairs: [Pair: PairRecord] = [:]
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
        let voters = backed.count
        guard voters > 1 else { return }
        var backers: [Handle: Int] = [:]
        for chosen in backed.values { for author in chosen { backers[author, default: 0] += 1 } }
        let roundAuthors = Set(authors.values)
        for (voter, chosen) in backed {
            for author in roundAuthors where author != voter {
                let mine = chosen.contains(author)
                let others = Double((backers[author] ?? 0) - (mine ? 1 : 0)) / Double(voters - 1)
                var record = pairs[Pair(voter: voter, author: author), default: PairRecord()]
                record.chances += 1
                record.expected += others
                if mine { record.backs += 1 }
                pairs[Pair(voter: voter, author: author)] = record
            }
        }
    }

    public func record(voter: Handle, author: Handle) -> PairRecord {
        pairs[Pair(voter: voter, author: author)] ?? PairRecord()
    }

    public func karma(of handle: Handle) -> Karma { karma[handle] ?? Karma() }
}
