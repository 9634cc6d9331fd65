import Testing

@testable import ProlificCore

/// What a rebuild keeps packed (`PackedBytes`) must read exactly as what it was made from.
@Suite struct PackedTests {
    static let positions: Positions = [
        "author": TextPosition(line: 2, column: 9), "for.0": TextPosition(line: 4, column: 5),
        "été": TextPosition(line: 1_000_000, column: 0), "": TextPosition(line: -3, column: Int(Int32.max) + 7),
    ]

    func pack(_ positions: Positions, after prefix: [UInt8] = [9, 9]) -> (Positions, [UInt8]) {
        var bytes = prefix
        positions.pack(into: &bytes)
        let buffer = PackedBytes(bytes)
        return (Positions(packed: buffer, range: prefix.count..<bytes.count), bytes)
    }

    @Test func packedPositionsReadAsTheyWereSet() {
        let (packed, _) = pack(Self.positions)
        #expect(packed == Self.positions && Self.positions == packed)
        #expect(packed.hashValue == Self.positions.hashValue)
        #expect(packed.count == 4 && !packed.isEmpty)
        #expect(packed["été"] == TextPosition(line: 1_000_000, column: 0))
        #expect(packed[""] == TextPosition(line: -3, column: Int(Int32.max) + 7))
        #expect(packed["missing"] == nil)
        #expect(packed.map(\.key) == Self.positions.map(\.key), "in the order they were set")
        #expect(pack(Positions()).0.isEmpty)
    }

    @Test func manyPositionsPackedStillFindEachKey() {
        var many = Positions()
        for i in 0..<40 { many["tags.\(i)"] = TextPosition(line: i + 1, column: 3) }
        let (packed, _) = pack(many)
        #expect(packed == many)
        #expect(packed["tags.33"] == TextPosition(line: 34, column: 3))
    }

    @Test func changingPackedPositionsChangesThatCopyOnly() {
        let (packed, _) = pack(Self.positions)
        var changed = packed
        changed["author"] = TextPosition(line: 7, column: 1)
        changed["new"] = .start
        changed["for.0"] = nil
        #expect(changed["author"] == TextPosition(line: 7, column: 1) && changed["new"] == .start && changed["for.0"] == nil)
        #expect(changed.count == 4)
        #expect(packed == Self.positions, "the packed copy is as it was")
        // Packed again, the changed copy reads back as it is now.
        #expect(pack(changed).0 == changed)
    }

    @Test func thePackedLengthIsFoundAndACutIsRefused() {
        let (_, bytes) = pack(Self.positions, after: [])
        let whole = bytes + [0xFF, 0x80]
        whole.withUnsafeBufferPointer { all in
            #expect(Positions.packedLength(in: all, from: 0, end: all.count) == bytes.count, "trailing bytes are not its")
            for end in 0..<bytes.count { #expect(Positions.packedLength(in: all, from: 0, end: end) == nil) }
            #expect(Positions.packedLength(in: all, from: 0, end: all.count + 1) == nil, "an end past the bytes")
        }
        // A count that claims more pairs than the bytes could hold.
        [200, 1, 0, 0, 0].withUnsafeBufferPointer { #expect(Positions.packedLength(in: $0, from: 0, end: $0.count) == nil) }
    }

    @Test func aPackedTextIsTheStringItsBytesSpell() {
        let string = "É\u{301} ✓ *b*\n"
        let bytes: [UInt8] = [1, 2] + Array(string.utf8) + [3]
        let buffer = PackedBytes(bytes)
        let packed = PackedText(utf8: buffer, range: 2..<(bytes.count - 1))
        #expect(packed.isPacked && !PackedText(string).isPacked)
        #expect(packed.string == string)
        #expect(packed == PackedText(string) && PackedText(string) == packed)
        #expect(packed.hashValue == PackedText(string).hashValue)
        #expect(packed.withUTF8 { Array($0) } == Array(string.utf8))
        #expect(packed != PackedText(utf8: buffer, range: 2..<5))
        // Canonically equivalent spellings are equal, as strings are.
        #expect(PackedText("\u{E9}") == PackedText(utf8: PackedBytes(Array("e\u{301}".utf8)), range: 0..<3))
        // Bytes that are not UTF-8 read repaired; a range past the end is cut to the bytes.
        let broken = PackedText(utf8: PackedBytes([0x61, 0xFF, 0x62]), range: 0..<9)
        #expect(broken.string == "a\u{FFFD}b")
    }

    @Test func aSnippetsBodyIsItsText() {
        var snippet = Submission(
            id: SubmissionID(author: Handle("ann")!, time: Timestamp(secondsSinceEpoch: 0)), author: Handle("ann")!,
            submitted: Timestamp(secondsSinceEpoch: 0), text: PackedText(utf8: PackedBytes(Array("Hello.".utf8)), range: 0..<6),
            origin: Origin(path: "x.md"))
        #expect(snippet.body == "Hello." && snippet.text.isPacked)
        snippet.body = "Bye."
        #expect(snippet.text == PackedText("Bye.") && !snippet.text.isPacked)
    }
}
