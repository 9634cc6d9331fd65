/// The positions of a file's keys (`"author"`) and list items (`"for.2"`), by key.
///
/// A file has a handful of keys, and every ballot and snippet has its own set (280,000 on the
/// large benchmark): a short array scanned for a key costs one allocation where a dictionary
/// cost a hash table, hashing every key, and about a third of decoding a cached project.
/// Positions are looked up only to point a diagnostic at a line. Keys keep the order they
/// were first set in; two sets of positions are equal when they hold the same keys at the same
/// positions, in any order, as with a dictionary.
public struct Positions: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: TextPosition)

    /// One array, so a set of positions is one allocation.
    private var pairs: [Pair] = []
    /// Where each key is in `pairs`, once there are more than `indexedFrom` of them: a file
    /// with thousands of keys (a hostile list of 20,000 tags) is then not scanned once per key.
    private var index: [String: Int]?
    private static let indexedFrom = 16

    private struct Pair: Sendable {
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

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }

    /// The position of `key`; setting nil removes it.
    public subscript(key: String) -> TextPosition? {
        get { find(key).map { pairs[$0].value } }
        set {
            if let found = find(key) {
                if let newValue {
                    pairs[found].value = newValue
                } else {
                    pairs.remove(at: found)
                    reindex()
                }
            } else if let newValue {
                pairs.append(Pair(key: key, value: newValue))
                if index != nil {
                    index?[key] = pairs.count - 1
                } else if pairs.count > Self.indexedFrom {
                    reindex()
                }
            }
        }
    }

    private func find(_ key: String) -> Int? {
        if let index { return index[key] }
        return pairs.firstIndex { $0.key == key }
    }

    private mutating func reindex() {
        guard pairs.count > Self.indexedFrom else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(pairs.count)
        for (i, pair) in pairs.enumerated() { built[pair.key] = i }
        index = built
    }

    public mutating func reserveCapacity(_ count: Int) { pairs.reserveCapacity(count) }

    public func makeIterator() -> Iterator { Iterator(positions: self) }

    public struct Iterator: IteratorProtocol {
        let positions: Positions
        var index = 0

        public mutating func next() -> Element? {
            guard index < positions.pairs.count else { return nil }
            defer { index += 1 }
            return (positions.pairs[index].key, positions.pairs[index].value)
        }
    }

    public static func == (a: Positions, b: Positions) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    /// Independent of the order, like a dictionary's: each pair hashed on its own, combined by
    /// `^`.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, position) in self {
            var pair = Hasher()
            pair.combine(key)
            pair.combine(position)
            combined ^= pair.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
