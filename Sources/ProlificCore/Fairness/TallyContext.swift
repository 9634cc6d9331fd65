/// Everything besides the round itself that the fair tally weighs votes by, as of the round's cutoff.
public struct TallyContext: Sendable {
    /// Closed rounds before the cutoff, and projects started before it.
    public var history: VotingHistory
    /// When each user joined (with git, never earlier than their profile's first commit).
    public var joined: [Handle: Timestamp]
    /// The git identity that committed each voter's ballot in this round, when known.
    public var identities: [Handle: String]
    /// Ballots with a reason not to count them at all (a `cast` later than the commit that added it).
    public var suspect: [Handle: String]
    /// The history's mutual-support groups, when the caller has them at hand (see
    /// `VotingHistory.mutualGroups`); computed from the history otherwise.
    public var mutualGroups: [Handle: Int]?

    public init(
        history: VotingHistory, joined: [Handle: Timestamp], identities: [Handle: String] = [:],
        suspect: [Handle: String] = [:], mutualGroups: [Handle: Int]? = nil
    ) {
        self.mutualGroups = mutualGroups
        self.history = history
        self.joined = joined
        self.identities = identities
        self.suspect = suspect
    }

    /// The moment a round's tally is taken at: its deadline, or its closing if it closed early.
    ///
    /// Using the recorded times, never the clock, makes every tally reproducible from the files.
    public static func cutoff(of round: Round, closingAt now: Timestamp? = nil) -> Timestamp {
        min(round.closes, round.closed ?? now ?? round.closes)
    }
}
