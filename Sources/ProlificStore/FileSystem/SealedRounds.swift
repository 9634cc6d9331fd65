import ProlificCore

/// The files whose round's seal vouches for them, so that a build checks them by their folders'
/// times alone (`vouchesFor`).
///
/// A sealed file can't change without `check` reporting it as an error: round.md records the
/// SHA-256 of every file in the round's folder when it closed (`RoundSeal`). Whatever replaces,
/// adds, removes or renames a file (git, `prolific`, rsync, `sed -i`, editors that save by
/// renaming) moves its folder's times, which are still stat-ed; only an edit in place leaves
/// them, and for a sealed file that is tampering with a closed round. Only the files the seal
/// lists are vouched for: a file added after the close is only a warning to `check`, so it is
/// stat-ed like any other. Stat-ing the 250,000 sealed files of the large benchmark's 18,000
/// closed rounds was more than half of a build that found nothing to do. The decision is written
/// down in `docs/maintaining.md` ("Publishing"). A rebuild checks the projects it keeps the
/// same way (`RecordedParts`): such an edit is read once its project is read again (anything
/// else in it changes, another binary) or by a build from nothing.
///
/// The `votes/` folder of a round whose ballots a build counts from its record
/// (`Round.countsRecord`) is vouched for too (`vouchesForFolder`): a build never lists it, and
/// neither a `close` nor the history reads it (`HistoryCache.Stamp.asKept(for:)`), so nothing
/// a build makes changes with it. A rebuild then doesn't stat it in the projects it keeps, nor
/// does a build that finds nothing to do; `check` still reads every ballot in it.
public struct SealedRounds: Sendable, Equatable {
    /// Each sealed round by its folder under `projects/` (`<slug>/rounds/<NNNN>`): the paths its
    /// seal lists, relative to that folder.
    private let rounds: [[UInt8]: Listed]

    /// A seal's paths in byte order, one after the other: one allocation a round rather than
    /// one a file (there are 250,000 of them on large).
    struct Listed: Equatable {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        /// Whether a build counts the round's record instead of its ballot files.
        var countsRecord = false

        init(_ paths: [String], countsRecord: Bool = false) {
            self.countsRecord = countsRecord
            // `close` lists a seal's files sorted by path (byte order for the names content
            // uses): they are then copied as they come, without an array of each path's bytes
            // to sort (250,000 on large).
            let inOrder = zip(paths, paths.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let sorted = inOrder ? paths : paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            bytes.reserveCapacity(sorted.reduce(0) { $0 + $1.utf8.count })
            ends.reserveCapacity(sorted.count)
            for path in sorted {
                bytes += path.utf8
                ends.append(bytes.count)
            }
        }

        func contains(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
            var (low, high) = (0, ends.count)
            while low < high {
                let middle = (low + high) / 2
                let listed = bytes[(middle == 0 ? 0 : ends[middle - 1])..<ends[middle]]
                if listed.elementsEqual(path) { return true }
                if listed.lexicographicallyPrecedes(path) { low = middle + 1 } else { high = middle }
            }
            return false
        }
    }

    /// No sealed round listed: no file is vouched for by these, though an inventory's entries
    /// taken as the last stamp recorded them keep what it vouched for (`FileInventory.encode`).
    public static let empty = SealedRounds(rounds: [:])

    private init(rounds: [[UInt8]: Listed]) {
        self.rounds = rounds
    }

    /// Rounds by their folders under `projects/` (`<slug>/rounds/<NNNN>`), each with the paths
    /// its seal lists; those in `countingRecords` are counted from their record.
    init(listing: [(folder: String, paths: [String])], countingRecords: Set<String> = []) {
        var rounds: [[UInt8]: Listed] = [:]
        rounds.reserveCapacity(listing.count)
        for (folder, paths) in listing {
            rounds[Array(folder.utf8)] = Listed(paths, countsRecord: countingRecords.contains(folder))
        }
        self.init(rounds: rounds)
    }

    /// The closed rounds of `content` that have a seal (`close` records one), with its files.
    public init(_ content: Content) {
        self.init(content, of: { _ in true })
    }

    /// The same for the projects `included` says, such as those an inventory didn't take as
    /// recorded with what the last stamp vouched for (`FileInventory.isAsRecorded(_:)`).
    public init(_ content: Content, of included: (Slug) -> Bool) {
        // Read in place, by index: `compactMap` over the rounds copied each one whole.
        var rounds: [[UInt8]: Listed] = [:]
        let projects = content.projects
        for p in projects.indices where included(projects[p].slug) {
            for r in projects[p].rounds.indices where projects[p].rounds[r].closed != nil {
                guard let files = projects[p].rounds[r].seal?.files else { continue }
                let folder = "\(projects[p].slug)/rounds/\(projects[p].rounds[r].number.folderName)"
                rounds[Array(folder.utf8)] = Listed(files.map(\.path), countsRecord: projects[p].rounds[r].countsRecord)
            }
        }
        self.init(rounds: rounds)
    }

    /// How many rounds are sealed.
    public var count: Int { rounds.count }
    public var isEmpty: Bool { rounds.isEmpty }

    /// Whether the entry at `path` (relative to the content directory, without a NUL) is a file
    /// its round's seal lists: `projects/<slug>/rounds/<NNNN>/<listed path>`. The caller says it
    /// is a regular file; a folder is vouched for only by `vouchesForFolder`.
    ///
    /// `last` keeps the round the previous call found: a round's entries come one after another.
    func vouchesFor(_ path: UnsafeBufferPointer<UInt8>, last: inout Cursor) -> Bool {
        guard !rounds.isEmpty, path.starts(with: Self.projects) else { return false }
        // `<slug>/rounds/<NNNN>`: up to the third slash after `projects/`.
        var slashes = 0, end = Self.projects.count
        while end < path.count {
            if path[end] == Self.slash {
                slashes += 1
                if slashes == 3 { break }
            }
            end += 1
        }
        guard slashes == 3 else { return false }
        let round = UnsafeBufferPointer(rebasing: path[Self.projects.count..<end])
        if !round.elementsEqual(last.round) {
            let key = Array(round)
            last = (key, rounds[key])
        }
        return last.listed?.contains(UnsafeBufferPointer(rebasing: path[(end + 1)...])) ?? false
    }

    /// Whether the entry at `path` (relative to the content directory, without a NUL), which the
    /// caller says is a folder, is the `votes/` folder of a round counted from its record:
    /// `projects/<slug>/rounds/<NNNN>/votes`.
    func vouchesForFolder(_ path: UnsafeBufferPointer<UInt8>, last: inout Cursor) -> Bool {
        guard !rounds.isEmpty, path.count > Self.projects.count + Self.votes.count, path.starts(with: Self.projects),
            UnsafeBufferPointer(rebasing: path[(path.count - Self.votes.count)...]).elementsEqual(Self.votes)
        else { return false }
        let round = UnsafeBufferPointer(rebasing: path[Self.projects.count..<(path.count - Self.votes.count)])
        // `<slug>/rounds/<NNNN>`: exactly two slashes.
        guard round.reduce(0, { $1 == Self.slash ? $0 + 1 : $0 }) == 2 else { return false }
        if !round.elementsEqual(last.round) {
            let key = Array(round)
            last = (key, rounds[key])
        }
        return last.listed?.countsRecord ?? false
    }

    /// What `vouchesFor` and `vouchesForFolder` keep between calls.
    typealias Cursor = (round: [UInt8], listed: Listed?)

    private static let projects = Array("projects/".utf8)
    private static let slash = UInt8(ascii: "/")
    private static let votes = Array("/votes".utf8)
}
