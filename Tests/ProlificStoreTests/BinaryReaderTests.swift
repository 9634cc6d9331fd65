import Testing

@testable import ProlificStore

/// `ByteReader`'s reads, over an array and over a buffer (as a mapped file is read).
@Suite struct BinaryReaderTests {
    /// `consume` moves past the expected bytes only when they are next, and never past the end.
    @Test func consumeMovesPastExpectedBytesOnly() {
        var w = BinaryWriter()
        w.raw([1, 2, 3, 4])
        w.varint(300)
        var r = BinaryReader(w.bytes)
        let mismatch = r.consume([1, 2, 4])
        #expect(!mismatch && r.position == 0, "a mismatch leaves the reader where it was")
        let nothing = r.consume([])
        #expect(nothing && r.position == 0)
        let (first, second) = (r.consume([1, 2]), r.consume([3, 4]))
        #expect(first && second && r.position == 4)
        let tooLong = r.consume([0xAC, 0x02, 0])
        #expect(!tooLong && r.position == 4, "longer than what is left")
        let number = r.varint()
        #expect(number == 300 && r.isAtEnd)
    }

    /// The same bytes read from an array and from a buffer give the same values.
    @Test func aBufferReadsAsTheArrayDoes() {
        var w = BinaryWriter()
        w.integer(-5)
        w.string("é, then a line\n")
        w.text("short")
        w.signed(-123_456_789)
        let bytes = w.bytes
        var fromArray = BinaryReader(bytes)
        let expected = (fromArray.integer(), fromArray.string(), fromArray.text(), fromArray.signed())
        #expect(expected.0 == -5 && expected.1 == "é, then a line\n" && expected.2 == "short" && expected.3 == -123_456_789)
        bytes.withUnsafeBufferPointer { buffer in
            var fromBuffer = ByteReader(buffer)
            let read = (fromBuffer.integer(), fromBuffer.string(), fromBuffer.text(), fromBuffer.signed())
            #expect(read.0 == expected.0 && read.1 == expected.1 && read.2 == expected.2 && read.3 == expected.3)
            #expect(fromBuffer.isAtEnd)
        }
    }

    /// The checksum that seals every cache file, given its bytes in pieces of any sizes (the
    /// build's stamp is written part after part), is the checksum of them all; and it is the one
    /// files already on disk were sealed with (values from an independent implementation).
    @Test func aChecksumInPiecesIsTheChecksumOfTheWhole() {
        func sample(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(($0 * 37 + 11) % 256) } }
        let pinned: [(Int, UInt64)] = [
            (0, 0xc196_8c17_b081_5a53), (7, 0x7f24_d589_c21d_4dde), (33, 0x2712_abd0_f261_239e), (100, 0x106d_bc56_b918_449d),
        ]
        for (count, value) in pinned {
            #expect(sample(count).withUnsafeBytes { CacheSeal.checksum($0) } == value, "\(count) bytes")
        }
        var random = SystemRandomNumberGenerator()
        for count in [0, 1, 31, 32, 33, 64, 100, 1000] {
            let bytes = sample(count)
            let whole = bytes.withUnsafeBytes { CacheSeal.checksum($0) }
            for _ in 0..<20 {
                var checksum = CacheSeal.Checksum(count: count)
                var start = 0
                while start < count {
                    let end = min(count, start + Int.random(in: 0...40, using: &random))
                    bytes[start..<end].withUnsafeBytes { checksum.add($0) }
                    start = end
                }
                checksum.add(UnsafeRawBufferPointer(start: nil, count: 0))
                #expect(checksum.value == whole, "\(count) bytes in pieces")
            }
        }
    }
}
