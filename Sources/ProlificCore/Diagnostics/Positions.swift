/// The positions of a file's keys (`"author"`) and list items (`"for.2"`), by key.
///
/// A file has a handful of keys, and every ballot and snippet has its own set (280,000 on the
/// large benchmark): a short array scanned for a key costs one allocation where a dictionary
/// cost a hash table, hashing every key, and about a third of decoding a cached project.
/// Positions are looked up only to point a diagnostic at a line, so a cached project keeps them
/// packed (`init(packed:range:)`): its bytes, read only when asked. Keys keep the order they
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
    /// The pairs as bytes (`pack(into:)`), when they are held so; `pairs` is then empty.
    private var packed: (buffer: PackedBytes, range: Range<Int>)?

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

    public var count: Int { packed == nil ? pairs.count : unpacked.pairs.count }
    public var isEmpty: Bool { count == 0 }

    /// The position of `key`; setting nil removes it.
    public subscript(key: String) -> TextPosition? {
        get {
            if packed != nil { return unpacked[key] }
            return find(key).map { pairs[$0].value }
        }
        set {
            if packed != nil { self = unpacked }
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

    public mutating func reserveCapacity(_ count: Int) {
        if packed != nil { self = unpacked }
        pairs.reserveCapacity(count)
    }

    public func makeIterator() -> Iterator { Iterator(positions: packed == nil ? self : unpacked) }

    // MARK: Packed

    /// Positions held as the bytes `pack(into:)` wrote, in `range` of `buffer`, which
    /// `packedLength` has found whole: they are decoded each time they are read, and for good
    /// once they are changed.
    public init(packed buffer: PackedBytes, range: Range<Int>) {
        packed = (buffer, range.clamped(to: 0..<buffer.bytes.count))
    }

    /// Appends the pairs to `bytes` as `init(packed:range:)` reads them: their count, then each
    /// key's UTF-8 length and bytes, line and column, every number as `LEB128` writes it.
    public func pack(into bytes: inout [UInt8]) {
        if let (buffer, range) = packed {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer.bytes[range]))
            return
        }
        LEB128.append(UInt64(pairs.count), to: &bytes)
        for pair in pairs {
            var key = pair.key
            key.withUTF8 { utf8 in
                LEB128.append(UInt64(utf8.count), to: &bytes)
                bytes.append(contentsOf: utf8)
            }
            LEB128.append(signed: Int64(pair.value.line), to: &bytes)
            LEB128.append(signed: Int64(pair.value.column), to: &bytes)
        }
    }

    /// How many bytes from `start` (before `end`) `pack(into:)` wrote, checked without making
    /// anything of them; nil when they are malformed or cut short.
    public static func packedLength(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        var offset = start
        guard end <= bytes.count, let count = LEB128.read(in: bytes, at: &offset, end: end),
            count <= UInt64(end - offset) / 3
        else { return nil }
        for _ in 0..<count {
            guard let length = LEB128.read(in: bytes, at: &offset, end: end), length <= UInt64(end - offset) else { return nil }
            offset += Int(length)
            guard let line = LEB128.read(in: bytes, at: &offset, end: end), let column = LEB128.read(in: bytes, at: &offset, end: end),
                Int(exactly: LEB128.unzigzag(line)) != nil, Int(exactly: LEB128.unzigzag(column)) != nil
            else { return nil }
        }
        return offset - start
    }

    /// The pairs a packed set holds, decoded; empty if its bytes are not what `pack` writes
    /// (`packedLength` checks them first).
    private var unpacked: Positions {
        guard let (buffer, range) = packed else { return self }
        let bytes = buffer.bytes
        var offset = range.lowerBound
        let end = range.upperBound
        var positions = Positions()
        guard let count = LEB128.read(in: bytes, at: &offset, end: end), count <= UInt64(end - offset) / 3 else { return positions }
        positions.pairs.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = LEB128.read(in: bytes, at: &offset, end: end), length <= UInt64(end - offset) else { break }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + Int(length))]), as: UTF8.self)
            offset += Int(length)
            guard let line = LEB128.read(in: bytes, at: &offset, end: end), let column = LEB128.read(in: bytes, at: &offset, end: end)
            else { break }
            positions[key] = TextPosition(line: Int(LEB128.unzigzag(line)), column: Int(LEB128.unzigzag(column)))
        }
        return positions
    }

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
        let (a, b) = (a.unpacked, b.unpacked)
        return a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    /// Independent of the order, like a dictionary's: each pair hashed on its own, combined by
    /// `^`.
    public func hash(into hasher: inout Hasher) {
        let positions = unpacked
        var combined = 0
        for (key, position) in positions {
            var pair = Hasher()
            pair.combine(key)
            pair.combine(position)
            combined ^= pair.finalize()
        }
        hasher.combine(positions.count)
        hasher.combine(combined)
    }
}
