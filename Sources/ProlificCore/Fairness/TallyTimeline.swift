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
    /// Join times, possibly corrected by git evidence.
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
        for (handle, firstCommit) in evidence.firstCommits {
            if let claimed = joined[handle], claimed < firstCommit { joined[handle] = firstCommit }
        }
        self.joined = joined
        self.evidence = evidence
    }

    /// The history as of `cutoff`: rounds closed strictly before it, projects started before it.
    public func history(before cutoff: Timestamp) -> VotingHistory {
        var history = VotingHistory()
        for start in projectStarts where start.created < cutoff { history.recordProject(owner: start.owner) }
        for closed in closedRounds where closed.closed < cutoff { history.record(closed.round) }
        return history
    }

    public func context(for round: Round, of slug: Slug, history: VotingHistory) -> TallyContext {
        TallyContext(
            history: history, joined: joined, identities: evidence.identities(slug, round.number),
            suspect: evidence.suspects(in: round, of: slug))
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
        let targets = closedRounds.sorted {
            (TallyContext.cutoff(of: $0.round), $0.slug, $0.round.number)
                < (TallyContext.cutoff(of: $1.round), $1.slug, $1.round.number)
        }
        var history = VotingHistory()
        var nextRound = 0, nextProject = 0
        var results: [(Slug, Round, Tally.Outcome)] = []
        for target in targets {
            let cutoff = TallyContext.cutoff(of: target.round)
            while nextProject < projectStarts.count, projectStarts[nextProject].created < cutoff {
                history.recordProject(owner: projectStarts[nextProject].owner)
                nextProject += 1
            }
            while nextRound < closedRounds.count, closedRounds[nextRound].closed < cutoff {
                history.record(closedRounds[nextRound].round)
                nextRound += 1
            }
            let outcome: Tally.Outcome
            if target.round.tally?.method == Tally.method {
                outcome = Tally.count(target.round)
            } else {
                let fair = FairTally.count(
                    target.round, slug: target.slug, context: context(for: target.round, of: target.slug, history: history))
                outcome = Tally.Outcome(record: fair.record, winner: fair.winner)
            }
            results.append((target.slug, target.round, outcome))
        }
        return results
    }
}

/// What git says about who wrote what, when the content directory is a git repository.
public struct IdentityEvidence: Sendable {
    /// A commit that added or changed a file: who made it (the author's email) and when.
    public struct Commit: Hashable, Sendable {
        public var identity: String
        public var time: Timestamp

        public init(identity: String, time: Timestamp) {
            self.identity = identity
            self.time = time
        }
    }

    /// The first commit time of each user's profile: `joined` can't be earlier than it.
    public var firstCommits: [Handle: Timestamp]
    /// The last commit of each ballot file, by "slug/NNNN" and voter.
    public var ballotCommits: [String: [Handle: Commit]]

    public init(firstCommits: [Handle: Timestamp] = [:], ballotCommits: [String: [Handle: Commit]] = [:]) {
        self.firstCommits = firstCommits
        self.ballotCommits = ballotCommits
    }

    public var isEmpty: Bool { firstCommits.isEmpty && ballotCommits.isEmpty }

    public static func key(_ slug: Slug, _ number: RoundNumber) -> String { "\(slug)/\(number.folderName)" }

    func identities(_ slug: Slug, _ number: RoundNumber) -> [Handle: String] {
        (ballotCommits[Self.key(slug, number)] ?? [:]).mapValues(\.identity)
    }

    /// Ballots whose `cast` is later than the commit that added them: the time was made up.
    func suspects(in round: Round, of slug: Slug) -> [Handle: String] {
        guard let commits = ballotCommits[Self.key(slug, round.number)] else { return [:] }
        var suspects: [Handle: String] = [:]
        for ballot in round.ballots {
            if let commit = commits[ballot.voter], ballot.cast > commit.time {
                suspects[ballot.voter] = "cast \(ballot.cast) is after the commit that added it (\(commit.time))"
            }
        }
        return suspects
    }
}
