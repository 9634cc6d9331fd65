import Testing

@testable import ProlificCore

/// `KeyHash` and the keys hashed with it (`Handle`, `PathKey`): a dictionary finds every key it
/// holds and nothing else, every byte of a key counts, and equal keys hash alike however their
/// strings were made.
@Suite struct KeyHashTests {
    /// Handles of every length a handle may have, many sharing long prefixes.
    static let handles: [Handle] = (0..<6000).compactMap { n in
        Handle("u\(n)" + String(repeating: "x", count: n % 30) + "-\(n % 7)")
    }

    @Test func dictionaryOfHandlesFindsEachAndNoStranger() throws {
        let handles = Self.handles
        #expect(handles.count == 6000)
        let places = Dictionary(uniqueKeysWithValues: zip(handles, handles.indices))
        for (index, handle) in handles.enumerated() {
            #expect(places[handle] == index)
        }
        for stranger in ["u0x", "u1-1", "v0-0", "u6000-1"] {
            #expect(places[try #require(Handle(stranger))] == nil)
        }
        #expect(Set(handles).count == handles.count)
    }

    @Test func equalHandlesHashAlikeHoweverTheyWereMade() throws {
        let whole = "mary-jo-smith"
        let made = try #require(Handle(whole))
        let fromSubstring = try #require(Handle(whole.dropLast(0)))
        let built = try #require(Handle(["mary", "jo", "smith"].joined(separator: "-")))
        for seed in [0, 1, -7, Int.max] {
            #expect(made._rawHashValue(seed: seed) == fromSubstring._rawHashValue(seed: seed))
            #expect(made._rawHashValue(seed: seed) == built._rawHashValue(seed: seed))
        }
        #expect(made.hashValue == built.hashValue)
    }

    /// Changing any one byte of a key, or its length alone (a trailing zero byte), changes its
    /// hash: a hash that skipped the last partial word, or left out the length, fails here.
    @Test(arguments: [1, 7, 8, 9, 15, 16, 17, 39, 64])
    func everyByteAndTheLengthCount(_ length: Int) {
        let key = (0..<length).map { UInt8(97 + $0 % 26) }
        let seed = 0x5EED
        let hash = key.withUnsafeBufferPointer { KeyHash.hash($0, seed: seed) }
        for place in key.indices {
            var changed = key
            changed[place] ^= 1
            #expect(changed.withUnsafeBufferPointer { KeyHash.hash($0, seed: seed) } != hash, "byte \(place)")
        }
        let longer = key + [0]
        #expect(longer.withUnsafeBufferPointer { KeyHash.hash($0, seed: seed) } != hash)
        #expect(key.withUnsafeBufferPointer { KeyHash.hash($0, seed: seed + 1) } != hash, "the seed counts")
    }

    @Test func pathKeysFindEachPath() {
        let paths = (0..<3000).map { PathKey("projects/p\($0 % 300)/rounds/\($0 / 300).html") }
        let set = Set(paths)
        #expect(set.count == 3000)
        #expect(paths.allSatisfy(set.contains))
        #expect(!set.contains(PathKey("projects/p0/rounds/10.html")))
        #expect(PathKey("a/b")._rawHashValue(seed: 3) == PathKey(Array("a/b".utf8))._rawHashValue(seed: 3))
    }
}
