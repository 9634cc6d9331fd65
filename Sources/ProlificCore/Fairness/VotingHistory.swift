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
    ///
    /// The counts are kept in 32 bits (a count of rounds), so a record takes 16 bytes rather
    /// than 24: a large game's history holds 850,000 of them in one table, every page of it new
    /// memory (docs/performance.md, "Fresh memory").
    public struct PairRecord: Hashable, Sendable {
        private var chanceCount: Int32 = 0
        private var backCount: Int32 = 0
        /// Rounds in which the voter voted and the author had a snippet (and others, without a
        /// habit towards the author, voted too).
        public var chances: Int {
            get { Int(chanceCount) }
            set { chanceCount = Int32(clamping: newValue) }
        }
        /// How many of those the voter approved the author's snippet in.
        public var backs: Int {
            get { Int(backCount) }
            set { backCount = Int32(clamping: newValue) }
        }
        /// How many backs the crowd's own rates predict: the sum, over those rounds, of the share
        /// of the other voters who approved the author's snippet, leaving out voters who already
        /// had a habit towards the author.
        public var expected = 0.0

        public init(chances: Int = 0, backs: Int = 0, expected: Double = 0) {
            (chanceCount, backCount) = (Int32(clamping: chances), Int32(clamping: backs))
            self.expected = expected
        }
    }

    // Handles are interned to small numbers and pairs keyed by one 64-bit number: a history of
    // hundreds of thousands of ballots is updated and looked up without hashing strings.
    private var ids: [Handle: Int32] = [:]
    private var handles: [Handle] = []
    private var records = PairTable()
    private var karmaByID: [Karma] = []
    private var strong: Set<UInt64> = [] {
        didSet { mutualGroupsAreCurrent = false }
    }
    private var mutualGroupsAreCurrent = true
    private var cachedMutualGroups: [Handle: Int] = [:]
    public private(set) var roundsRecorded = 0

    public init() {}

    /// Every voter–author pair with a record.
    public var pairs: [Pair: PairRecord] {
        var pairs: [Pair: PairRecord] = [:]
        records.forEach { pairs[pair(of: $0)] = $1 }
        return pairs
    }

    /// The pairs whose habit is strong (`VoteWeight.isHabitual`): the mutual-support graph's edges,
    /// kept up to date so a tally never scans every pair.
    public var habitual: Set<Pair> { Set(strong.map(pair(of:))) }

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

    /// Every player's karma so far.
    public var karma: [Handle: Karma] {
        var result: [Handle: Karma] = [:]
        for (i, k) in karmaByID.enumerated() where k != Karma() { result[handles[i]] = k }
        return result
    }

    private mutating func intern(_ handle: Handle) -> Int32 {
        if let id = ids[handle] { return id }
        let id = Int32(handles.count)
        ids[handle] = id
        handles.append(handle)
        karmaByID.append(Karma())
        return id
    }

    /// Up to this many snippets or ballots, a round's are looked up in a list searched in order.
    private static let shortList = 16

    private static func key(_ voter: Int32, _ author: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: voter)) << 32 | UInt64(UInt32(bitPattern: author))
    }

    private func pair(of key: UInt64) -> Pair {
        Pair(voter: handles[Int(key >> 32)], author: handles[Int(key & 0xFFFF_FFFF)])
    }

    /// Makes room for about `pairs` voter–author records and `players` players, so a replay of
    /// a whole game doesn't grow its tables again and again (each growth rehashes every record).
    public mutating func reserveCapacity(pairs: Int, players: Int) {
        records.reserveCapacity(pairs)
        ids.reserveCapacity(players)
        handles.reserveCapacity(players)
        karmaByID.reserveCapacity(players)
    }

    /// This history without the projects it counted: the rounds alone, as `close` keeps them
    /// (it adds the projects started before each cutoff itself).
    public func withoutProjects() -> VotingHistory {
        var rounds = self
        for id in rounds.karmaByID.indices { rounds.karmaByID[id].projects = 0 }
        return rounds
    }

    /// Counts a project as started by `owner`.
    public mutating func recordProject(owner: Handle) {
        karmaByID[Int(intern(owner))].projects += 1
    }

    /// Adds a closed round: its snippets, its valid ballots and its winner. Snippets hidden when
    /// it closed are left out, as its tally left them out. All of it is in the round's files,
    /// which the store's history cache (and the past `close` hands to a build) tells apart by
    /// the stamps of its round.md and of its two folders.
    public mutating func record(_ round: Round) {
        record(round, habits: true)
    }

    /// Adds a closed round to the karma only, leaving out the voter–author records: what
    /// standings need, at a fraction of the cost (the records of a large game are a table of
    /// nearly a million pairs). Such a history must not weigh votes.
    public mutating func recordKarma(_ round: Round) {
        record(round, habits: false)
    }

    private mutating func record(_ round: Round, habits: Bool) {
        let round = Moderation.counted(round)
        roundsRecorded += 1
        // Snippets and ballots are read in place, by index: copying each out of its array
        // retained every string and list it holds, for every round of a replay. A round has a
        // handful of snippets and ballots, so they are looked up in short lists; hash tables
        // only above `Self.shortList` (a ballot may name every snippet of a big round).
        var snippetIDs: [SubmissionID] = [], authors: [Int32] = []
        snippetIDs.reserveCapacity(round.submissions.count)
        authors.reserveCapacity(round.submissions.count)
        var authorByID: [SubmissionID: Int32] = [:]
        let manySnippets = round.submissions.count > Self.shortList
        for s in round.submissions.indices {
            let snippet = round.submissions[s].id
            if manySnippets ? authorByID[snippet] != nil : snippetIDs.contains(snippet) { continue }
            let id = intern(round.submissions[s].author)
            snippetIDs.append(snippet)
            authors.append(id)
            if manySnippets { authorByID[snippet] = id }
            karmaByID[Int(id)].snippets += 1
        }
        func author(of snippet: SubmissionID) -> Int32? {
            manySnippets ? authorByID[snippet] : snippetIDs.firstIndex(of: snippet).map { authors[$0] }
        }
        if let winner = round.winner, let author = author(of: winner) { karmaByID[Int(author)].wins += 1 }

        // Each voter's first counted ballot counts.
        var seenList: [Int32] = [], seenSet: Set<Int32> = []
        let manyBallots = round.ballots.count > Self.shortList
        func isFirst(_ voter: Int32) -> Bool {
            if manyBallots { return seenSet.insert(voter).inserted }
            if seenList.contains(voter) { return false }
            seenList.append(voter)
            return true
        }
        guard habits else {
            // Karma only: a ballot counts if it backs someone else's snippet, whatever it backs.
            for b in round.ballots.indices {
                let voter = intern(round.ballots[b].voter)
                guard round.ballots[b].choices.contains(where: { author(of: $0).map { $0 != voter } ?? false }),
                    isFirst(voter)
                else { continue }
                karmaByID[Int(voter)].ballots += 1
            }
            return
        }
        // Each ballot's authors other than the voter, repeats left in: only `contains` asks.
        var backed: [(voter: Int32, chosen: [Int32])] = []
        backed.reserveCapacity(round.ballots.count)
        for b in round.ballots.indices {
            let voter = intern(round.ballots[b].voter)
            let chosen = round.ballots[b].choices.compactMap { author(of: $0) }.filter { $0 != voter }
            guard !chosen.isEmpty, isFirst(voter) else { continue }
            backed.append((voter, chosen))
            karmaByID[Int(voter)].ballots += 1
        }
        guard backed.count > 1 else { return }
        // The crowd for an author is the voters without a habit towards them (as of before this
        // round): a group that backs an author together can't raise its own expectation.
        var updates: [(UInt64, PairRecord)] = []
        var distinctAuthors: [Int32] = []
        for author in authors.sorted() where distinctAuthors.last != author { distinctAuthors.append(author) }
        // Whether the voter of `backed[i]` has a habit towards the author at hand (voters are
        // distinct in `backed`), set for every ballot the author's two passes look at.
        var habitual = [Bool](repeating: false, count: backed.count)
        for author in distinctAuthors {
            var crowd = 0, crowdBackers = 0
            for i in backed.indices where backed[i].voter != author {
                habitual[i] = strong.contains(Self.key(backed[i].voter, author))
                if !habitual[i] {
                    crowd += 1
                    if backed[i].chosen.contains(author) { crowdBackers += 1 }
                }
            }
            for i in backed.indices where backed[i].voter != author {
                let mine = backed[i].chosen.contains(author)
                let inCrowd = !habitual[i]
                let size = crowd - (inCrowd ? 1 : 0)
                guard size > 0 else { continue }
                let share = Double(crowdBackers - (inCrowd && mine ? 1 : 0)) / Double(size)
                let key = Self.key(backed[i].voter, author)
                var record = records[key] ?? PairRecord()
                record.chances += 1
                record.expected += share
                if mine { record.backs += 1 }
                updates.append((key, record))
            }
        }
        for (key, record) in updates {
            records[key] = record
            // Touch the set only on a change, so the mutual groups stay cached otherwise.
            let isStrong = VoteWeight.isHabitual(record)
            if isStrong != strong.contains(key) {
                if isStrong { strong.insert(key) } else { strong.remove(key) }
            }
        }
    }

    public func record(voter: Handle, author: Handle) -> PairRecord {
        guard let v = ids[voter], let a = ids[author] else { return PairRecord() }
        return records[Self.key(v, a)] ?? PairRecord()
    }

    public func karma(of handle: Handle) -> Karma {
        guard let id = ids[handle] else { return Karma() }
        return karmaByID[Int(id)]
    }
}

extension VotingHistory {
    /// The whole state as plain values, for a derived cache on disk.
    public struct Snapshot: Sendable, Equatable {
        public var handles: [Handle]
        /// Pair key (voter id << 32 | author id), chances, backs, expected.
        public var records: [(key: UInt64, chances: Int, backs: Int, expected: Double)]
        public var karma: [Karma]
        public var strong: [UInt64]
        public var roundsRecorded: Int

        public init(
            handles: [Handle], records: [(key: UInt64, chances: Int, backs: Int, expected: Double)], karma: [Karma],
            strong: [UInt64], roundsRecorded: Int
        ) {
            self.handles = handles
            self.records = records
            self.karma = karma
            self.strong = strong
            self.roundsRecorded = roundsRecorded
        }

        public static func == (a: Snapshot, b: Snapshot) -> Bool {
            func sorted(_ s: Snapshot) -> [(UInt64, Int, Int, Double)] {
                s.records.sorted { $0.key < $1.key }.map { ($0.key, $0.chances, $0.backs, $0.expected) }
            }
            return a.handles == b.handles && a.karma == b.karma && a.strong == b.strong
                && a.roundsRecorded == b.roundsRecorded && sorted(a).elementsEqual(sorted(b)) { $0 == $1 }
        }
    }

    /// The state as plain values (records in no particular order: a cache needs no canonical form).
    public var snapshot: Snapshot {
        var whole = snapshotLeavingOutRecords
        whole.records.reserveCapacity(records.count)
        records.forEach { whole.records.append(($0, $1.chances, $1.backs, $1.expected)) }
        return whole
    }

    /// `snapshot` with no records: a cache writer takes those one at a time from `forEachRecord`
    /// rather than copied into an array first (850,000 records, 27 MB of fresh memory, on the
    /// large benchmark).
    public var snapshotLeavingOutRecords: Snapshot {
        Snapshot(handles: handles, records: [], karma: karmaByID, strong: strong.sorted(), roundsRecorded: roundsRecorded)
    }

    /// How many records `forEachRecord` hands over.
    public var recordCount: Int { records.count }

    /// Each record as `snapshot` lists it, in the same (no particular) order.
    public func forEachRecord(_ body: (_ key: UInt64, _ chances: Int, _ backs: Int, _ expected: Double) -> Void) {
        records.forEach { body($0, $1.chances, $1.backs, $1.expected) }
    }

    /// Restores a state; nil if the snapshot is inconsistent (ids out of range, duplicate handles).
    public init?(snapshot: Snapshot) {
        self.init(snapshot: snapshot, recordCount: snapshot.records.count) { add in
            snapshot.records.allSatisfy { add($0.key, $0.chances, $0.backs, $0.expected) }
        }
    }

    /// Restores a state whose records (`snapshot`'s own are left out) come one at a time:
    /// `feed` hands each of about `recordCount` to `add`, stops when `add` returns false (a
    /// key out of range), and returns whether it handed over all it had. A cache reader takes
    /// them straight from the file's bytes: gathered into a snapshot first, the large benchmark's
    /// 850,000 records were 27 MB of fresh memory (a `close` took 30,500 page faults, 24,200
    /// since).
    public init?(
        snapshot: Snapshot, recordCount: Int,
        records feed: (_ add: (_ key: UInt64, _ chances: Int, _ backs: Int, _ expected: Double) -> Bool) -> Bool
    ) {
        guard snapshot.karma.count == snapshot.handles.count, Set(snapshot.handles).count == snapshot.handles.count
        else { return nil }
        self.init()
        handles = snapshot.handles
        for (i, handle) in handles.enumerated() { ids[handle] = Int32(i) }
        karmaByID = snapshot.karma
        let count = UInt64(handles.count)
        // Room for the records said to come, up to 4 million (the large benchmark has 850,000):
        // a count read from a file is not allocated for before that many distinct records came.
        var table = PairTable(minimumCapacity: min(recordCount, 1 << 22))
        func isPair(_ key: UInt64) -> Bool { key >> 32 < count && key & 0xFFFF_FFFF < count }
        let whole = feed { key, chances, backs, expected in
            guard isPair(key) else { return false }
            table[key] = PairRecord(chances: chances, backs: backs, expected: expected)
            return true
        }
        guard whole else { return nil }
        self.records = table
        guard snapshot.strong.allSatisfy({ isPair($0) && self.records[$0] != nil }) else { return nil }
        strong = Set(snapshot.strong)
        roundsRecorded = snapshot.roundsRecorded
        mutualGroupsAreCurrent = strong.isEmpty
    }
}
