/// The voting history's records, by pair key (voter id << 32 | author id): a hash table with
/// open addressing made for those keys alone.
///
/// A large game's history holds 850,000 records. In a `Dictionary` each key was hashed with
/// the process's seeded SipHash, and restoring the history from its cache was a quarter of a
/// `close` (docs/performance-log.md). Here a key is spread by one multiplication (Fibonacci
/// hashing), slots are probed in order, and keys and records sit in two arrays. The order of
/// `forEach` depends only on what was stored, in which order, and on the room reserved: never
/// on the run (a `Dictionary`'s hashing is seeded per process).
struct PairTable: Sendable {
    /// No key is this: a key's halves are ids below 2^31 (`Int32` handles' indices). The table
    /// never holds it, and looking it up finds nothing (a cache file could name it).
    private static let empty = UInt64.max
    /// The table grows past this share of its slots in use (7/8 would probe far longer).
    private static func limit(ofSlots slots: Int) -> Int { slots / 4 * 3 }

    private var keys: [UInt64]
    private var values: [VotingHistory.PairRecord]
    /// log2 of the slot count, which is a power of two (at least 8 slots).
    private var bits: Int
    private(set) var count = 0

    init(minimumCapacity: Int = 0) {
        var bits = 3
        // Past 2^40 slots the arrays couldn't be allocated anyway; `1 << 64` would be 0.
        while bits < 40, Self.limit(ofSlots: 1 << bits) < minimumCapacity { bits += 1 }
        self.bits = bits
        keys = Array(repeating: Self.empty, count: 1 << bits)
        values = Array(repeating: VotingHistory.PairRecord(), count: 1 << bits)
    }

    /// The first slot to look in for `key`: the top bits of the key times 2^64 / φ.
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The slot that holds `key`, or the empty slot where it would go.
    private func slot(of key: UInt64) -> Int {
        let mask = keys.count - 1
        var slot = home(key)
        while keys[slot] != key, keys[slot] != Self.empty { slot = (slot + 1) & mask }
        return slot
    }

    /// The record of `key`; setting stores it. Records are never removed: setting nil, or a
    /// record for the key no pair has (`empty`), changes nothing.
    subscript(key: UInt64) -> VotingHistory.PairRecord? {
        get {
            guard key != Self.empty else { return nil }
            let slot = slot(of: key)
            return keys[slot] == key ? values[slot] : nil
        }
        set {
            guard let newValue, key != Self.empty else { return }
            var slot = slot(of: key)
            if keys[slot] != key {
                if count + 1 > Self.limit(ofSlots: keys.count) {
                    grow(to: count + 1)
                    slot = self.slot(of: key)
                }
                keys[slot] = key
                count += 1
            }
            values[slot] = newValue
        }
    }

    /// Makes room for `capacity` records without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > Self.limit(ofSlots: keys.count) { grow(to: capacity) }
    }

    private mutating func grow(to capacity: Int) {
        var larger = PairTable(minimumCapacity: max(capacity, 2 * count))
        forEach { key, value in larger.insertNew(key, value) }
        self = larger
    }

    /// Stores a record for a key the table doesn't hold, with room known to be there.
    private mutating func insertNew(_ key: UInt64, _ value: VotingHistory.PairRecord) {
        let slot = slot(of: key)
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    /// Each record, slot by slot.
    func forEach(_ body: (UInt64, VotingHistory.PairRecord) -> Void) {
        for slot in keys.indices where keys[slot] != Self.empty { body(keys[slot], values[slot]) }
    }
}
