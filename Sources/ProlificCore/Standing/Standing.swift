/// Where every player stands: karma with its breakdown, the counts badges measure, and badges.
public struct Standing: Sendable {
    public struct Counts: Hashable, Sendable {
        public var snippets = 0
        public var wins = 0
        public var projects = 0
        public var ballots = 0
        public var karma = Karma()

        public init(snippets: Int = 0, wins: Int = 0, projects: Int = 0, ballots: Int = 0, karma: Karma = Karma()) {
            (self.snippets, self.wins, self.projects, self.ballots, self.karma) = (snippets, wins, projects, ballots, karma)
        }

        /// Whether everything is zero: a player with no part in any project.
        public var isZero: Bool { self == Counts() }

        /// Adds another part's counts to these.
        public mutating func add(_ other: Counts) {
            snippets += other.snippets
            wins += other.wins
            projects += other.projects
            ballots += other.ballots
            karma += other.karma
        }

        /// Takes a part's counts out of these again (its project changed or went): false, and these
        /// left as they were, if any count would go below zero, as it would for a part never added.
        public mutating func remove(_ other: Counts) -> Bool {
            var left = self, fits = true
            func take(_ count: inout Int, _ part: Int) {
                let (difference, overflow) = count.subtractingReportingOverflow(part)
                if overflow || difference < 0 { fits = false } else { count = difference }
            }
            take(&left.snippets, other.snippets)
            take(&left.wins, other.wins)
            take(&left.projects, other.projects)
            take(&left.ballots, other.ballots)
            take(&left.karma.snippets, other.karma.snippets)
            take(&left.karma.ballots, other.karma.ballots)
            take(&left.karma.wins, other.karma.wins)
            take(&left.karma.projects, other.karma.projects)
            if fits { self = left }
            return fits
        }

        public func count(_ measure: Badge.Measure) -> Int {
            switch measure {
            case .snippets: snippets
            case .wins: wins
            case .projects: projects
            case .ballots: ballots
            case .karma: karma.total
            }
        }
    }

    public private(set) var counts: [Handle: Counts] = [:]
    public let badges: [Badge]

    /// Counts everything in `content`. Karma counts closed rounds only (see `Karma`); badges count
    /// every snippet and ballot, open rounds included, so progress shows at once.
    public init(content: Content, badges: [Badge] = Badge.defaults) {
        // Every count and every karma point is a sum over rounds: the projects are counted in
        // parts on every core, and the parts added up.
        let projects = content.projects
        let size = max(64, (projects.count + 15) / 16)
        let parts = Parallel.map(Array(stride(from: 0, to: projects.count, by: size))) { start in
            Self.counts(of: projects[start..<min(projects.count, start + size)])
        }
        var counts: [Handle: Counts] = parts.first ?? [:]
        for part in parts.dropFirst() {
            for (handle, more) in part { counts[handle, default: Counts()].add(more) }
        }
        self.init(total: counts, players: content.users.keys, badges: badges)
    }

    /// The standings whose counts are `total`, the sum of every project's `part(of:)`, with each
    /// player who has none counted as zero. Every count is a sum over projects, so a build can
    /// keep the sum and each project's part, and after a change take out the parts of the
    /// projects that changed and add their new ones (`StandingCache` in the store does).
    public init(total: [Handle: Counts], players: some Sequence<Handle>, badges: [Badge] = Badge.defaults) {
        self.badges = badges
        var counts = total
        for handle in players where counts[handle] == nil { counts[handle] = Counts() }
        self.counts = counts
    }

    /// One project's part of the counts: each of its players with what they did in it, none of
    /// them all zero. Karma counts only its closed rounds, each on its own.
    public static func part(of project: Project) -> [Handle: Counts] {
        counts(of: CollectionOfOne(project))
    }

    /// The counts and karma of `projects` alone.
    ///
    /// Read in place, by index: `for round in project.rounds` copies each round and each
    /// snippet and ballot in it, retaining every string and list they hold (a quarter of the
    /// standings' time in a large rebuild was `swift_retain`).
    private static func counts<Projects: RandomAccessCollection<Project>>(of projects: Projects) -> [Handle: Counts] {
        var history = VotingHistory()
        var counts: [Handle: Counts] = [:]
        for p in projects.indices {
            let owner = projects[p].owner
            history.recordProject(owner: owner)
            counts[owner, default: Counts()].projects += 1
            for r in projects[p].rounds.indices {
                if !projects[p].rounds[r].isOpen { history.recordKarma(projects[p].rounds[r]) }
                for s in projects[p].rounds[r].submissions.indices {
                    counts[projects[p].rounds[r].submissions[s].author, default: Counts()].snippets += 1
                }
                projects[p].rounds[r].ballotList.forEachStamp { voter, _ in counts[voter, default: Counts()].ballots += 1 }
                if let winner = projects[p].rounds[r].winnerAuthor { counts[winner, default: Counts()].wins += 1 }
            }
        }
        for (handle, karma) in history.karma { counts[handle, default: Counts()].karma = karma }
        return counts
    }

    public func counts(of handle: Handle) -> Counts { counts[handle] ?? Counts() }

    public func badges(of handle: Handle) -> [Badge.Progress] {
        let mine = counts(of: handle)
        return badges.map { $0.progress(count: mine.count($0.measure)) }
    }

    /// Players by karma, highest first; ties by handle.
    public var leaderboard: [(handle: Handle, karma: Karma)] {
        counts.map { ($0.key, $0.value.karma) }.sorted { a, b in
            a.karma.total != b.karma.total ? a.karma.total > b.karma.total : a.handle < b.handle
        }
    }
}
