import ProlificCore

/// What a page or feed is a function of, written as it is gathered: a byte string each value
/// adds itself to with its type and, for text and lists, its length, so two different sequences
/// of values never give the same bytes. `PageFingerprint.of(template:inputs:theme:)` hashes it.
///
/// This is how a page kind whose values cost much more than what they are made of says what they
/// are made of (`PageJob.inputs`): typed values in a fixed order, with no dictionary to build and
/// no keys to sort, which made describing 20,000 round pages and 7,000 feeds cost more than most
/// of a rebuild's other work. Each kind writes its values in its own fixed order; the binary is
/// in every cache's key, so a change of that order never meets an old fingerprint.
struct PageInputs {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(512)
    }

    mutating func add(_ text: String) {
        bytes.append(1)
        // Read where it lies: a copy to make contiguous (`withUTF8`) retained and released every
        // text added; only a bridged or lazy string has no contiguous bytes.
        let utf8 = text.utf8
        integer(UInt64(utf8.count))
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func add(_ number: Int) {
        bytes.append(2)
        integer(UInt64(bitPattern: Int64(number)))
    }

    mutating func add(_ flag: Bool) {
        bytes.append(flag ? 3 : 4)
    }

    /// A number by its bits: two values that print alike but differ still differ here.
    mutating func add(_ number: Double) {
        bytes.append(5)
        integer(number.bitPattern)
    }

    mutating func add(_ text: String?) {
        if let text {
            bytes.append(10)
            add(text)
        } else {
            bytes.append(9)
        }
    }

    /// Bytes that stand for a value (`ReplayedRounds.encoded`, another page's inputs), whole.
    mutating func add(_ encoded: ArraySlice<UInt8>) {
        bytes.append(6)
        integer(UInt64(encoded.count))
        bytes.append(contentsOf: encoded)
    }

    /// Starts a list of `count` items, which the caller then adds.
    mutating func list(_ count: Int) {
        bytes.append(11)
        integer(UInt64(count))
    }

    /// Everything a weighed ballot holds, from which a round page shows its explanation.
    mutating func add(_ ballot: FairTally.WeightedBallot) {
        add(ballot.voter.rawValue)
        for count in [ballot.karma.snippets, ballot.karma.ballots, ballot.karma.wins, ballot.karma.projects] { add(count) }
        add(ballot.ageDays)
        add(ballot.base)
        list(ballot.factors.count)
        for factor in ballot.factors {
            add(factor.value)
            add(factor.reason)
        }
        add(ballot.weight)
        list(ballot.shares.count)
        for share in ballot.shares {
            add(share.id.rawValue)
            add(share.weight)
            add(share.habit)
            add(share.record.chances)
            add(share.record.backs)
            add(share.record.expected)
            add(share.mutual)
        }
    }

    /// Everything `PageContext.values(_:)` reads: the values every page has.
    mutating func add(_ context: PageContext) {
        add(context.site.title)
        add(context.site.baseURL)
        add(context.path)
        add(context.title)
        add(context.description)
        add(context.noindex)
        add(context.section?.rawValue)
        add(context.showsMoment)
        add(context.showsMoment ? context.now.iso8601 : nil)
    }

    private mutating func integer(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
