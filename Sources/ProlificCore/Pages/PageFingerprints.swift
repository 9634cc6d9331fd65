#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each page's fingerprint by its path, as a build records them for the next one (`BuildStamp`
/// keeps them, `PageMemory` looks them up): one buffer of entries in the byte order of their
/// paths, each a path's UTF-8 followed by its 16-byte fingerprint, found by `PathIndex`.
///
/// A rebuild of the large benchmark keeps 37,000 of them. As a `[String: [UInt8]]` they were
/// decoded into as many strings and arrays, put into a new dictionary again as the pages came,
/// and sorted again to be saved, on one core at the end: in a rebuild after a `close`, 39–73 of
/// its 981–1,381 `perf` samples (eight runs), 21–37 since. Here the last build's buffer is copied
/// and indexed; a `Recorder` marks the entries recorded again unchanged and merges the few new
/// ones in.
public struct PageFingerprints: Sendable, Equatable {
    /// The bytes of a fingerprint; others are not recorded.
    public static let size = 16

    /// Entry after entry: a path's bytes, then its fingerprint's.
    private let bytes: [UInt8]
    /// Where each entry starts in `bytes`; one more at the end.
    private let starts: [Int]
    private let index: PathIndex

    public static let empty = PageFingerprints(sorted: [], starts: [0])

    /// Entries already in the byte order of their paths, each path once.
    private init(sorted bytes: [UInt8], starts: [Int]) {
        (self.bytes, self.starts) = (bytes, starts)
        index = PathIndex(bytes, starts: starts, trailing: Self.size) { _ in true }
    }

    /// The fingerprints of `dictionary` that are 16 bytes long.
    public init(_ dictionary: [String: [UInt8]]) {
        var recorder = Recorder()
        for (path, fingerprint) in dictionary { recorder.record(path, fingerprint) }
        self = recorder.finished()
    }

    /// Entries as a stamp holds them (`bytes` and `starts` as this type keeps them), put in the
    /// byte order of their paths if they are not, the last of any path recorded twice kept.
    /// nil when `starts` doesn't cut `bytes` into entries of a path and a fingerprint.
    public init?(entries bytes: [UInt8], starts: [Int]) {
        guard starts.first == 0, starts.last == bytes.count else { return nil }
        for entry in 0..<(starts.count - 1) where starts[entry + 1] - starts[entry] < Self.size {
            return nil
        }
        let sorted = bytes.withUnsafeBufferPointer { base in
            (1..<max(starts.count - 1, 1)).allSatisfy {
                Self.order(base, starts, $0 - 1, base, starts, $0) < 0
            }
        }
        guard !sorted else {
            self.init(sorted: bytes, starts: starts)
            return
        }
        var recorder = Recorder()
        for entry in 0..<(starts.count - 1) {
            recorder.record(bytes[starts[entry]..<starts[entry + 1]])
        }
        self = recorder.finished()
    }

    /// The same entries (each index is drawn from its own seed).
    public static func == (a: PageFingerprints, b: PageFingerprints) -> Bool {
        a.bytes == b.bytes && a.starts == b.starts
    }

    public var count: Int { starts.count - 1 }
    public var isEmpty: Bool { count == 0 }

    /// The fingerprint recorded for `path`, if any.
    public subscript(path: String) -> [UInt8]? { entry(path).map(fingerprint(at:)) }

    /// The number of `path`'s entry, if it has one.
    public func entry(_ path: String) -> Int? { index.entry(path) }

    /// The number of `path`'s entry, if it has one and its fingerprint is `fingerprint`
    /// (compared where it lies).
    public func entry(_ path: String, recording fingerprint: [UInt8]) -> Int? {
        guard fingerprint.count == Self.size, let entry = index.entry(path), matches(entry, fingerprint)
        else { return nil }
        return entry
    }

    /// The fingerprint of entry `entry`, which must be one of these.
    public func fingerprint(at entry: Int) -> [UInt8] {
        Array(bytes[(starts[entry + 1] - Self.size)..<starts[entry + 1]])
    }

    /// Calls `body` with each entry's path and fingerprint, in the byte order of the paths.
    public func forEach(_ body: (_ path: ArraySlice<UInt8>, _ fingerprint: ArraySlice<UInt8>) -> Void) {
        for entry in 0..<count {
            let end = starts[entry + 1]
            body(bytes[starts[entry]..<(end - Self.size)], bytes[(end - Self.size)..<end])
        }
    }

    /// Every entry, as a dictionary (for tests and for looking around).
    public var dictionary: [String: [UInt8]] {
        var dictionary: [String: [UInt8]] = [:]
        dictionary.reserveCapacity(count)
        forEach { path, fingerprint in
            dictionary[String(decoding: path, as: UTF8.self)] = Array(fingerprint)
        }
        return dictionary
    }

    /// Whether `entry` is an entry, of `path`.
    private func holds(_ path: UnsafeBufferPointer<UInt8>, at entry: Int) -> Bool {
        guard entry >= 0, entry < count, starts[entry + 1] - Self.size - starts[entry] == path.count
        else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            guard let held = bytes.baseAddress, let wanted = path.baseAddress else { return path.isEmpty }
            return memcmp(held + starts[entry], wanted, path.count) == 0
        }
    }

    /// Whether entry `entry`'s fingerprint is `fingerprint`'s 16 bytes.
    private func matches(_ entry: Int, _ fingerprint: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            fingerprint.withUnsafeBufferPointer { wanted in
                guard let held = bytes.baseAddress, let wanted = wanted.baseAddress else { return false }
                return memcmp(held + starts[entry + 1] - Self.size, wanted, Self.size) == 0
            }
        }
    }

    /// How entry `a` of `aBytes` and entry `b` of `bBytes` compare by their paths' bytes (a
    /// path before those it is a prefix of): negative, zero or positive.
    @inline(__always)
    fileprivate static func order(
        _ aBytes: UnsafeBufferPointer<UInt8>, _ aStarts: [Int], _ a: Int,
        _ bBytes: UnsafeBufferPointer<UInt8>, _ bStarts: [Int], _ b: Int
    ) -> Int {
        let aCount = aStarts[a + 1] - size - aStarts[a]
        let bCount = bStarts[b + 1] - size - bStarts[b]
        let shared = min(aCount, bCount)
        if shared > 0, let aBase = aBytes.baseAddress, let bBase = bBytes.baseAddress {
            let order = memcmp(aBase + aStarts[a], bBase + bStarts[b], shared)
            if order != 0 { return Int(order) }
        }
        return aCount - bCount
    }

    /// What a build records, page by page, for the next: the last build's entries recorded
    /// again unchanged are only marked, the others kept apart, and the two merged in order when
    /// the build is done. As with a dictionary, a path recorded twice keeps its last fingerprint.
    public struct Recorder: Sendable {
        private let previous: PageFingerprints
        /// By the previous entry: the number of the last record that found it unchanged, or 0.
        private var unchanged: [Int]
        /// The entries that differ from the previous ones, as `PageFingerprints` keeps them, each
        /// with the number of its record.
        private var added: [UInt8] = []
        private var addedStarts = [0]
        private var addedRecords: [Int] = []
        private var records = 0

        public init(previous: PageFingerprints = .empty) {
            self.previous = previous
            unchanged = [Int](repeating: 0, count: previous.count)
        }

        /// Records `fingerprint` for `path`; one of other than 16 bytes is not recorded. `entry`
        /// is where the previous fingerprints are thought to hold the same, to be checked there
        /// before `path` is looked up (37,000 kept pages of a large rebuild, looked up as they
        /// were kept).
        public mutating func record(_ path: String, _ fingerprint: [UInt8], at entry: Int? = nil) {
            guard fingerprint.count == size else { return }
            var path = path
            path.withUTF8 { path in
                records += 1
                if let entry = entry.flatMap({ previous.holds(path, at: $0) ? $0 : nil })
                    ?? previous.index.entry(path),
                    previous.matches(entry, fingerprint)
                {
                    unchanged[entry] = records
                    return
                }
                added.append(contentsOf: path)
                added += fingerprint
                addedStarts.append(added.count)
                addedRecords.append(records)
            }
        }

        /// Records an entry: a path's bytes followed by its fingerprint's.
        fileprivate mutating func record(_ entry: ArraySlice<UInt8>) {
            records += 1
            added += entry
            addedStarts.append(added.count)
            addedRecords.append(records)
        }

        /// Everything recorded, in the byte order of the paths.
        public func finished() -> PageFingerprints {
            let old = previous.bytes
            let oldStarts = previous.starts
            let kept = unchanged.indices.filter { unchanged[$0] > 0 }
            var bytes: [UInt8] = []
            var starts = [0]
            bytes.reserveCapacity(added.count + old.count)
            starts.reserveCapacity(addedRecords.count + kept.count + 1)
            added.withUnsafeBufferPointer { new in
                old.withUnsafeBufferPointer { old in
                    // The new entries in the order of their paths, each path's last record alone.
                    var fresh = Array(addedRecords.indices)
                    fresh.sort { a, b in
                        let byPath = PageFingerprints.order(new, addedStarts, a, new, addedStarts, b)
                        return byPath != 0 ? byPath < 0 : a < b
                    }
                    fresh = fresh.indices.compactMap { i in
                        i + 1 < fresh.count
                            && PageFingerprints.order(new, addedStarts, fresh[i], new, addedStarts, fresh[i + 1])
                                == 0
                            ? nil : fresh[i]
                    }
                    func append(_ source: UnsafeBufferPointer<UInt8>, _ sourceStarts: [Int], _ entry: Int) {
                        bytes.append(
                            contentsOf: UnsafeBufferPointer(
                                rebasing: source[sourceStarts[entry]..<sourceStarts[entry + 1]]))
                        starts.append(bytes.count)
                    }
                    // Merged; of a path in both, the one recorded last.
                    var (f, k) = (0, 0)
                    while f < fresh.count, k < kept.count {
                        let byPath = PageFingerprints.order(new, addedStarts, fresh[f], old, oldStarts, kept[k])
                        if byPath < 0 || byPath == 0 && addedRecords[fresh[f]] > unchanged[kept[k]] {
                            append(new, addedStarts, fresh[f])
                        } else {
                            append(old, oldStarts, kept[k])
                        }
                        if byPath <= 0 { f += 1 }
                        if byPath >= 0 { k += 1 }
                    }
                    for n in fresh[f...] { append(new, addedStarts, n) }
                    for entry in kept[k...] { append(old, oldStarts, entry) }
                }
            }
            return PageFingerprints(sorted: bytes, starts: starts)
        }
    }
}
