import ProlificCore

/// The binary form of a replay (`TallyTimeline.Replayed`, without its rounds) for `ReplayCache`:
/// numbers as varints, scores and weights as their exact bits, so a decoded replay renders the
/// same bytes as the one that was encoded. Tallies and ids are written as `ProjectCodec` writes
/// them (`BinaryContentParts`).
enum ReplayCodec {
    /// One round of the index: which round, whether it has an explanation, how long its bytes are.
    typealias Entry = (slug: Slug, number: RoundNumber, isExplained: Bool, length: Int)

    /// Writes `replayed` as an index (each round's slug, number, whether it has an explanation
    /// and the length of its bytes) followed by each round's bytes (`body`), and returns where
    /// each round's bytes are in `w.bytes`: a reader finds any one round without reading the
    /// others. `bound` is `bodiesBound(replayed)`, which the caller sizes `w` by too.
    static func encode(_ replayed: [TallyTimeline.Replayed], bound: Int, into w: inout BinaryWriter) -> [Range<Int>] {
        var bodies = BinaryWriter(capacity: bound)
        let entries = bodies.appending(replayed)
        assert(bodies.bytes.count <= bound, "ReplayCodec.bodiesBound counted too few bytes")
        return write(entries, bodies: bodies.bytes[...], into: &w)
    }

    /// The index of `entries`, then `bodies` (their bytes, one after the other, as `body` wrote
    /// them); where each round's bytes are in `w.bytes`.
    static func write(_ entries: [Entry], bodies: ArraySlice<UInt8>, into w: inout BinaryWriter) -> [Range<Int>] {
        w.varint(UInt64(entries.count))
        for entry in entries {
            w.text(entry.slug.rawValue)
            w.varint(UInt64(entry.number.value))
            w.flag(entry.isExplained)
            w.varint(UInt64(entry.length))
        }
        let start = w.bytes.count
        w.raw(bodies)
        return ranges(entries, from: start)
    }

    /// Where each entry's bytes are among bodies written one after the other from `start`.
    static func ranges(_ entries: [Entry], from start: Int = 0) -> [Range<Int>] {
        var start = start
        return entries.map { entry in
            defer { start += entry.length }
            return start..<(start + entry.length)
        }
    }

    /// The index `encode` wrote: each round it names and where its bytes are. nil when it is
    /// malformed or names a round `isClosed` denies, or when the bytes it
    /// counts don't end exactly `trailer` bytes before the end.
    static func index(
        from r: inout BinaryReader, trailer: Int, isClosed: (Slug, RoundNumber) -> Bool
    ) -> (rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)], ranges: [Range<Int>])? {
        guard let count = r.shortCount(minimumSize: 4) else { return nil }
        var rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)] = []
        var lengths: [Int] = []
        // Room for what the file says, within reason: its counts are checked as they are read.
        rounds.reserveCapacity(min(count, 1 << 16))
        lengths.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<count {
            guard let slug = r.text().flatMap(Slug.init), let n = r.varint(), n <= UInt64(Int.max),
                let number = RoundNumber(Int(n)), isClosed(slug, number), let isExplained = r.flag(), let length = r.varint(),
                length <= UInt64(r.remaining)
            else { return nil }
            rounds.append((slug, number, isExplained))
            lengths.append(Int(length))
        }
        var start = r.position
        let ranges = lengths.map { length in
            defer { start += length }
            return start..<(start + length)
        }
        guard start + trailer == r.position + r.remaining else { return nil }
        return (rounds, ranges)
    }

    /// At least as many bytes as `body` writes for all of `replayed` (every varint counted at
    /// its longest), so the buffer that takes them never grows: grown by doubling, it touched
    /// twice the 19 MB of the large benchmark's replay in fresh memory, which is dear on this
    /// machine (docs/performance-log.md). Reserved room that is never written costs no memory.
    static func bodiesBound(_ replayed: [TallyTimeline.Replayed]) -> Int {
        let number = 10
        func id(_ id: SubmissionID) -> Int { 2 * number + id.author.rawValue.utf8.count }
        var total = 0
        for result in replayed {
            guard let explained = result.explained else { continue }
            let record = explained.record
            total += 4 * number + record.method.utf8.count + 1 + (explained.winner.map(id) ?? 0)
            for score in record.scores { total += id(score.id) + number }
            for ballot in explained.ballots {
                total += 9 * number + 4 * 8 + ballot.voter.rawValue.utf8.count
                for factor in ballot.factors { total += number + 8 + factor.reason.utf8.count }
                for share in ballot.shares { total += id(share.id) + 2 * number + 3 * 8 + 1 }
            }
        }
        return total
    }

    /// What pages show of one round's replay, the fair tally's explanation (without the slug and
    /// number, which the index holds): nothing for a round decided by the plain count.
    static func body(_ result: TallyTimeline.Replayed, into w: inout BinaryWriter) {
        guard let explained = result.explained else { return }
        encode(explained.record, explained.winner, &w)
        w.varint(UInt64(explained.ballots.count))
        for ballot in explained.ballots { encode(ballot, &w) }
    }

    /// The fair tally's explanation in one round's bytes (`body`): nil when the bytes are
    /// malformed or don't end where the range does.
    static func explained(from r: inout BinaryReader) -> FairTally.Outcome? {
        guard let (record, winner) = outcome(&r),
            let ballotCount = r.shortCount(minimumSize: 40)
        else { return nil }
        var ballots: [FairTally.WeightedBallot] = []
        ballots.reserveCapacity(ballotCount)
        for _ in 0..<ballotCount {
            guard let ballot = weightedBallot(&r) else { return nil }
            ballots.append(ballot)
        }
        guard r.isAtEnd else { return nil }
        return FairTally.Outcome(record: record, winner: winner, ballots: ballots)
    }

    // MARK: Parts

    private static func encode(_ record: TallyRecord, _ winner: SubmissionID?, _ w: inout BinaryWriter) {
        w.tallyRecord(record)
        w.optional(winner) { $0.submissionID($1) }
    }

    private static func outcome(_ r: inout BinaryReader) -> (TallyRecord, SubmissionID?)? {
        guard let record = r.tallyRecord(), let winner = r.optional({ $0.submissionID() }) else { return nil }
        return (record, winner)
    }

    private static func encode(_ ballot: FairTally.WeightedBallot, _ w: inout BinaryWriter) {
        w.text(ballot.voter.rawValue)
        for value in [ballot.karma.snippets, ballot.karma.ballots, ballot.karma.wins, ballot.karma.projects] {
            w.varint(UInt64(value))
        }
        w.double(ballot.ageDays)
        w.double(ballot.base)
        w.varint(UInt64(ballot.factors.count))
        for factor in ballot.factors {
            w.double(factor.value)
            w.text(factor.reason)
        }
        w.double(ballot.weight)
        w.varint(UInt64(ballot.shares.count))
        for share in ballot.shares {
            w.submissionID(share.id)
            w.double(share.weight)
            w.double(share.habit)
            w.varint(UInt64(share.record.chances))
            w.varint(UInt64(share.record.backs))
            w.double(share.record.expected)
            w.flag(share.mutual)
        }
    }

    private static func weightedBallot(_ r: inout BinaryReader) -> FairTally.WeightedBallot? {
        guard let voter = r.text().flatMap(Handle.init), let karma = karma(&r), let ageDays = r.double(),
            let base = r.double(), let factorCount = r.shortCount(minimumSize: 9)
        else { return nil }
        var factors: [FairTally.WeightedBallot.Factor] = []
        for _ in 0..<factorCount {
            guard let value = r.double(), let reason = r.text() else { return nil }
            factors.append(.init(value: value, reason: reason))
        }
        guard let weight = r.double(), let shareCount = r.shortCount(minimumSize: 30) else { return nil }
        var shares: [FairTally.Share] = []
        shares.reserveCapacity(shareCount)
        for _ in 0..<shareCount {
            guard let id = r.submissionID(), let shareWeight = r.double(), let habit = r.double(), let chances = count(&r),
                let backs = count(&r), let expected = r.double(), let mutual = r.flag()
            else { return nil }
            shares.append(
                FairTally.Share(
                    id: id, weight: shareWeight, habit: habit,
                    record: VotingHistory.PairRecord(chances: chances, backs: backs, expected: expected), mutual: mutual))
        }
        return FairTally.WeightedBallot(
            voter: voter, karma: karma, ageDays: ageDays, base: base, factors: factors, weight: weight, shares: shares)
    }

    private static func karma(_ r: inout BinaryReader) -> Karma? {
        guard let snippets = count(&r), let ballots = count(&r), let wins = count(&r), let projects = count(&r) else {
            return nil
        }
        return Karma(snippets: snippets, ballots: ballots, wins: wins, projects: projects)
    }

    /// A count or tally of things, which fits in an `Int`.
    private static func count(_ r: inout BinaryReader) -> Int? {
        guard let value = r.varint(), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }
}

extension BinaryWriter {
    /// Appends each round's bytes (`ReplayCodec.body`) and gives its index entry.
    mutating func appending(_ replayed: [TallyTimeline.Replayed]) -> [ReplayCodec.Entry] {
        replayed.map { result in
            let start = bytes.count
            ReplayCodec.body(result, into: &self)
            return (result.slug, result.round.number, result.explained != nil, bytes.count - start)
        }
    }
}
