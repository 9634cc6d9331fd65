/// The rules that set how much one ballot counts, each a small function with a plain-words reason.
///
/// A vote's weight is its voter's base (a gate on karma and account age), times the factors of
/// any group the voter belongs to, split equally over the snippets the ballot names, and each
/// share damped by the voter's habits towards that snippet's author.
public enum VoteWeight {
    /// Karma at which the gate reaches about 63%; by 20 it is over 90%. A brand-new account has 5%.
    static let karmaScale = 8.0
    static let karmaFloor = 0.05
    /// Days until an account counts fully; a brand-new account counts 10%.
    static let fullAgeDays = 14.0
    static let ageFloor = 0.1

    /// "Votes of users without much karma are worth very little": a saturating gate, so that
    /// established voters count about equally and karma farming buys nothing past the gate.
    public static func karmaGate(_ karma: Int) -> Double {
        max(karmaFloor, 1 - exp(-Double(karma) / karmaScale))
    }

    public static func ageGate(days: Double) -> Double {
        min(1, max(ageFloor, days / fullAgeDays))
    }

    /// A newcomer: younger than `fullAgeDays`, or with less karma than one snippet and a few ballots.
    public static func isNewcomer(karma: Int, days: Double) -> Bool {
        days < fullAgeDays || karma < 5
    }

    /// Habits are judged only once a voter has backed an author this often.
    static let habitMinimumBacks = 2
    /// Backs beyond the crowd's expectation that pass as taste, not habit.
    static let habitSlack = 1.0

    /// A voter who backs an author much more often than the crowd's own rates predict is damped,
    /// smoothly: `((expected + slack) / backs)²`. Backing a writer the crowd also backs is not a habit.
    public static func habitFactor(_ record: VotingHistory.PairRecord) -> Double {
        guard record.backs >= habitMinimumBacks else { return 1 }
        let allowed = record.expected + habitSlack
        guard Double(record.backs) > allowed else { return 1 }
        let ratio = allowed / Double(record.backs)
        return ratio * ratio
    }

    /// A habit strong enough to make an edge of the mutual-support graph.
    static func isHabitual(_ record: VotingHistory.PairRecord) -> Bool {
        habitFactor(record) <= 0.5
    }

    /// Votes inside a group of users who habitually back each other, directly or around a cycle.
    public static let mutualFactor = 0.1

    /// Newcomers' total weight in a round is at most this share of the established voters' weight.
    public static let newcomerShare = 0.25

    /// Accounts that joined within this many seconds of each other and vote alike form a cohort.
    public static let cohortWindow: Int64 = 86_400
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
