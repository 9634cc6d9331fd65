import ProlificCore
import Testing

@Suite struct SealCheckTests {
    let a = Seal.File(path: "submissions/ann-20261102101500.md", digest: String(repeating: "a", count: 64))
    let b = Seal.File(path: "votes/bob.yml", digest: String(repeating: "b", count: 64))

    @Test func manifestIsSha256sumFormatSortedByPath() {
        #expect(Seal.manifest([b, a]) == "\(a.digest)  \(a.path)\n\(b.digest)  \(b.path)\n")
    }

    /// Packed files come back as they were, in order, and make the same seal; what can't be
    /// packed (a digest that is not lowercase hex SHA-256, a path over 255 bytes) is not, and
    /// bytes that are not exactly the files they claim are refused.
    @Test func filesPackedComeBackAsTheyWere() throws {
        let digits = Seal.File(path: "votes/cat.yml", digest: "0123456789abcdef" + String(repeating: "f0", count: 24))
        let packed = try #require(Seal.PackedFiles([a, b, digits]))
        #expect(packed.count == 3 && packed.bytes.count == 3 * 33 + a.path.utf8.count + b.path.utf8.count + digits.path.utf8.count)
        #expect(packed.files == [a, b, digits] && packed.files.map(\.digest) == [a.digest, b.digest, digits.digest])
        let seal = Seal(digest: "d", packed: packed)
        #expect(seal == Seal(digest: "d", files: [a, b, digits]) && seal.fileCount == 3 && seal.packedFiles == packed)
        #expect(Seal.PackedFiles([]).map { $0.count == 0 && $0.files.isEmpty } == true)

        #expect(Seal.PackedFiles([Seal.File(path: "votes/bob.yml", digest: String(repeating: "A", count: 64))]) == nil)
        #expect(Seal.PackedFiles([Seal.File(path: "votes/bob.yml", digest: "abc")]) == nil)
        #expect(Seal.PackedFiles([Seal.File(path: String(repeating: "x", count: 256), digest: a.digest)]) == nil)
        #expect(Seal(digest: "d", files: [Seal.File(path: "x", digest: "abc")]).packedFiles == nil)

        #expect(Seal.PackedFiles(bytes: packed.bytes, count: 3) == packed)
        #expect(Seal.PackedFiles(bytes: packed.bytes, count: 2) == nil)
        #expect(Seal.PackedFiles(bytes: packed.bytes, count: 4) == nil)
        #expect(Seal.PackedFiles(bytes: Array(packed.bytes.dropLast()), count: 3) == nil)
        #expect(Seal.PackedFiles(bytes: [200], count: 1) == nil)
        #expect(Seal.PackedFiles(bytes: [], count: -1) == nil)
    }

    @Test func anUnchangedFolderHasNoChanges() {
        #expect(SealCheck.changes(Seal(digest: "d", files: [a, b]), found: [b, a], manifestDigest: "d").isEmpty)
    }

    @Test func additionsEditsAndRemovalsAreNamedInPathOrder() {
        let edited = Seal.File(path: b.path, digest: String(repeating: "c", count: 64))
        let added = Seal.File(path: "votes/cat.yml", digest: b.digest)
        let changes = SealCheck.changes(Seal(digest: "d", files: [a, b]), found: [edited, added], manifestDigest: "d")
        #expect(changes == [.removed(a.path), .changed(b.path), .added(added.path)])
    }

    @Test func aListThatNoLongerMatchesItsDigestIsReported() {
        #expect(SealCheck.changes(Seal(digest: "d", files: [a]), found: [a], manifestDigest: "e") == [.listEdited])
    }

    /// The note points at the line round.md lists the file on, else at `sealed`.
    @Test func problemsNameTheFileAndPointAtTheSeal() {
        var origin = Origin(path: "C/projects/moon/rounds/0001/round.md")
        origin.positions["sealed"] = TextPosition(line: 9, column: 1)
        var listed = b
        listed.position = TextPosition(line: 12, column: 20)
        let round = Round(
            number: RoundNumber(1)!, opened: Timestamp(iso8601: "2026-11-01T00:00:00Z")!,
            closes: Timestamp(iso8601: "2026-11-08T00:00:00Z")!, closed: Timestamp(iso8601: "2026-11-08T00:00:00Z")!,
            seal: Seal(digest: "d", files: [a, listed]), origin: origin)
        let problems = SealCheck.problems(
            [.removed(a.path), .changed(b.path), .added("votes/cat.yml")], folder: "C/projects/moon/rounds/0001", round: round)
        #expect(
            problems.map(\.description) == [
                "C/projects/moon/rounds/0001/submissions/ann-20261102101500.md:1:1: error: removed after round 1 closed on 2026-11-08T00:00:00Z; it is sealed in round.md\nC/projects/moon/rounds/0001/round.md:9:1: note: sealed here when the round closed",
                "C/projects/moon/rounds/0001/votes/bob.yml:1:1: error: changed after round 1 closed on 2026-11-08T00:00:00Z: it no longer matches the SHA-256 sealed in round.md\nC/projects/moon/rounds/0001/round.md:12:20: note: sealed here when the round closed",
                "C/projects/moon/rounds/0001/votes/cat.yml:1:1: warning: added after round 1 closed on 2026-11-08T00:00:00Z: it is not part of the sealed round",
            ])
        // A position is not part of what a sealed file is.
        #expect(listed == b && Set([listed]).contains(b))
    }

    @Test func digestsAreLowercaseHexOfSixtyFourDigits() {
        #expect(Seal.isDigest(Substring(a.digest)))
        #expect(!Seal.isDigest(Substring(String(repeating: "A", count: 64))))
        #expect(!Seal.isDigest(Substring(String(repeating: "a", count: 63))))
    }
}
