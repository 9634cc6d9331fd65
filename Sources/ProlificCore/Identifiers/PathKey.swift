/// A path's bytes as a dictionary or set key, hashed in one pass over its bytes (other bytes
/// too: a project cache's sets of positions, `PositionsTable`).
///
/// An `[UInt8]` key is hashed a byte at a time (`Hasher.combine` for each element): over the
/// 372,000 paths of the large benchmark's content, inserting and looking them up that way took
/// twice as long as hashing each path's bytes at once.
public struct PathKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public init(_ path: String) { bytes = Array(path.utf8) }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// What a `Dictionary` or `Set` of paths hashes with (`KeyHash`).
    public func _rawHashValue(seed: Int) -> Int {
        bytes.withUnsafeBufferPointer { KeyHash.hash($0, seed: seed) }
    }

    public static func == (a: PathKey, b: PathKey) -> Bool { a.bytes == b.bytes }
}
