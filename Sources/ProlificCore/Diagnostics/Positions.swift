/// The positions of a file's keys (`"author"`) and list items (`"for.2"`), by key.
///
/// A file has a handful of keys, and every ballot and snippet has its own set (280,000 on the
/// large benchmark): a short array scanned for a key costs one allocation where a dictionary
/// cost a hash table, hashing every key, and about a third of decoding a cached project.
/// Positions are looked up only to point a diagnostic at a line. Keys keep the order they
/// were first set in; two sets of positions are equal when they hold the same keys at the same
/// positions, in any order, as with a dictionary.
///
/// A cache may hand them over still encoded (`EncodedPositions`), decoded each time
/// they are read: a rebuild decodes the 20,000 sets of the large benchmark's kept projects
/// (some 26 keys each, a sealed round.md's), and making each key a string was 2.6 % of its CPU,
/// for positions that only a diagnostic ever reads.
public struct Positions: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: TextPosition)

    /// One array, so a set of positions is one allocation.
    private var pairs: [Pair] = []
    /// Where each key is in `pairs`, once there are more than `indexedFrom` of them (a file
    /// with thousands of keys, a hostile list of 20,000 tags, is then not scanned once per
    /// key), or the encoded set these positions are. One reference, as the index was: a
    /// position is kept in each of 300,000 origins, and copying an enum of the two was slower
    /// than the strings it saved. An encoded set is decoded whole at each read: it is read
    /// only for a diagnostic, and a caller that reads it often takes its pairs once (`Array`).
    private var extra: Extra?

    private final class Extra: @unchecked Sendable {
        /// Changed only while this is the only reference to it.
        var index: [String: Int]
        let encoded: (table: EncodedPositions, set: Int)?

        init(index: [String: Int]) { (self.index, encoded) = (index, nil) }
        init(_ table: EncodedPositions, set: Int) { (index, encoded) = ([:], (table, set)) }
    }

    private static let indexedFrom = 16

    fileprivate struct Pair: Sendable {
        var key: String
        var value: TextPosition
    }

    public init() {}

    public init(dictionaryLiteral elements: (String, TextPosition)...) {
        pairs.reserveCapacity(elements.count)
        for (key, position) in elements { self[key] = position }
    }

    public init(_ dictionary: [String: TextPosition]) {
        pairs.reserveCapacity(dictionary.count)
        for (key, position) in dictionary { self[key] = position }
    }

    /// The set numbered `set` of `table`, kept encoded until it is read.
    fileprivate init(_ table: EncodedPositions, set: Int) {
        extra = Extra(table, set: set)
    }

    /// The positions as pairs and their index: these, or the ones the encoded bytes give.
    private var decoded: (pairs: [Pair], index: [String: Int]?) {
        if let encoded = extra?.encoded {
            return encoded.table.decode(encoded.table.bytes, encoded.table.ranges[encoded.set]).decoded
        }
        return (pairs, extra?.index)
    }

    public var count: Int { decoded.pairs.count }
    public var isEmpty: Bool { count == 0 }

    /// The position of `key`; setting nil removes it.
    public subscript(key: String) -> TextPosition? {
        get {
            let (pairs, index) = decoded
            return Self.find(key, in: pairs, index: index).map { pairs[$0].value }
        }
        set {
            if extra?.encoded != nil { (pairs, extra) = Self.decodedPairs(decoded) }
            if let found = Self.find(key, in: pairs, index: extra?.index) {
                if let newValue {
                    pairs[found].value = newValue
                } else {
                    pairs.remove(at: found)
                    extra = Self.index(of: pairs).map { Extra(index: $0) }
                }
            } else if let newValue {
                pairs.append(Pair(key: key, value: newValue))
                reindex(from: pairs.count - 1)
            }
        }
    }

    /// Sets each of `other`'s keys under `prefix.` (`"votes.ann"`), in `other`'s order, as setting
    /// them one by one does. A set's keys are unique, so when no key here starts with `prefix.`
    /// none of them can be here yet and none is looked for: a sealed round.md absorbs two dozen
    /// nested keys, and looking each up in the keys before it was a quadratic part of reading it.
    /// The keys here are scanned for the prefix only while they are few (not indexed); past
    /// that, each is set through the index, so a file that absorbs a hostile list of 100,000
    /// entries one by one (`links`, `extended`) stays linear.
    public mutating func set(_ other: Positions, under prefix: String) {
        let incoming = other.decoded.pairs
        guard !incoming.isEmpty else { return }
        let dotted = prefix + "."
        if extra?.encoded != nil { (pairs, extra) = Self.decodedPairs(decoded) }
        guard extra == nil, !pairs.contains(where: { $0.key.utf8.starts(with: dotted.utf8) }) else {
            for pair in incoming { self[dotted + pair.key] = pair.value }
            return
        }
        pairs.reserveCapacity(pairs.count + incoming.count)
        for pair in incoming { pairs.append(Pair(key: dotted + pair.key, value: pair.value)) }
        reindex(from: pairs.count - incoming.count)
    }

    /// Sets `key`, which the caller knows is not here yet (a key of a mapping whose keys
    /// `FlatYAML` found unique, into positions that held none of them), without looking for it.
    public mutating func append(uniqueKey key: String, _ position: TextPosition) {
        if extra?.encoded != nil { (pairs, extra) = Self.decodedPairs(decoded) }
        pairs.append(Pair(key: key, value: position))
        reindex(from: pairs.count - 1)
    }

    /// Indexes the pairs from `start` on, which were appended without it.
    private mutating func reindex(from start: Int) {
        if extra != nil {
            if !isKnownUniquelyReferenced(&extra) { extra = Extra(index: extra?.index ?? [:]) }
            for i in start..<pairs.count { extra?.index[pairs[i].key] = i }
        } else if pairs.count > Self.indexedFrom {
            extra = Self.index(of: pairs).map { Extra(index: $0) }
        }
    }

    /// `decoded` as the two fields hold pairs.
    private static func decodedPairs(_ decoded: (pairs: [Pair], index: [String: Int]?)) -> ([Pair], Extra?) {
        (decoded.pairs, decoded.index.map { Extra(index: $0) })
    }

    private static func find(_ key: String, in pairs: [Pair], index: [String: Int]?) -> Int? {
        if let index { return index[key] }
        return pairs.firstIndex { $0.key == key }
    }

    private static func index(of pairs: [Pair]) -> [String: Int]? {
        guard pairs.count > indexedFrom else { return nil }
        var built: [String: Int] = [:]
        built.reserveCapacity(pairs.count)
        for (i, pair) in pairs.enumerated() { built[pair.key] = i }
        return built
    }

    public mutating func reserveCapacity(_ count: Int) {
        if extra?.encoded == nil { pairs.reserveCapacity(count) }
    }

    public func makeIterator() -> Iterator { Iterator(pairs: decoded.pairs) }

    public struct Iterator: IteratorProtocol {
        fileprivate let pairs: [Pair]
        var index = 0

        public mutating func next() -> Element? {
            guard index < pairs.count else { return nil }
            defer { index += 1 }
            return (pairs[index].key, pairs[index].value)
        }
    }

    /// Whether both hold one storage (a copy of the other), which makes them equal without
    /// comparing a key: the ballots recorded in round.md share the round's positions.
    public func isIdentical(to other: Positions) -> Bool {
        extra === other.extra && pairs.count == other.pairs.count
            && pairs.withUnsafeBufferPointer { a in other.pairs.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    public static func == (a: Positions, b: Positions) -> Bool {
        if a.isIdentical(to: b) { return true }
        let (pairs, other) = (a.decoded.pairs, b.decoded)
        return pairs.count == other.pairs.count
            && pairs.allSatisfy { pair in find(pair.key, in: other.pairs, index: other.index).map { other.pairs[$0].value } == pair.value }
    }

    /// Independent of the order, like a dictionary's: each pair hashed on its own, combined by
    /// `^`.
    public func hash(into hasher: inout Hasher) {
        let pairs = decoded.pairs
        var combined = 0
        for pair in pairs {
            var one = Hasher()
            one.combine(pair.key)
            one.combine(pair.value)
            combined ^= one.finalize()
        }
        hasher.combine(pairs.count)
        hasher.combine(combined)
    }
}

/// Sets of positions as a cache encoded them, one table for the files of a project (or the
/// profiles), which its sets share: each set is made into keys and positions only when it is
/// read, by `decode`, from the bytes of its range.
public final class EncodedPositions: Sendable {
    fileprivate let bytes: [UInt8]
    fileprivate let ranges: [Range<Int>]
    fileprivate let decode: @Sendable ([UInt8], Range<Int>) -> Positions

    /// `decode` must give the same positions every time, set one by one in the order they are
    /// encoded (a key met again takes the later position), never positions of a table (which
    /// would be decoded again, without end); the cache checked the bytes.
    public init(bytes: [UInt8], ranges: [Range<Int>], decode: @escaping @Sendable ([UInt8], Range<Int>) -> Positions) {
        (self.bytes, self.ranges, self.decode) = (bytes, ranges, decode)
    }

    /// Each set, in the table's order.
    public var sets: [Positions] { ranges.indices.map { Positions(self, set: $0) } }
}
