/// A tiny little-endian binary encoding for derived caches: numbers and strings, nothing else.
/// Reading never traps: any malformed or truncated input gives nil, and the cache is rebuilt.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func integer(_ value: Int64) {
        var v = UInt64(bitPattern: value)
        for _ in 0..<8 {
            bytes.append(UInt8(v & 0xFF))
            v >>= 8
        }
    }

    mutating func unsigned(_ value: UInt64) { integer(Int64(bitPattern: value)) }
    mutating func double(_ value: Double) { unsigned(value.bitPattern) }

    /// Bytes as they are; the reader must know how many (write the count first).
    mutating func raw(_ value: [UInt8]) { bytes += value }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(Int64(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

struct BinaryReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func integer() -> Int64? {
        guard offset + 8 <= bytes.count else { return nil }
        var v: UInt64 = 0
        for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return Int64(bitPattern: v)
    }

    mutating func unsigned() -> UInt64? { integer().map { UInt64(bitPattern: $0) } }
    mutating func double() -> Double? { unsigned().map { Double(bitPattern: $0) } }

    /// A count that must fit in what is left (each element takes at least `minimumSize` bytes).
    mutating func count(minimumSize: Int = 1) -> Int? {
        guard let n = integer(), n >= 0, n <= Int64((bytes.count - offset) / max(1, minimumSize)) else { return nil }
        return Int(n)
    }

    mutating func raw(_ count: Int) -> [UInt8]? {
        guard count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func string() -> String? {
        guard let n = count(), offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return String(validating: bytes[offset..<(offset + n)], as: UTF8.self)
    }
}
