import Glibc
import ProlificCore

/// The paths of an inventory (`FileInventory.paths`: each followed by a NUL, one buffer), found
/// by their bytes, where they are: no `String` is made for a path, none retained to compare.
///
/// A rebuild of the large benchmark looks up the site's 37,000 files by path
/// (`FileInventory.intactEntries`): a `Dictionary` keyed by `String`s made for it took 34–49 of
/// its 1,093–1,422 `perf` samples to fill, and its look-ups retained each key they compared.
/// Comparing bytes also keeps apart two names that differ only in Unicode normalization, which
/// are two files on ext4 but equal `String`s.
///
/// Open addressing, linear probing, at most three slots in four full: a slot holds the upper half
/// of its path's hash (`KeyHash`, from a seed drawn for each index, which content can't know)
/// and the entry's number.
struct PathIndex: Sendable {
    private let paths: [UInt8]
    /// Where each entry's path starts in `paths`; one more at the end, past the last NUL.
    private let starts: [Int]
    private let slots: [UInt64]
    private let seed: Int

    /// The entries of `paths` (`count` NUL-terminated paths) for which `including` is true,
    /// hashed from `seed` (tests give one, to make paths whose hashes share their upper half).
    init(_ paths: [UInt8], count: Int, seed: Int = .random(in: .min ... .max), including: (Int) -> Bool) {
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        starts.append(0)
        paths.withUnsafeBufferPointer { bytes in FileInventory.forEachNUL(in: bytes) { starts.append($0 + 1) } }
        let entries = min(count, starts.count - 1)
        var capacity = 8
        while capacity * 3 < entries * 4 { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        paths.withUnsafeBufferPointer { bytes in
            for entry in 0..<entries where including(entry) {
                let hash = Self.hash(bytes, starts[entry]..<(starts[entry + 1] - 1), seed: seed)
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(entry + 1)
            }
        }
        (self.paths, self.starts, self.slots, self.seed) = (paths, starts, slots, seed)
    }

    /// The number of the included entry whose path is `path`'s bytes, if any.
    func entry(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = KeyHash.hash(path, seed: seed)
        let mask = slots.count - 1
        return paths.withUnsafeBufferPointer { bytes -> Int? in
            var slot = Int(truncatingIfNeeded: UInt64(bitPattern: Int64(hash))) & mask
            while true {
                let held = slots[slot]
                if held == 0 { return nil }
                let entry = Int(held & 0xFFFF_FFFF) - 1
                if held & 0xFFFF_FFFF_0000_0000 == UInt64(bitPattern: Int64(hash)) & 0xFFFF_FFFF_0000_0000 {
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

    /// Whether `bytes` from `start` on begin with `path`'s bytes.
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let held = bytes.baseAddress, let wanted = path.baseAddress else { return path.isEmpty }
        return memcmp(held + start, wanted, path.count) == 0
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, seed: Int) -> UInt64 {
        UInt64(bitPattern: Int64(KeyHash.hash(UnsafeBufferPointer(rebasing: bytes[range]), seed: seed)))
    }
}
