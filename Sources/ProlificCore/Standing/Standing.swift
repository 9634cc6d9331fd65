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
    private static func counts(of projects: ArraySlice<Project>) -> [Handle: Counts] {
        var history = VotingHistory()
        var counts: [Handle: Counts] = [:]
        for project in projects {
            history.recordProject(owner: project.owner)
            counts[project.owner, default: Counts()].projects += 1
            for round in project.rounds {
                if !round.isOpen { history.recordKarma(round) }
                for submission in round.submissions { counts[submission.author, default: Counts()].snippets += 1 }
                for ballot in round.ballots { counts[ballot.voter, default: Counts()].ballots += 1 }
                if let winner = round.winningSubmission { counts[winner.author, default: Counts()].wins += 1 }
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
