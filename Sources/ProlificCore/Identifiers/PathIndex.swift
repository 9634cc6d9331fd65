#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths in one buffer, found by their bytes where they are: no `String` is made for a path,
/// none retained to compare. An inventory's paths (`FileInventory.paths`, each followed by a
/// NUL) and the pages' fingerprints (`PageFingerprints`, each path followed by its fingerprint)
/// are indexed so.
///
/// A rebuild of the large benchmark after a `close` looks up the site's 37,000 files by path
/// (`FileInventory.intactEntries`): a `Dictionary` keyed by `String`s made for it took 34–49 of
/// its 1,093–1,422 `perf` samples to fill, and its look-ups retained each key they compared.
/// Comparing bytes also keeps apart two names that differ only in Unicode normalization, which
/// are two files on ext4 but equal `String`s.
///
/// Open addressing, linear probing, at most three slots in four full: a slot holds the upper half
/// of its path's hash (`KeyHash`, from a seed drawn for each index, which content can't know)
/// and the entry's number plus one; 0 is an empty slot.
public struct PathIndex: Sendable {
    /// The fewest slots an index has.
    public static let minimumCapacity = 8
    /// The part of a hash a slot keeps beside the entry's number.
    private static let tagBits: UInt64 = 0xFFFF_FFFF_0000_0000

    private let paths: [UInt8]
    /// Where each entry starts in `paths`; one more at the end.
    private let starts: [Int]
    /// The bytes between the end of an entry's path and the next entry.
    private let trailing: Int
    private let slots: [UInt64]
    private let seed: Int

    /// The entries of `bytes` for which `including` is true: entry `i`'s path runs from
    /// `starts[i]` to `trailing` bytes before `starts[i + 1]` (the NUL or the fingerprint after
    /// it). Hashed from `seed` (tests give one, to make paths whose hashes share their upper
    /// half). Entries past the 4,294,967,294th are left out, as a slot numbers them in 32 bits.
    public init(
        _ bytes: [UInt8], starts: [Int], trailing: Int, seed: Int = .random(in: .min ... .max),
        including: (Int) -> Bool
    ) {
        let entries = min(max(starts.count - 1, 0), Int(UInt32.max) - 1)
        var capacity = Self.minimumCapacity
        while capacity * 3 < entries * 4 { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        bytes.withUnsafeBufferPointer { bytes in
            for entry in 0..<entries where including(entry) {
                let hash = Self.hash(UnsafeBufferPointer(rebasing: bytes[starts[entry]..<(starts[entry + 1] - trailing)]), seed: seed)
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = hash & Self.tagBits | UInt64(entry + 1)
            }
        }
        (self.paths, self.starts, self.trailing, self.slots, self.seed) = (bytes, starts, trailing, slots, seed)
    }

    /// The number of the included entry whose path is `path`'s bytes, if any.
    public func entry(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(path, seed: seed)
        let mask = slots.count - 1
        return paths.withUnsafeBufferPointer { bytes -> Int? in
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let held = slots[slot]
                if held == 0 { return nil }
                if held & Self.tagBits == hash & Self.tagBits {
                    let entry = Int(held & ~Self.tagBits) - 1
                    let start = starts[entry], count = starts[entry + 1] - trailing - start
                    if count == path.count, Self.same(bytes, at: start, path) { return entry }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The number of the included entry whose path is `path`, compared by its UTF-8 bytes.
    public func entry(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { entry($0) }
    }

    /// Whether the `path.count` bytes of `bytes` from `start` on, which must lie within it, are
    /// `path`'s.
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let held = bytes.baseAddress, let wanted = path.baseAddress else { return path.isEmpty }
        return memcmp(held + start, wanted, path.count) == 0
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: Int) -> UInt64 {
        UInt64(bitPattern: Int64(KeyHash.hash(bytes, seed: seed)))
    }
}
