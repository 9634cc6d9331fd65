#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore

/// The paths of an inventory (`FileInventory.paths`: each followed by a NUL, one buffer), found
/// by their bytes, where they are: no `String` is made for a path, none retained to compare.
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
struct PathIndex: Sendable {
    /// The fewest slots an index has.
    static let minimumCapacity = 8
    /// The part of a hash a slot keeps beside the entry's number.
    private static let tagBits: UInt64 = 0xFFFF_FFFF_0000_0000

    private let paths: [UInt8]
    /// Where each entry's path starts in `paths`; one more at the end, past the last NUL.
    private let starts: [Int]
    private let slots: [UInt64]
    private let seed: Int

    /// The entries of `paths` (`count` NUL-terminated paths) for which `including` is true,
    /// hashed from `seed` (tests give one, to make paths whose hashes share their upper half).
    /// Entries past the 4,294,967,294th are left out, as a slot numbers them in 32 bits.
    init(_ paths: [UInt8], count: Int, seed: Int = .random(in: .min ... .max), including: (Int) -> Bool) {
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        starts.append(0)
        paths.withUnsafeBufferPointer { bytes in FileInventory.forEachNUL(in: bytes) { starts.append($0 + 1) } }
        let entries = min(count, starts.count - 1, Int(UInt32.max) - 1)
        var capacity = Self.minimumCapacity
        while capacity * 3 < entries * 4 { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        paths.withUnsafeBufferPointer { bytes in
            for entry in 0..<entries where including(entry) {
                let hash = Self.hash(UnsafeBufferPointer(rebasing: bytes[starts[entry]..<(starts[entry + 1] - 1)]), seed: seed)
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = hash & Self.tagBits | UInt64(entry + 1)
            }
        }
        (self.paths, self.starts, self.slots, self.seed) = (paths, starts, slots, seed)
    }

    /// The number of the included entry whose path is `path`'s bytes, if any.
    func entry(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(path, seed: seed)
        let mask = slots.count - 1
        return paths.withUnsafeBufferPointer { bytes -> Int? in
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let held = slots[slot]
                if held == 0 { return nil }
                if held & Self.tagBits == hash & Self.tagBits {
                    let entry = Int(held & ~Self.tagBits) - 1
                    let start = starts[entry], count = starts[entry + 1] - 1 - start
                    if count == path.count, Self.same(bytes, at: start, path) { return entry }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The number of the included entry whose path is `path`, compared by its UTF-8 bytes.
    func entry(_ path: String) -> Int? {
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
