import Testing

@testable import ProlificCore

/// `PageFingerprints` and its `Recorder`: what a build records is what a dictionary would hold
/// (the last fingerprint of each path, 16 bytes only), in the byte order of the paths, whether
/// an entry was the last build's, recorded again unchanged, or new.
@Suite struct PageFingerprintsTests {
    static func fingerprint(_ n: Int) -> [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: n &* 31 &+ $0) }
    }

    /// The paths, in the order `PageFingerprints` keeps them: their UTF-8 bytes.
    static func inByteOrder(_ paths: some Sequence<String>) -> [String] {
        paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func entries(_ fingerprints: PageFingerprints) -> [(String, [UInt8])] {
        var entries: [(String, [UInt8])] = []
        fingerprints.forEach { entries.append((String(decoding: $0, as: UTF8.self), Array($1))) }
        return entries
    }

    /// Records made over a previous build's entries, against a dictionary fed the same: some
    /// paths unchanged, some changed, some new, some left out, some recorded twice (with the
    /// same or another fingerprint, in either order), one of the wrong length; each with the
    /// entry it is thought to be at, right or wrong.
    @Test func aRecorderHoldsWhatADictionaryWould() {
        var generator = SystemRandomNumberGenerator()
        let paths =
            (0..<400).map { n in
                n % 5 == 0 ? "projects/p\(n)/index.html" : "projects/p\(n % 40)/rounds/\(n).html"
            } + [
                "a", "a/", "a.html", "a/index.html", "caf\u{E9}.html", "",
            ]
        for run in 0..<20 {
            var previous: [String: [UInt8]] = [:]
            for path in paths where Int.random(in: 0..<3, using: &generator) > 0 {
                previous[path] = Self.fingerprint(Int.random(in: 0..<3, using: &generator))
            }
            let last = PageFingerprints(previous)
            var recorder = PageFingerprints.Recorder(previous: last)
            var expected: [String: [UInt8]] = [:]
            for _ in 0..<(run * 30) {
                let path = paths.randomElement(using: &generator) ?? ""
                // Mostly what the last build recorded, when it recorded the path.
                let fingerprint =
                    Int.random(in: 0..<4, using: &generator) > 0
                    ? previous[path] ?? Self.fingerprint(7)
                    : Self.fingerprint(Int.random(in: 0..<3, using: &generator))
                // Where the path's entry is thought to be: its own, none, another's or none at all.
                let hint =
                    [last.entry(path), nil, Int.random(in: -2..<(last.count + 2), using: &generator)]
                    .randomElement(using: &generator) ?? nil
                recorder.record(path, fingerprint, at: hint)
                expected[path] = fingerprint
            }
            recorder.record("short.html", [1, 2, 3])
            let finished = recorder.finished()
            #expect(finished.dictionary == expected, "run \(run)")
            #expect(
                Self.entries(finished).map(\.0) == Self.inByteOrder(expected.keys),
                "run \(run): in byte order")
            #expect(finished == PageFingerprints(expected))
            for path in paths {
                #expect(finished[path] == expected[path], "\(path)")
                #expect(
                    (finished.entry(path, recording: Self.fingerprint(7)) != nil) == (expected[path] == Self.fingerprint(7)),
                    "\(path)")
            }
        }
    }

    /// A path recorded again keeps its last fingerprint, whichever of the two was the last
    /// build's.
    @Test func theLastRecordOfAPathCounts() {
        let last = PageFingerprints(["a.html": Self.fingerprint(1), "b.html": Self.fingerprint(1)])
        var recorder = PageFingerprints.Recorder(previous: last)
        recorder.record("a.html", Self.fingerprint(1))
        recorder.record("a.html", Self.fingerprint(2))
        recorder.record("b.html", Self.fingerprint(2))
        recorder.record("b.html", Self.fingerprint(1))
        recorder.record("c.html", Self.fingerprint(2))
        recorder.record("c.html", Self.fingerprint(3))
        let finished = recorder.finished()
        #expect(
            finished.dictionary == [
                "a.html": Self.fingerprint(2), "b.html": Self.fingerprint(1), "c.html": Self.fingerprint(3),
            ])
        #expect(finished.count == 3)
    }

    /// Two paths that differ only in Unicode normalization are two files (ext4 compares bytes),
    /// each with its own fingerprint: as `String` keys of a dictionary they were one.
    @Test func pathsEqualOnlyAsUnicodeAreTwo() {
        let composed = "caf\u{E9}.html"
        let decomposed = "cafe\u{301}.html"
        #expect(composed == decomposed)
        var recorder = PageFingerprints.Recorder(
            previous: PageFingerprints([composed: Self.fingerprint(1)]))
        recorder.record(composed, Self.fingerprint(1))
        recorder.record(decomposed, Self.fingerprint(2))
        let finished = recorder.finished()
        #expect(finished.count == 2)
        #expect(
            finished[composed] == Self.fingerprint(1) && finished[decomposed] == Self.fingerprint(2))
        #expect(
            Self.entries(finished).map { Array($0.0.utf8) } == [
                Array(decomposed.utf8), Array(composed.utf8),
            ])
    }

    /// Entries as a stamp holds them are taken as they are when in order, put in order when
    /// not (the last of a path kept), and refused when they can't be cut into a path and a
    /// fingerprint each.
    @Test func entriesAreTakenInTheByteOrderOfTheirPaths() throws {
        func entries(_ list: [(String, Int)]) -> (bytes: [UInt8], starts: [Int]) {
            var bytes: [UInt8] = []
            var starts = [0]
            for (path, n) in list {
                bytes += Array(path.utf8) + Self.fingerprint(n)
                starts.append(bytes.count)
            }
            return (bytes, starts)
        }
        let inOrder = entries([
            ("A.html", 1), ("a", 2), ("a.html", 3), ("e\u{301}.html", 4), ("f.html", 5),
        ])
        let taken = try #require(PageFingerprints(entries: inOrder.bytes, starts: inOrder.starts))
        #expect(Self.entries(taken).map(\.0) == ["A.html", "a", "a.html", "e\u{301}.html", "f.html"])
        #expect(taken["e\u{301}.html"] == Self.fingerprint(4) && taken["\u{E9}.html"] == nil)
        let mixed = entries([("f.html", 5), ("a", 2), ("a", 6), ("A.html", 1)])
        let sorted = try #require(PageFingerprints(entries: mixed.bytes, starts: mixed.starts))
        #expect(
            Self.entries(sorted).map(\.0) == ["A.html", "a", "f.html"]
                && sorted["a"] == Self.fingerprint(6))
        #expect(PageFingerprints(entries: [], starts: [0]) == .empty)
        #expect(
            PageFingerprints(entries: inOrder.bytes, starts: [0, 10, inOrder.bytes.count]) == nil,
            "an entry shorter than a fingerprint")
        #expect(
            PageFingerprints(entries: inOrder.bytes, starts: [0, 30]) == nil, "not ending at the end")
        #expect(PageFingerprints(entries: inOrder.bytes, starts: []) == nil)
    }

    /// Looked up by bytes: a fingerprint of another length, a prefix or a longer path is not
    /// recorded; the empty table holds nothing.
    @Test func lookUpsFindOnlyWhatWasRecorded() {
        let fingerprints = PageFingerprints([
            "users/ann/index.html": Self.fingerprint(1), "short.html": [1, 2, 3],
        ])
        #expect(fingerprints.count == 1 && fingerprints["short.html"] == nil)
        #expect(fingerprints.entry("users/ann/index.html", recording: Self.fingerprint(1)) == 0)
        #expect(fingerprints.entry("users/ann/index.html", recording: Self.fingerprint(2)) == nil)
        #expect(fingerprints.entry("users/ann/index.html", recording: Array(Self.fingerprint(1).prefix(8))) == nil)
        #expect(
            fingerprints["users/ann/index.htm"] == nil && fingerprints["users/ann/index.html5"] == nil)
        #expect(PageFingerprints.empty.isEmpty && PageFingerprints.empty["a"] == nil)
    }
}
