import ProlificCore

/// Pieces of content in the binary caches (`ProjectCodec`, `ReplayCodec`), written and read the
/// same way by both.
extension BinaryWriter {
    /// An id as its author and time: no digits to format or parse.
    mutating func submissionID(_ id: SubmissionID) {
        text(id.author.rawValue)
        signed(id.time.secondsSinceEpoch)
    }

    /// A tally as recorded: its method, ballots, and each score by its exact bits, its snippet
    /// written by `id` (spelt out unless the caller names snippets otherwise).
    mutating func tallyRecord(
        _ tally: TallyRecord, id: (inout BinaryWriter, SubmissionID) -> Void = { $0.submissionID($1) }
    ) {
        text(tally.method)
        signed(Int64(tally.ballots))
        varint(UInt64(tally.scores.count))
        for score in tally.scores {
            id(&self, score.id)
            varint(score.score.bitPattern)
        }
    }

    /// A flag for whether `value` is there, then `value` by `body`.
    mutating func optional<T>(_ value: T?, _ body: (inout BinaryWriter, T) -> Void) {
        flag(value != nil)
        if let value { body(&self, value) }
    }
}

extension BinaryReader {
    mutating func submissionID() -> SubmissionID? {
        guard let author = text().flatMap(Handle.init), let moment = time() else { return nil }
        return SubmissionID(author: author, time: moment)
    }

    /// A moment, which must have a year of at most four digits (content has 1970 to 9999): the
    /// calendar arithmetic that spells a time (an id's digits, a page's date) would overflow on
    /// one near the ends of `Int64`.
    mutating func time() -> Timestamp? {
        guard let seconds = signed() else { return nil }
        let time = Timestamp(secondsSinceEpoch: seconds)
        return time.hasFourDigitYear ? time : nil
    }

    /// What `BinaryWriter.tallyRecord` wrote, each snippet read by `id`.
    mutating func tallyRecord(id: (inout BinaryReader) -> SubmissionID? = { $0.submissionID() }) -> TallyRecord? {
        // A score takes at least two bytes: its snippet's number or id, and its bits.
        guard let method = text(), let ballots = signed(), let count = shortCount(minimumSize: 2) else { return nil }
        var scores: [TallyRecord.Score] = []
        scores.reserveCapacity(count)
        for _ in 0..<count {
            guard let id = id(&self), let bits = varint() else { return nil }
            scores.append(TallyRecord.Score(id: id, score: Double(bitPattern: bits)))
        }
        return TallyRecord(method: method, ballots: Int(ballots), scores: scores)
    }

    /// What `BinaryWriter.optional` wrote: `.some(nil)` when absent, nil when malformed.
    mutating func optional<T>(_ body: (inout BinaryReader) -> T?) -> T?? {
        guard let present = flag() else { return nil }
        guard present else { return .some(nil) }
        guard let value = body(&self) else { return nil }
        return .some(value)
    }
}
