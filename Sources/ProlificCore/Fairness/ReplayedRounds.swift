/// Every closed round's replayed tally (`TallyTimeline.replayExplained`), looked up by round.
///
/// A replay a build kept (`ReplayCache`) is held as its bytes and decoded a round at a time, as
/// a page asks for it: a rebuild keeps most round pages, and decoding every round's weighed
/// ballots took longer than the rest of its model. Each round's bytes (`encoded`) are its
/// replay in a canonical form, equal only for equal replays, so a page made of a round's replay
/// is fingerprinted by them without decoding them. A replay just worked out is held whole, with
/// its bytes when it was saved.
public struct ReplayedRounds: Sendable {
    /// Decodes the fair tally's explanation of one round from its bytes (asked only of rounds
    /// that have one): nil for bytes that don't decode, which the cache's checksum rules out.
    public typealias Decoder = @Sendable (_ bytes: [UInt8], _ range: Range<Int>) -> FairTally.Outcome?

    /// Each round's place, by its project and number: spelt as `IdentityEvidence.key` strings,
    /// 18,000 of them were formatted at every large rebuild, and one more at each look-up.
    private var index: [Place: Int] = [:]
    /// Each round's replay, in `index` order; empty when they are decoded as asked for.
    private var outcomes: [FairTally.Outcome?] = []
    /// Every round's bytes, one after the other, and where each one is: empty when unknown.
    /// Rounds from `laterFrom` on are in `later`: those a build added to a saved replay, whose
    /// bytes stay where the cache's file was read into (`init(rounds:bytes:ranges:later:decode:)`).
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>] = []
    private var later: [UInt8] = []
    private var laterFrom = Int.max

    /// What stands for one project's rounds in the replay, all of them together: a digest of
    /// each round's number, whether it has an explanation and its bytes, in round order, and
    /// how many rounds that is. Equal identities mean equal replays of those rounds.
    public struct Identity: Sendable, Equatable {
        public var digest: [UInt8]
        public var rounds: Int

        public init(digest: [UInt8], rounds: Int) { (self.digest, self.rounds) = (digest, rounds) }
    }

    /// Each project's `Identity`, by slug, worked out where the replay was saved (`ReplayCache`)
    /// and kept with it: hashing the 19 MB of a large replay at every rebuild, to tell each
    /// project's round pages as they were, was 2 % of a rebuild after a ballot. Empty when the
    /// replay has no bytes.
    public var identities: [Slug: Identity] = [:]
    /// Whether each kept round has an explanation, known without decoding it.
    private var isExplained: [Bool] = []
    private var decode: Decoder?

    /// `replayed` as it was worked out; with `encoded`, each result's bytes in `bytes`.
    public init(_ replayed: [TallyTimeline.Replayed], bytes: [UInt8] = [], ranges: [Range<Int>] = []) {
        for (position, result) in replayed.enumerated() {
            index[Self.key(result.slug, result.round.number)] = position
        }
        outcomes = replayed.map(\.explained)
        if ranges.count == replayed.count { (self.bytes, self.ranges) = (bytes, ranges) }
    }

    /// Rounds kept as `bytes`: `rounds[i]` at `ranges[i]`, decoded by `decode` when asked for.
    public init(
        rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)], bytes: [UInt8], ranges: [Range<Int>],
        decode: @escaping Decoder
    ) {
        precondition(rounds.count == ranges.count, "one range per round")
        index.reserveCapacity(rounds.count)
        for (position, round) in rounds.enumerated() { index[Self.key(round.slug, round.number)] = position }
        isExplained = rounds.map(\.isExplained)
        (self.bytes, self.ranges, self.decode) = (bytes, ranges, decode)
    }

    /// Rounds kept as `bytes`, followed by rounds kept as `later.bytes`: `rounds[i]` at
    /// `ranges[i]` of the first, then at `later.ranges[i - ranges.count]` of the second. A
    /// replay a build added rounds to is the saved one's bytes as they were read and the new
    /// rounds' own, not a copy of them all (19 MB on large, on the model stage's path).
    public init(
        rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)], bytes: [UInt8], ranges: [Range<Int>],
        later: (bytes: [UInt8], ranges: [Range<Int>]), decode: @escaping Decoder
    ) {
        self.init(rounds: rounds, bytes: bytes, ranges: ranges + later.ranges, decode: decode)
        (self.later, laterFrom) = (later.bytes, ranges.count)
    }

    /// How many rounds were replayed.
    public var count: Int { index.count }

    /// The fair tally's explanation of round `number` of `slug`: nil for a round decided by the
    /// plain count or for a round not replayed (open, or unknown).
    public func explained(_ slug: Slug, _ number: RoundNumber) -> FairTally.Outcome? {
        guard let position = index[Self.key(slug, number)] else { return nil }
        if !outcomes.isEmpty { return outcomes[position] }
        return isExplained[position] ? decode?(position < laterFrom ? bytes : later, ranges[position]) : nil
    }

    /// Whether round `number` of `slug` has an explanation (it was counted by the fair tally),
    /// without decoding it.
    public func hasExplanation(_ slug: Slug, _ number: RoundNumber) -> Bool {
        guard let position = index[Self.key(slug, number)] else { return false }
        return outcomes.isEmpty ? isExplained[position] : outcomes[position] != nil
    }

    /// The bytes of round `number` of `slug`'s replay, when this replay has them: equal bytes
    /// mean equal replays.
    public func encoded(_ slug: Slug, _ number: RoundNumber) -> ArraySlice<UInt8>? {
        guard !ranges.isEmpty, let position = index[Self.key(slug, number)] else { return nil }
        return position < laterFrom ? bytes[ranges[position]] : later[ranges[position]]
    }

    private static func key(_ slug: Slug, _ number: RoundNumber) -> Place { Place(slug: slug, number: number) }

    /// A round of a project, by its project and number: what the index, and a saved replay's
    /// rounds (`ReplayCache`), are looked up by.
    public struct Place: Hashable, Sendable {
        public let slug: Slug
        public let number: RoundNumber

        public init(slug: Slug, number: RoundNumber) { (self.slug, self.number) = (slug, number) }
    }
}
