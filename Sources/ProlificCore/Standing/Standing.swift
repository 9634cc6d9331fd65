/// Where every player stands: karma with its breakdown, the counts badges measure, and badges.
public struct Standing: Sendable {
    public struct Counts: Hashable, Sendable {
        public var snippets = 0
        public var wins = 0
        public var projects = 0
        public var ballots = 0
        public var karma = Karma()

        /// Adds another part's counts to these.
        mutating func add(_ other: Counts) {
            snippets += other.snippets
            wins += other.wins
            projects += other.projects
            ballots += other.ballots
            karma += other.karma
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
        self.badges = badges
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
        for handle in content.users.keys where counts[handle] == nil { counts[handle] = Counts() }
        self.counts = counts
    }

    /// The counts and karma of `projects` alone.
    ///
    /// Read in place, by index: `for round in project.rounds` copies each round and each
    /// snippet and ballot in it, retaining every string and list they hold (a quarter of the
    /// standings' time in a large rebuild was `swift_retain`).
    private static func counts(of projects: ArraySlice<Project>) -> [Handle: Counts] {
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
                for b in projects[p].rounds[r].ballots.indices {
                    counts[projects[p].rounds[r].ballots[b].voter, default: Counts()].ballots += 1
                }
                if let winner = projects[p].rounds[r].winningSubmission { counts[winner.author, default: Counts()].wins += 1 }
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
