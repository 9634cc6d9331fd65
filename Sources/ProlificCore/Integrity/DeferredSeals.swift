import Synchronization

/// The files of a kept project's seals, packed (`Seal.PackedFiles`) one seal after another in
/// its cache entry's second part and read from there only when a seal's files are asked for.
///
/// A rebuild decodes every kept project and looks at none of their seals' files: `check` uses
/// no cache, a round page shows only their count, and the stamp takes the sealed files of a
/// kept project found as recorded as the last build vouched for them (only a build without a
/// stamp it can use asks for every kept project's, each project's read on one thread). Copied out
/// of each entry's first part they were 14 MB of the large benchmark's 33.5 MB of first parts,
/// read, checked and copied at every rebuild (docs/performance-log.md). The packed bytes are read
/// once, on the first ask, by `load`; a seal whose bytes can't be read or don't hold its files
/// (the entry was replaced or damaged meanwhile) takes them from what `fromFiles` reads once,
/// every sealed round's files as the project's round.md files record them then, and none if
/// the project no longer reads: its count (`Seal.fileCount`) is still the entry's. Safe to ask
/// from any thread; a second asker waits for the first's loading.
public final class DeferredSeals: Sendable {
    /// Where one seal's files are among the packed bytes, how many they are, and its round.
    public struct Place: Sendable, Equatable {
        public var round: RoundNumber
        public var bytes: Range<Int>
        public var count: Int

        public init(round: RoundNumber, bytes: Range<Int>, count: Int) {
            (self.round, self.bytes, self.count) = (round, bytes, count)
        }
    }

    private let places: [Place]
    private let load: @Sendable () -> [UInt8]?
    private let fromFiles: @Sendable () -> [RoundNumber: [Seal.File]]
    private let loaded = Mutex(Loaded())

    /// What was read so far.
    private struct Loaded {
        /// The packed bytes: `.some(nil)` when they couldn't be read.
        var packed: [UInt8]??
        /// The files as round.md records them, once a seal needed them.
        var fromFiles: [RoundNumber: [Seal.File]]?
    }

    public init(
        places: [Place], load: @escaping @Sendable () -> [UInt8]?,
        fromFiles: @escaping @Sendable () -> [RoundNumber: [Seal.File]]
    ) {
        (self.places, self.load, self.fromFiles) = (places, load, fromFiles)
    }

    /// How many files seal `index` lists, without reading them.
    func fileCount(of index: Int) -> Int { places.indices.contains(index) ? places[index].count : 0 }

    /// Seal `index`'s files as packed in the entry; nil when they can't be read or are not whole.
    func packed(_ index: Int) -> Seal.PackedFiles? {
        guard places.indices.contains(index) else { return nil }
        let place = places[index]
        let bytes = loaded.withLock { loaded -> [UInt8]? in
            if loaded.packed == nil { loaded.packed = .some(load()) }
            return loaded.packed ?? nil
        }
        guard let bytes, place.bytes.lowerBound >= 0, place.bytes.upperBound <= bytes.count else { return nil }
        return Seal.PackedFiles(bytes: Array(bytes[place.bytes]), count: place.count)
    }

    /// Seal `index`'s files: from the entry, or else from its round.md as it is now.
    func files(of index: Int) -> [Seal.File] {
        guard places.indices.contains(index) else { return [] }
        if let packed = packed(index) { return packed.files }
        let round = places[index].round
        return loaded.withLock { loaded in
            if loaded.fromFiles == nil { loaded.fromFiles = fromFiles() }
            return loaded.fromFiles?[round] ?? []
        }
    }
}
