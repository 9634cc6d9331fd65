/// The whole game in time order, for tallying any round against exactly the past it had.
///
/// A round's tally sees the rounds that closed before its cutoff, the projects started before it,
/// and its voters' join times. `replay` tallies every closed round in cutoff order while building
/// one history incrementally, so `check` costs one pass over the content.
public struct TallyTimeline: Sendable {
    struct ClosedRound: Sendable {
        var slug: Slug
        var round: Round
        var closed: Timestamp
    }

    let closedRounds: [ClosedRound]
    let projectStarts: [(created: Timestamp, owner: Handle)]
    /// Join times as the profiles say; `context(for:)` corrects them with git evidence.
    public var joined: [Handle: Timestamp]
    /// Git identities and suspect ballots, by project, round and voter.
    public var evidence: IdentityEvidence

    public init(content: Content, evidence: IdentityEvidence = IdentityEvidence()) {
        var closed: [ClosedRound] = []
        for project in content.projects {
            for round in project.rounds {
                if let time = round.closed { closed.append(ClosedRound(slug: project.slug, round: round, closed: time)) }
            }
        }
        closedRounds = closed.sorted { ($0.closed, $0.slug, $0.round.number) < ($1.closed, $1.slug, $1.round.number) }
        projectStarts = content.projects.map { ($0.created, $0.owner) }.sorted { ($0.created, $0.owner) < ($1.created, $1.owner) }
        var joined: [Handle: Timestamp] = [:]
        for user in content.users.values { joined[user.handle] = user.joined }
        // A removed player's past votes weigh as they did: their profile's `joined` is kept.
        for former in content.config.former where joined[former.handle] == nil { joined[former.handle] = former.joined }
        self.joined = joined
        self.evidence = evidence
    }

    /// One player's join time as `init` gives it in `joined`: their profile's, or a removed
    /// player's kept one; nil for neither.
    public static func profileJoined(of handle: Handle, in content: Content) -> Timestamp? {
        content.users[handle]?.joined ?? content.config.former.first { $0.handle == handle }?.joined
    }

    /// The history as of `cutoff`: rounds closed strictly before it, projects started before it.
    public func history(before cutoff: Timestamp) -> VotingHistory {
        var history = VotingHistory()
        for start in projectStarts where start.created < cutoff { history.recordProject(owner: start.owner) }
        for closed in closedRounds where closed.closed < cutoff { history.record(closed.round) }
        return history
    }

    /// The context of one round: its voters' join times (never earlier than their profile's first
    /// commit), the git identities of its ballots, and ballots cast after the commit that added them.
    public func context(for round: Round, of slug: Slug, history: VotingHistory) -> TallyContext {
        Self.context(for: round, of: slug, history: history, joined: joined, evidence: evidence)
    }

    /// The same, for callers that hold the history and the voters' join times themselves.
    public static func context(
        for round: Round, of slug: Slug, history: VotingHistory, joined profileJoined: [Handle: Timestamp],
        evidence: IdentityEvidence
    ) -> TallyContext {
        let cutoff = TallyContext.cutoff(of: round)
        var joined: [Handle: Timestamp] = [:]
        var identities: [Handle: String] = [:]
        var suspect: [Handle: String] = [:]
        // By index: iterating copied each ballot, retaining its strings and choices.
        for b in round.ballots.indices {
            let voter = round.ballots[b].voter
            var time = profileJoined[voter] ?? cutoff
            if let first = evidence.firstCommit(of: voter, asOf: cutoff), first > time { time = first }
            joined[voter] = time
            if let commit = evidence.ballotCommit(slug, round.number, voter, asOf: cutoff) {
                identities[voter] = commit.identity
                let cast = round.ballots[b].cast
                if cast > commit.time {
                    suspect[voter] = "cast \(cast) is after the commit that added it (\(commit.time))"
                }
            }
        }
        return TallyContext(history: history, joined: joined, identities: identities, suspect: suspect)
    }

    /// Tallies `round` of `slug` as closing at `now`, against the history before its cutoff.
    public func tally(_ round: Round, of slug: Slug, closingAt now: Timestamp) -> FairTally.Outcome {
        var closing = round
        if closing.closed == nil { closing.closed = now }
        let cutoff = TallyContext.cutoff(of: closing)
        return FairTally.count(closing, slug: slug, context: context(for: closing, of: slug, history: history(before: cutoff)))
    }

    /// Re-runs the tally of every closed round, in cutoff order, with its recorded method.
    public func replay() -> [(slug: Slug, round: Round, outcome: Tally.Outcome)] {
        replayExplained().map { ($0.slug, $0.round, $0.outcome) }
    }

    /// One closed round re-tallied: the outcome, and for fair rounds every vote's weight and reasons.
    public struct Replayed: Sendable, Hashable {
        public var slug: Slug
        public var round: Round
        public var outcome: Tally.Outcome
        /// nil for rounds decided by the plain count.
        public var explained: FairTally.Outcome?

        public init(slug: Slug, round: Round, outcome: Tally.Outcome, explained: FairTally.Outcome?) {
            (self.slug, self.round, self.outcome, self.explained) = (slug, round, outcome, explained)
        }
    }

    /// `replay`, keeping the fair tally's explanations (for round pages and audits).
    public func replayExplained() -> [Replayed] {
        replayExplainedRecording().replayed
    }

    /// `replayExplained()`, with the history of the first `kept` closed rounds in the order they
    /// closed (all of them when nil), recorded so, without the projects started: the history
    /// `close` keeps (`HistoryCache`, `HistoryCache.roundsKept(of:now:)`), which the replay has
    /// all but finished recording.
    public func replayExplainedWithHistory(keeping kept: Int? = nil) -> (replayed: [Replayed], history: VotingHistory) {
        let kept = min(max(kept ?? closedRounds.count, 0), closedRounds.count)
        var (replayed, history, recorded, snapshot) = replayExplainedRecording(snapshotAt: kept)
        if let snapshot { return (replayed, snapshot.withoutProjects()) }
        for closed in closedRounds[recorded..<kept] { history.record(closed.round) }
        return (replayed, history.withoutProjects())
    }

    /// The replay, the history it ended with and how many of `closedRounds` that history holds;
    /// with the history as it was when it held the first `snapshotAt` of them, if the replay
    /// went past that (a copy, made only then).
    private func replayExplainedRecording(snapshotAt: Int? = nil)
        -> (replayed: [Replayed], history: VotingHistory, recorded: Int, snapshot: VotingHistory?)
    {
        let targets = closedRounds.sorted {
            (TallyContext.cutoff(of: $0.round), $0.slug, $0.round.number)
                < (TallyContext.cutoff(of: $1.round), $1.slug, $1.round.number)
        }
        var history = VotingHistory()
        // At most one record per ballot and author of each round; usually far fewer pairs.
        let pairs = closedRounds.reduce(0) { $0 + $1.round.ballots.count * $1.round.submissions.count }
        history.reserveCapacity(pairs: min(pairs, 4_000_000), players: joined.count)
        var nextRound = 0, nextProject = 0
        var snapshot: VotingHistory?
        var results: [Replayed] = []
        results.reserveCapacity(targets.count)
        for target in targets {
            let cutoff = TallyContext.cutoff(of: target.round)
            while nextProject < projectStarts.count, projectStarts[nextProject].created < cutoff {
                history.recordProject(owner: projectStarts[nextProject].owner)
                nextProject += 1
            }
            while nextRound < closedRounds.count, closedRounds[nextRound].closed < cutoff {
                if nextRound == snapshotAt { snapshot = history }
                history.record(closedRounds[nextRound].round)
                nextRound += 1
            }
            results.append(replayed(target, against: &history))
        }
        return (results, history, nextRound, snapshot)
    }

    /// One round re-tallied against `history`, the past before its cutoff: with the plain count
    /// when it was recorded so, else with the fair tally and its explanation.
    private func replayed(_ target: ClosedRound, against history: inout VotingHistory) -> Replayed {
        if target.round.tally?.method == Tally.method {
            return Replayed(slug: target.slug, round: target.round, outcome: Tally.count(target.round), explained: nil)
        }
        var context = context(for: target.round, of: target.slug, history: history)
        context.mutualGroups = history.mutualGroups
        let fair = FairTally.count(target.round, slug: target.slug, context: context)
        return Replayed(
            slug: target.slug, round: target.round, outcome: Tally.Outcome(record: fair.record, winner: fair.winner),
            explained: fair)
    }

    /// `replayAdding`'s rule: rounds added to a replay, each given by its cutoff and closing, can
    /// be tallied after the others when no other round's tally saw them: a tally sees the rounds
    /// closed before its cutoff, so each added round must have closed at or after `latest`, the
    /// latest cutoff of the rounds not added. Among themselves, added rounds need no rule: taken
    /// by cutoff, one that closed before a later one's cutoff is in that one's past, and none can
    /// be in an earlier one's (a cutoff is never after its own round's closing).
    ///
    /// It used to ask more: each added round's cutoff after every other round's closing, so that
    /// its past was all the others. A round closed past its deadline has the deadline as cutoff,
    /// so closing two overdue rounds one after the other, with a build between, replayed the
    /// whole game (a large rebuild took 2.89 s instead of 0.96 s), as did two closings at the
    /// same `--now`.
    /// The past of each added round is now recorded as it was (`replayAdding`).
    public static func noOtherTallySaw(_ added: some Sequence<(cutoff: Timestamp, closed: Timestamp)>, cutoffsBefore latest: Timestamp?) -> Bool {
        guard let latest else { return true }
        return added.allSatisfy { latest <= $0.closed }
    }

    /// The replay of the closed rounds `added` names (by `IdentityEvidence.key`), given
    /// `history`, that of every other closed round that closed before the earliest cutoff of the
    /// rounds added (`HistoryCache.history(of:leavingOut:stamps:saved:)`; recorded in the order
    /// they closed, without the projects started: what `HistoryCache` keeps), for a build whose
    /// last replay covered every other round: those results are what a whole replay gives, with
    /// the history of every closed round (a build leaves the history cache to `close`, which reads
    /// the rounds it lacks; tests compare it with a whole replay's). Each added round is tallied
    /// in cutoff order against its own past: the rounds, added or not, that closed before its
    /// cutoff are recorded first, in closing order. nil unless no other round's tally saw an
    /// added one (`noOtherTallySaw`). (A round closed by `close` has its closing as cutoff, or
    /// its deadline when that came first.)
    public func replayAdding(
        _ added: Set<String>, to history: consuming VotingHistory
    ) -> (replayed: [Replayed], history: VotingHistory)? {
        var targets: [ClosedRound] = []
        var latest: Timestamp?
        for closed in closedRounds {
            if added.contains(IdentityEvidence.key(closed.slug, closed.round.number)) {
                targets.append(closed)
            } else {
                let cutoff = TallyContext.cutoff(of: closed.round)
                if latest.map({ $0 < cutoff }) ?? true { latest = cutoff }
            }
        }
        guard targets.count == added.count else { return nil }
        // `targets` is in closing order, as the replay records rounds; tallies go by cutoff.
        let byCutoff = targets.sorted {
            (TallyContext.cutoff(of: $0.round), $0.slug, $0.round.number)
                < (TallyContext.cutoff(of: $1.round), $1.slug, $1.round.number)
        }
        guard let first = byCutoff.first, Self.noOtherTallySaw(targets.lazy.map { (TallyContext.cutoff(of: $0.round), $0.closed) }, cutoffsBefore: latest)
        else { return targets.isEmpty ? ([], history.withoutProjects()) : nil }
        // `history` holds the rounds that closed before the earliest cutoff, none of them added
        // (an added round closes at or after its own cutoff): the rest are recorded in closing
        // order as each tally's cutoff passes them.
        let earliest = TallyContext.cutoff(of: first.round)
        var nextRound = closedRounds.firstIndex { $0.closed >= earliest } ?? closedRounds.count
        // A history of other rounds would have some of them recorded twice.
        guard history.roundsRecorded == nextRound else { return nil }
        var nextProject = 0
        var results: [Replayed] = []
        for target in byCutoff {
            let cutoff = TallyContext.cutoff(of: target.round)
            while nextRound < closedRounds.count, closedRounds[nextRound].closed < cutoff {
                history.record(closedRounds[nextRound].round)
                nextRound += 1
            }
            while nextProject < projectStarts.count, projectStarts[nextProject].created < cutoff {
                history.recordProject(owner: projectStarts[nextProject].owner)
                nextProject += 1
            }
            results.append(replayed(target, against: &history))
        }
        for closed in closedRounds[nextRound...] { history.record(closed.round) }
        return (results, history.withoutProjects())
    }
}

/// What git says about who wrote what, when the content directory is a git repository.
///
/// Evidence is always read as of a round's cutoff — the commits that existed then — so later
/// commits never change a past tally.
public struct IdentityEvidence: Sendable {
    /// A commit that added or changed a file: who made it (the author's email) and when.
    /// Ordered by commit time, then identity: the evidence is a function of which commits
    /// exist, not of the order git walked them in, so commits merged in later take their places.
    public struct Commit: Hashable, Sendable, Comparable {
        public var identity: String
        public var time: Timestamp

        public init(identity: String, time: Timestamp) {
            self.identity = identity
            self.time = time
        }

        public static func < (a: Commit, b: Commit) -> Bool {
            a.time != b.time ? a.time < b.time : a.identity < b.identity
        }
    }

    /// Every commit of each user's profile, in commit order (`Commit`'s).
    public var profileCommits: [Handle: [Commit]]
    /// Every commit of each ballot file, in commit order, by "slug/NNNN" and voter.
    public var ballotCommits: [String: [Handle: [Commit]]]
    /// Identities listed as `maintainers` in prolific.yml.
    public var maintainers: Set<String>
    /// When each identity first committed prolific.yml: a maintainer from then on.
    public var configCommitters: [String: Timestamp]

    public init(
        profileCommits: [Handle: [Commit]] = [:], ballotCommits: [String: [Handle: [Commit]]] = [:],
        maintainers: Set<String> = [], configCommitters: [String: Timestamp] = [:]
    ) {
        self.profileCommits = profileCommits
        self.ballotCommits = ballotCommits
        self.maintainers = maintainers
        self.configCommitters = configCommitters
    }

    public var isEmpty: Bool { profileCommits.isEmpty && ballotCommits.isEmpty }

    public static func key(_ slug: Slug, _ number: RoundNumber) -> String { "\(slug)/\(number.folderName)" }

    /// Puts `commit` into `commits`, kept in commit order and without repeats; nearly always at
    /// the end, as git's log comes oldest first. A list is a set: git may list a commit twice
    /// (`OLD..HEAD` can name a commit OLD reaches when a commit's clock ran ahead of its
    /// children's, and the walk stops before marking it), and the tally can't tell two equal
    /// commits apart anyway.
    public static func insert(_ commit: Commit, into commits: inout [Commit]) {
        var index = commits.endIndex
        while index > commits.startIndex, commit < commits[index - 1] { index -= 1 }
        if index > commits.startIndex, commits[index - 1] == commit { return }
        commits.insert(commit, at: index)
    }

    /// Records a commit of prolific.yml: its committer is a maintainer from their earliest one.
    public mutating func recordConfigCommit(_ commit: Commit) {
        if let since = configCommitters[commit.identity], since <= commit.time { return }
        configCommitters[commit.identity] = commit.time
    }

    /// Maintainers record and merge others' files as part of running the game: what they commit
    /// is not evidence of who a player is.
    func isMaintainer(_ identity: String, at time: Timestamp) -> Bool {
        if maintainers.contains(identity) { return true }
        if let since = configCommitters[identity], since <= time { return true }
        return false
    }

    /// The first commit of a profile, if it existed by `cutoff` and was not a maintainer's.
    func firstCommit(of handle: Handle, asOf cutoff: Timestamp) -> Timestamp? {
        guard let first = profileCommits[handle]?.first, first.time <= cutoff,
            !isMaintainer(first.identity, at: cutoff)
        else { return nil }
        return first.time
    }

    /// The latest commit of a ballot by `cutoff`, unless a maintainer made it.
    func ballotCommit(_ slug: Slug, _ number: RoundNumber, _ voter: Handle, asOf cutoff: Timestamp) -> Commit? {
        guard let commit = ballotCommits[Self.key(slug, number)]?[voter]?.last(where: { $0.time <= cutoff }),
            !isMaintainer(commit.identity, at: cutoff)
        else { return nil }
        return commit
    }
}
