#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny little-endian binary encoding for derived caches: numbers and strings, nothing else.
/// Reading never traps: any malformed or truncated input gives nil, and the cache is rebuilt.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    /// A writer whose buffer won't grow (copying what it holds) until `capacity` bytes.
    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Empties the writer, keeping its buffer for what comes next.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func integer(_ value: Int64) {
        var v = UInt64(bitPattern: value)
        for _ in 0..<8 {
            bytes.append(UInt8(v & 0xFF))
            v >>= 8
        }
    }

    /// Each of `values` as `integer` writes it, in one copy where the machine is little-endian.
    mutating func integers(_ values: UnsafeBufferPointer<Int64>) {
        #if _endian(little)
            bytes.append(contentsOf: UnsafeRawBufferPointer(values))
        #else
            for value in values { integer(value) }
        #endif
    }

    mutating func unsigned(_ value: UInt64) { integer(Int64(bitPattern: value)) }
    mutating func double(_ value: Double) { unsigned(value.bitPattern) }

    /// Bytes as they are; the reader must know how many (write the count first).
    mutating func raw(_ value: [UInt8]) { bytes += value }
    mutating func raw(_ value: ArraySlice<UInt8>) { bytes += value }
    mutating func raw(_ value: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: value) }

    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(Int64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A number in as few bytes as it needs (LEB128: 7 bits a byte, the high bit for "more"),
    /// for caches of many small numbers.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A signed number as a `varint`, small magnitudes of either sign in few bytes (zigzag).
    mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// A string with its length as a `varint`.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Bytes a `ByteReader` reads: an array, or a file mapped into memory (`MappedFile.bytes`).
protocol ReadableBytes: RandomAccessCollection where Element == UInt8, Index == Int {
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
}

extension Array: ReadableBytes where Element == UInt8 {
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { withUnsafeBufferPointer(body) }
}

extension UnsafeBufferPointer: ReadableBytes where Element == UInt8 {
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { body(self) }
}

/// The reader of the caches, which are read into arrays.
typealias BinaryReader = ByteReader<[UInt8]>

/// Reads what `BinaryWriter` wrote, from any `ReadableBytes`.
struct ByteReader<Bytes: ReadableBytes> {
    private let bytes: Bytes
    private var offset: Int
    private let end: Int

    /// A reader of `bytes`, or of `range` of them (it reads nothing past the range's end).
    init(_ bytes: Bytes, range: Range<Int>? = nil) {
        let range = range?.clamped(to: 0..<bytes.count) ?? 0..<bytes.count
        (self.bytes, offset, end) = (bytes, range.lowerBound, range.upperBound)
    }

    /// Where the next read starts, in the whole of the bytes.
    var position: Int { offset }

    var isAtEnd: Bool { offset == end }
    /// How many bytes are left to read.
    var remaining: Int { end - offset }

    mutating func integer() -> Int64? {
        guard offset + 8 <= end else { return nil }
        var v: UInt64 = 0
        for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return Int64(bitPattern: v)
    }

    /// Fills `values` with as many numbers as `integers` wrote; false (and `values` partly
    /// filled) when fewer bytes are left.
    mutating func integers(into values: UnsafeMutableBufferPointer<Int64>) -> Bool {
        guard values.count <= remaining / 8 else { return false }
        #if _endian(little)
            bytes.withBytes { all in
                UnsafeMutableRawBufferPointer(values).copyMemory(
                    from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[offset..<(offset + values.count * 8)])))
            }
            offset += values.count * 8
        #else
            for i in values.indices {
                guard let value = integer() else { return false }
                values[i] = value
            }
        #endif
        return true
    }

    mutating func unsigned() -> UInt64? { integer().map { UInt64(bitPattern: $0) } }
    mutating func double() -> Double? { unsigned().map { Double(bitPattern: $0) } }

    /// A count that must fit in what is left (each element takes at least `minimumSize` bytes).
    mutating func count(minimumSize: Int = 1) -> Int? {
        guard let n = integer(), n >= 0, n <= Int64((end - offset) / max(1, minimumSize)) else { return nil }
        return Int(n)
    }

    /// Steps over the next `count` bytes: where they are in the whole of the bytes.
    mutating func skip(_ count: Int) -> Range<Int>? {
        guard count >= 0, count <= end - offset else { return nil }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// Whether the next `expected.count` bytes are `expected`, compared in place (a project
    /// cache's key, 9 KB on large, was copied out and compared byte by byte: 18 ms of a rebuild's
    /// CPU); the reader moves past them only if so.
    mutating func consume(_ expected: [UInt8]) -> Bool {
        guard expected.count <= end - offset else { return false }
        let same = expected.isEmpty || bytes.withBytes { all in
            expected.withUnsafeBufferPointer { memcmp(all.baseAddress! + offset, $0.baseAddress!, expected.count) == 0 }
        }
        if same { offset += expected.count }
        return same
    }

    /// Calls `body` with the whole of the bytes, in which `position` and `skip` give places.
    func withAll<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { bytes.withBytes(body) }

    mutating func raw(_ count: Int) -> [UInt8]? {
        guard count >= 0, offset + count <= end else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Reads on from where the reader is with `body`, which gets the bytes left and says how
    /// many it read (at most those), or nil for malformed bytes: a tight loop over many small
    /// numbers reads them without a bounds check and an optional for each byte.
    mutating func reading<R>(_ body: (UnsafeBufferPointer<UInt8>) -> (value: R, read: Int)?) -> R? {
        let found = bytes.withBytes { body(UnsafeBufferPointer(rebasing: $0[offset..<end])) }
        guard let found, found.read >= 0, found.read <= end - offset else { return nil }
        offset += found.read
        return found.value
    }

    mutating func string() -> String? {
        guard let n = count(), offset + n <= end else { return nil }
        defer { offset += n }
        return String(validating: bytes[offset..<(offset + n)], as: UTF8.self)
    }

    /// See `BinaryWriter.varint`; nil past the end or beyond 64 bits.
    mutating func varint() -> UInt64? {
        VarintCursor.varint(in: bytes, at: &offset, end: end)
    }

    mutating func signed() -> Int64? {
        varint().map(VarintCursor.unzigzag)
    }

    /// A count written as a `varint`, which must fit in what is left (`minimumSize` bytes each).
    mutating func shortCount(minimumSize: Int = 1) -> Int? {
        guard let n = varint(), n <= UInt64((end - offset) / max(1, minimumSize)) else { return nil }
        return Int(n)
    }

    /// See `BinaryWriter.text`. Bytes that are not UTF-8 come back repaired (U+FFFD), as
    /// `String(decoding:)` does: cheaper than `String(validating:)`, which looked up generic
    /// metadata for every string, and as safe (the caches check a checksum before reading).
    mutating func text() -> String? {
        guard let n = shortCount() else { return nil }
        defer { offset += n }
        return bytes.withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + n)]), as: UTF8.self) }
    }

    /// Steps over what `text()` would read, without making a string; false past the end.
    mutating func skipText() -> Bool {
        guard let n = shortCount() else { return false }
        offset += n
        return true
    }

    /// A byte: 0 or 1 as a Bool, anything else nil.
    mutating func flag() -> Bool? {
        guard offset < end, bytes[offset] <= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset] == 1
    }
}

/// The framing of every cache file: its body, then a 64-bit checksum of the body. A reader
/// checks the checksum before decoding anything, so a file torn by a crash, cut short or
/// zero-filled is a miss, never a wrong value.
enum CacheSeal {
    /// Appends the checksum of everything `w` holds.
    static func seal(_ w: inout BinaryWriter) {
        w.unsigned(w.bytes.withUnsafeBytes { checksum($0) })
    }

    /// The 8 bytes that seal a file written as `parts`, one after the other (the build's stamp,
    /// the replay cache after a `close`): the checksum of them all, without putting them
    /// together in fresh memory first.
    static func seal(of parts: [ArraySlice<UInt8>]) -> [UInt8] {
        var checksum = Checksum(count: parts.reduce(0) { $0 + $1.count })
        for part in parts { part.withUnsafeBytes { checksum.add($0) } }
        var w = BinaryWriter(capacity: 8)
        w.unsigned(checksum.value)
        return w.bytes
    }

    /// Where the body of `bytes` is, when they are a body of at least 8 bytes followed by its
    /// checksum; nil otherwise.
    static func body(of bytes: some ReadableBytes) -> Range<Int>? {
        guard bytes.count >= 16 else { return nil }
        let body = bytes.count - 8
        let intact = bytes.withBytes { bytes in
            let all = UnsafeRawBufferPointer(bytes)
            return checksum(UnsafeRawBufferPointer(rebasing: all[..<body]))
                == UInt64(littleEndian: all.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        }
        return intact ? 0..<body : nil
    }

    /// A 64-bit checksum, 32 bytes at a time in four lanes: it catches a file cut short or
    /// zero-filled by a crash (not tampering; the cache is as trusted as the content directory
    /// it sits in). Each lane's multiply waits only on its own last one, so the four run side by
    /// side: one lane went at about 1.6 GB/s, and a large rebuild checked 127 MB of project
    /// caches (20 MB of 123 since it reads their entries without the texts and the seals' files).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var checksum = Checksum(count: bytes.count)
        checksum.add(bytes)
        return checksum.value
    }

    /// `checksum(_:)` of bytes given in pieces, one after the other, which together are
    /// `count` bytes: a file written in parts (the build's stamp, 15 MB on large) is sealed
    /// without being put together in fresh memory first.
    struct Checksum {
        private var lanes: (UInt64, UInt64, UInt64, UInt64)
        /// The bytes of an unfinished 32-byte block (fewer than 32).
        private var pending: [UInt8] = []

        init(count: Int) {
            lanes = (0x9E37_79B9_7F4A_7C15 ^ UInt64(count), 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
        }

        @inline(__always)
        private static func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (lane ^ word) &* 0xFF51_AFD7_ED55_8CCD
            return mixed ^ (mixed >> 32)
        }

        /// Mixes in the 32-byte blocks of `bytes` from `start` on, and gives where the rest starts.
        @inline(__always)
        private mutating func blocks(of bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            var offset = start
            while offset + 32 <= bytes.count {
                lanes.0 = Self.mix(lanes.0, word(offset))
                lanes.1 = Self.mix(lanes.1, word(offset + 8))
                lanes.2 = Self.mix(lanes.2, word(offset + 16))
                lanes.3 = Self.mix(lanes.3, word(offset + 24))
                offset += 32
            }
            return offset
        }

        /// Adds the next bytes.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            if !pending.isEmpty {
                offset = min(32 - pending.count, bytes.count)
                pending += bytes[..<offset]
                guard pending.count == 32 else { return }
                let block = pending
                pending.removeAll(keepingCapacity: true)
                _ = block.withUnsafeBytes { blocks(of: $0, from: 0) }
            }
            offset = blocks(of: bytes, from: offset)
            if offset < bytes.count { pending += bytes[offset...] }
        }

        /// The checksum of every byte added.
        var value: UInt64 {
            var hash = Self.mix(Self.mix(Self.mix(lanes.0, lanes.1), lanes.2), lanes.3)
            pending.withUnsafeBytes { rest in
                var offset = 0
                while offset + 8 <= rest.count {
                    hash = Self.mix(hash, UInt64(littleEndian: rest.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                    offset += 8
                }
                while offset < rest.count {
                    hash = (hash ^ UInt64(rest[offset])) &* 0xC4CE_B9FE_1A85_EC53
                    offset += 1
                }
            }
            return hash ^ (hash >> 29)
        }
    }
}

/// LEB128 numbers (`BinaryWriter.varint`, `signed`) read straight from bytes, for
/// `BinaryReader.reading`.
struct VarintCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// nil past the end or beyond 64 bits.
    @inline(__always)
    mutating func varint() -> UInt64? {
        Self.varint(in: bytes, at: &offset, end: bytes.count)
    }

    @inline(__always)
    mutating func signed() -> Int64? {
        varint().map(Self.unzigzag)
    }

    /// The LEB128 number at `offset` in `bytes` (before `end`), `offset` moved past it; nil
    /// past the end or beyond 64 bits. `BinaryReader` reads its arrays with it too.
    @inline(__always)
    static func varint<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at offset: inout Int, end: Int) -> UInt64?
    where Bytes.Index == Int {
        // Most numbers a cache holds (counts, lengths, differences) fit in one byte.
        if offset < end, case let byte = bytes[offset], byte < 0x80 {
            offset += 1
            return UInt64(byte)
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            let bits = UInt64(byte & 0x7F)
            guard shift < 63 || bits <= 1 else { return nil }
            value |= bits << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A `signed` number from its zigzag form.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
