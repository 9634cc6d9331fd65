import Testing

@testable import ProlificCore

@Suite struct DiagnosticTests {
    @Test func printsCompilerStyle() {
        let at = Diagnostic(path: "Content/users/ann.md", position: TextPosition(line: 4, column: 5), message: "bad")
        #expect(at.description == "Content/users/ann.md:4:5: error: bad")
        #expect(Diagnostic(path: "a.md", message: "no position").description == "a.md:1:1: error: no position")
        #expect(Diagnostic.plain("bad argument").description == "error: bad argument")
        #expect(Diagnostic(severity: .warning, path: "a.md", message: "hm").description == "a.md:1:1: warning: hm")
        let noted = Diagnostic(
            path: "a.md", position: TextPosition(line: 2, column: 1), message: "twice",
            notes: [.init(path: "b.md", position: TextPosition(line: 3, column: 7), message: "the other")])
        #expect(noted.description == "a.md:2:1: error: twice\nb.md:3:7: note: the other")
    }

    /// A file name or a quoted value from the content can't split the line or act on the terminal.
    @Test func controlCharactersAreShownNotPrinted() {
        let odd = Diagnostic(path: "users/a\nb\u{202E}.md", message: "found '\u{1B}[2J'")
        #expect(odd.description == "users/a\\u{A}b\\u{202E}.md:1:1: error: found '\\u{1B}[2J'")
        #expect(Diagnostic.visible("café, 東京 and tabs\tno") == "café, 東京 and tabs\\u{9}no")
    }

    @Test func sortsByPathThenPositionThenMessage() {
        let unsorted = [
            Diagnostic(path: "b.md", position: TextPosition(line: 1, column: 1), message: "x"),
            Diagnostic(path: "a.md", position: TextPosition(line: 10, column: 1), message: "x"),
            Diagnostic(path: "a.md", position: TextPosition(line: 2, column: 9), message: "x"),
            Diagnostic(path: "a.md", position: TextPosition(line: 2, column: 3), message: "z"),
            Diagnostic(path: "a.md", position: TextPosition(line: 2, column: 3), message: "y"),
            Diagnostic.plain("first"),
        ]
        #expect(
            unsorted.sorted().map(\.description) == [
                "error: first", "a.md:2:3: error: y", "a.md:2:3: error: z", "a.md:2:9: error: x", "a.md:10:1: error: x",
                "b.md:1:1: error: x",
            ])
    }

    @Test func originFindsKeyPositions() {
        let origin = Origin(path: "v.yml", positions: ["for.1": TextPosition(line: 5, column: 3)])
        #expect(origin.position(of: "for.1") == TextPosition(line: 5, column: 3))
        #expect(origin.position(of: "missing") == .start)
        #expect(origin.error(at: "for.1", "bad choice").description == "v.yml:5:3: error: bad choice")
    }

    /// An origin decoded from a cache holds its path in parts (`ProjectCodec`).
    @Test func anOriginInPartsIsItsJoinedPath() {
        let ballot = Origin(folder: "Content/votes", name: "ann", suffix: ".yml", positions: ["for.0": .start])
        let snippet = Origin(folder: "Content/submissions", snippet: SubmissionID(author: Handle("ann")!, time: Timestamp(secondsSinceEpoch: 0)))
        #expect(ballot.path == "Content/votes/ann.yml")
        #expect(snippet.path == "Content/submissions/ann-19700101000000.md")
        // Equal and hashed alike however the path is held; positions still count.
        let whole = Origin(path: "Content/votes/ann.yml", positions: ["for.0": .start])
        #expect(ballot == whole)
        #expect(Set([ballot, whole]).count == 1)
        #expect(ballot != Origin(path: "Content/votes/ann.yml"))
        #expect(ballot != Origin(folder: "Content/votes", name: "bob", suffix: ".yml", positions: ["for.0": .start]))
        // Setting the path replaces the parts.
        var moved = ballot
        moved.path = "elsewhere.yml"
        #expect(moved.path == "elsewhere.yml")
        #expect(moved.error(at: "for.0", "bad").description == "elsewhere.yml:1:1: error: bad")
    }

    /// Positions behave like the dictionary they replaced: a key set twice holds the last
    /// position, nil removes it, and equality and hashing ignore the order keys were set in.
    @Test func positionsActLikeADictionary() {
        var a: Positions = ["voter": TextPosition(line: 1, column: 8), "for.0": TextPosition(line: 3, column: 5)]
        a["for.0"] = TextPosition(line: 4, column: 5)
        a["cast"] = TextPosition(line: 2, column: 7)
        #expect(a.count == 3)
        #expect(a["for.0"] == TextPosition(line: 4, column: 5))
        #expect(a["missing"] == nil)
        #expect(a.map(\.key) == ["voter", "for.0", "cast"])
        let b = Positions([
            "cast": TextPosition(line: 2, column: 7), "for.0": TextPosition(line: 4, column: 5),
            "voter": TextPosition(line: 1, column: 8),
        ])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = b
        c["cast"] = TextPosition(line: 2, column: 8)
        #expect(c != b)
        c["cast"] = nil
        #expect(c.count == 2 && c["cast"] == nil && c != b)
        #expect(Positions() == [:] && Positions().isEmpty)
    }

    /// Past a few keys they are found through an index: the same answers, in any order.
    @Test func manyPositionsActLikeADictionary() {
        var forward = Positions(), backward = Positions()
        for i in 0..<40 { forward["for.\(i)"] = TextPosition(line: i + 1, column: 3) }
        for i in (0..<40).reversed() { backward["for.\(i)"] = TextPosition(line: i + 1, column: 3) }
        #expect(forward == backward && forward.hashValue == backward.hashValue)
        #expect(forward["for.39"] == TextPosition(line: 40, column: 3) && forward["for.40"] == nil)
        forward["for.7"] = nil
        #expect(forward.count == 39 && forward["for.7"] == nil && forward["for.8"] == TextPosition(line: 9, column: 3))
        forward["for.8"] = TextPosition(line: 1, column: 1)
        #expect(forward["for.8"] == TextPosition(line: 1, column: 1) && forward["for.39"] == TextPosition(line: 40, column: 3))
        for i in 0..<30 { forward["for.\(i)"] = nil }
        #expect(forward.count == 10 && forward["for.35"] == TextPosition(line: 36, column: 3))
    }

    /// Nested positions set under a prefix, and keys appended as unique, give what setting each
    /// key one by one gives: the same keys, order, positions and index, a key already there
    /// under the prefix taking the later position, and a copy left alone.
    @Test func positionsSetUnderAPrefixAreThoseSetOneByOne() {
        func position(_ line: Int) -> TextPosition { TextPosition(line: line, column: 3) }
        var nested = Positions()
        for i in 0..<20 { nested["u\(i)"] = position(i + 10) }
        for start in [0, 10, 17] {
            var appended = Positions(), oneByOne = Positions()
            for i in 0..<start {
                appended.append(uniqueKey: "key\(i)", position(i + 1))
                oneByOne["key\(i)"] = position(i + 1)
            }
            let before = appended
            appended.set(nested, under: "votes")
            for (key, at) in nested { oneByOne["votes." + key] = at }
            #expect(appended == oneByOne && appended.map(\.key) == oneByOne.map(\.key))
            #expect(appended.count == start + 20 && appended["votes.u19"] == position(29) && appended["votes.u20"] == nil)
            #expect(before.count == start && before["votes.u0"] == nil)
        }
        // A key spelt with the prefix already there: set again, not twice.
        var clash: Positions = ["votes.u3": position(1), "opened": position(2)]
        clash.set(nested, under: "votes")
        #expect(clash.count == 21 && clash["votes.u3"] == position(13) && clash.map(\.key).first == "votes.u3")
        // Nothing nested: nothing set.
        var empty: Positions = ["opened": position(2)]
        empty.set(Positions(), under: "votes")
        #expect(empty == ["opened": position(2)])
    }

    /// A copy of positions past a few keys (held through an index) is changed on its own.
    @Test func aCopyOfIndexedPositionsChangesAlone() {
        var original = Positions()
        for i in 0..<20 { original["for.\(i)"] = TextPosition(line: i + 1, column: 3) }
        var copy = original
        copy["for.20"] = TextPosition(line: 21, column: 3)
        copy["for.0"] = nil
        #expect(original.count == 20 && original["for.20"] == nil && original["for.0"] == TextPosition(line: 1, column: 3))
        #expect(copy.count == 20 && copy["for.20"] == TextPosition(line: 21, column: 3) && copy["for.0"] == nil)
    }

    /// The tests' encoding of positions: "key line column" lines, a set a range of them, set one
    /// by one in order (a key met again takes the later position), as a cache's decoder must.
    @Sendable static func decodeLines(_ bytes: [UInt8], _ range: Range<Int>) -> Positions {
        var positions = Positions()
        for line in String(decoding: bytes[range], as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            positions[String(fields[0])] = TextPosition(line: Int(fields[1]) ?? 0, column: Int(fields[2]) ?? 0)
        }
        return positions
    }

    /// Positions a cache keeps encoded answer as the ones their bytes decode to: the same keys
    /// in the same order, equal and hashed alike, and a change makes them pairs of their own
    /// without touching the table's other sets. A key met twice takes the later position.
    @Test func encodedPositionsActAsTheDecodedOnes() {
        let text = "voter 1 8\nfor.0 3 5\ncast 2 7\nfor.0 4 5\n"
        let bytes = Array(text.utf8)
        let firstTwo = 0..<20, all = 0..<bytes.count
        let sets = EncodedPositions(bytes: bytes, ranges: [firstTwo, all, 0..<0], decode: Self.decodeLines).sets
        #expect(sets.count == 3)
        let expected: Positions = ["voter": TextPosition(line: 1, column: 8), "for.0": TextPosition(line: 3, column: 5)]
        #expect(sets[0] == expected && expected == sets[0] && sets[0].hashValue == expected.hashValue)
        #expect(sets[0].map(\.key) == ["voter", "for.0"] && sets[0].count == 2 && sets[0]["for.0"] == TextPosition(line: 3, column: 5))
        #expect(sets[1].count == 3 && sets[1]["for.0"] == TextPosition(line: 4, column: 5) && sets[1].map(\.key) == ["voter", "for.0", "cast"])
        #expect(sets[1] == Self.decodeLines(bytes, all) && sets[1].hashValue == Self.decodeLines(bytes, all).hashValue)
        #expect(sets[2].isEmpty && sets[2] == Positions())
        var changed = sets[0]
        changed["cast"] = TextPosition(line: 9, column: 9)
        #expect(changed.count == 3 && changed["voter"] == TextPosition(line: 1, column: 8) && changed != sets[0])
        #expect(sets[0] == expected)
        var removed = sets[1]
        removed["cast"] = nil
        #expect(removed == ["voter": TextPosition(line: 1, column: 8), "for.0": TextPosition(line: 4, column: 5)])
        var moved = sets[1]
        moved["voter"] = TextPosition(line: 5, column: 1)
        #expect(moved.count == 3 && moved["voter"] == TextPosition(line: 5, column: 1) && moved.map(\.key) == ["voter", "for.0", "cast"])
        #expect(sets[1]["voter"] == TextPosition(line: 1, column: 8))
    }

    /// An encoded set past a few keys decodes to positions found through an index: equal to
    /// and hashed as the same keys set one by one, and changed (a key added, one moved) as they are.
    @Test func manyEncodedPositionsActAsTheDecodedOnes() {
        let text = (0..<40).map { "for.\($0) \($0 + 1) 3\n" }.joined()
        let bytes = Array(text.utf8)
        let encoded = EncodedPositions(bytes: bytes, ranges: [0..<bytes.count], decode: Self.decodeLines).sets[0]
        var plain = Positions()
        for i in (0..<40).reversed() { plain["for.\(i)"] = TextPosition(line: i + 1, column: 3) }
        #expect(encoded == plain && plain == encoded && encoded.hashValue == plain.hashValue)
        #expect(encoded.count == 40 && encoded["for.39"] == TextPosition(line: 40, column: 3) && encoded["for.40"] == nil)
        var changed = encoded
        changed["for.40"] = TextPosition(line: 41, column: 3)
        changed["for.0"] = TextPosition(line: 9, column: 9)
        #expect(changed.count == 41 && changed["for.40"] == TextPosition(line: 41, column: 3))
        #expect(changed["for.0"] == TextPosition(line: 9, column: 9) && changed["for.1"] == TextPosition(line: 2, column: 3))
        #expect(encoded.count == 40 && encoded["for.0"] == TextPosition(line: 1, column: 3), "the table's set is left as it was")
    }
}
