#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore

/// A derived cache of the voting history, in `.prolific/history.cache` inside the content
/// directory, so closing a round doesn't re-read every closed round of every project.
///
/// It is never the source of truth: each closed round it covers is listed with the stamps (size
/// and modification time) of its round.md and of its submissions and votes folders (not the votes
/// folder of a round whose record a build counts: `Stamp.asKept(for:)`). A stamp that differs, a
/// round missing, or a cutoff the cached history can't serve, and it is rebuilt from the files.
/// `check` never uses it. Edits in place that keep a folder's time (not what git or `prolific`
/// do) are tampering with closed rounds, which `check` reports.
public struct HistoryCache {
    static let magic: Int64 = 0x5052_4F4C_4849_5302  // "PROLHIS" v2
    static let file = ".prolific/history.cache"
    static let scanFile = ".prolific/scan.cache"

    /// What identifies a closed round's files on disk.
    struct Stamp: Equatable, Sendable {
        var round: [Int64]

        /// Whether a file of it changed too recently to vouch for anything (`Stamps.racy`).
        var isRacy: Bool { round.contains(Stamps.racy.round[0]) }
        /// Whether the first file stamped (round.md, or project.md) was there: a missing one is
        /// stamped -1, which stat never gives as a size.
        var hasFile: Bool { round.first != -1 }

        /// What stands for the votes folder of a round whose ballots are counted from its record:
        /// `stat` never gives a negative size.
        static let votesLeftOut: [Int64] = [-3, -3]

        /// The stamp of `round`'s folder (this one, as taken): without its votes folder when the
        /// round's ballots are counted from its record (`Round.countsRecord`). Nothing in that
        /// folder is read then, by a build, a `close` or the history, so a rebuild doesn't look at
        /// it in the projects it keeps (`SealedRounds`), and the stamps both take agree.
        func asKept(for round: Round) -> Stamp { round.countsRecord ? withoutVotes : self }

        /// The same stamp with its votes folder's part replaced by `votesLeftOut`.
        var withoutVotes: Stamp {
            guard round.count == 6 else { return self }
            return Stamp(round: Array(round[..<4]) + Self.votesLeftOut)
        }

        /// Whether the votes folder's part is `votesLeftOut`.
        var leavesVotesOut: Bool { round.count == 6 && round[4...].elementsEqual(Self.votesLeftOut) }
    }

    struct Entry: Equatable, Sendable {
        var slug: Slug
        var number: RoundNumber
        var closed: Timestamp
        var stamp: Stamp
    }

    /// The closed rounds the history covers, in replay order.
    var entries: [Entry]
    /// What the last scan saw of every round folder and project file, by "slug/NNNN" or "slug":
    /// its stamp, and the round's closing time or the project's start and owner, so an unchanged
    /// file is never parsed again.
    var scanned: [String: Scan] = [:]

    struct Scan: Equatable {
        var stamp: Stamp
        /// A round's `closed` (nil while open), or a project's `created`.
        var time: Timestamp?
        /// A project's owner.
        var owner: Handle?
    }
    /// The history of exactly those rounds (no projects recorded: they are counted at use).
    var history: VotingHistory

    /// The stamp of a round folder: round.md's size and time, and its two folders' times. When
    /// `seen` (what the last scan saw of it) left the votes folder out (`leavesVotesOut`) and the
    /// rest is the same, the round still counts its record: the stamp is `seen`, and the votes
    /// folder is not looked at (18,000 of them on large, at every `close`).
    static func stamp(_ layout: ContentLayout, _ slug: Slug, _ number: RoundNumber, seen: Stamp? = nil) -> Stamp {
        func times(_ path: String) -> [Int64] {
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1, -1] }
            return [Int64(info.st_size), FileSystem.nanoseconds(info.st_mtim)]
        }
        let round = times(layout.roundFile(slug, number)) + times(layout.submissionsFolder(slug, number))
        if let seen, seen.leavesVotesOut, seen.round.prefix(4).elementsEqual(round) { return seen }
        return Stamp(round: round + times(layout.votesFolder(slug, number)))
    }

    /// The stamp of one file: its size and modification time.
    static func stamp(file path: String) -> Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return Stamp(round: [-1, -1]) }
        return Stamp(round: [Int64(info.st_size), FileSystem.nanoseconds(info.st_mtim)])
    }

    /// The stamps of every project file and round folder, taken before a build reads the content:
    /// a file changed while the build reads it then shows up as changed to the next `close`,
    /// whichever of the two versions the build read.
    public struct Stamps: Sendable {
        var stamps: [String: Stamp] = [:]

        public static func take(_ layout: ContentLayout) -> Stamps {
            var result = Stamps()
            for entry in (try? FileSystem.list(layout.projectsFolder)) ?? [] where entry.kind == .directory {
                guard let slug = Slug(entry.name) else { continue }
                result.stamps[slug.rawValue] = stamp(file: layout.projectFile(slug))
                for folder in (try? FileSystem.list(layout.roundsFolder(slug))) ?? [] where folder.kind == .directory {
                    guard let number = RoundNumber(folderName: folder.name) else { continue }
                    result.stamps["\(slug)/\(number.folderName)"] = stamp(layout, slug, number)
                }
            }
            return result
        }

        /// The same stamps, read from the inventory a build takes anyway instead of stat-ing
        /// every round again. An entry the inventory recorded as racy (changed too recently to
        /// vouch for) gets a stamp no file has, so the next `close` reads its round again.
        public static func from(_ inventory: FileInventory) -> Stamps {
            // About one round for every 18 entries on the benchmark (its folder, round.md, its
            // two folders, 5 snippets, 9 ballots); the rest is room to spare.
            var gathered = Gathered(capacity: inventory.count / 16)
            inventory.forEachEntry { gathered.add($0, $1) }
            return gathered.stamps()
        }

        /// The stamps of the projects `slugs` names and their rounds only, read from their
        /// folders' entries in `inventory` (taken just now, as a build takes it) without passing
        /// over the others'; nil when one of those folders was not walked on its own.
        static func from(_ inventory: FileInventory, projects slugs: some Sequence<Slug>) -> Stamps? {
            var gathered = Gathered(capacity: 0)
            for slug in slugs {
                guard inventory.forEachEntry(under: "projects/\(slug)", { gathered.add($0, $1) }) else { return nil }
            }
            return gathered.stamps()
        }

        /// Each project's project.md and each round's three parts, gathered as the entries come,
        /// under keys made of the paths' own bytes: `<slug>`, and `<slug>/<NNNN>` as the stamps
        /// are keyed (a small string, not allocated, for a slug of up to ten characters). The
        /// first version split every path and kept every project's and round's entries by their
        /// whole paths, to look them up again: 0.16 s of a large rebuild after `close`, on its
        /// critical path.
        private struct Gathered {
            var projectFiles: [String: Stamp] = [:], roundParts: [String: [Stamp?]] = [:]
            var projects: [Slug] = []
            var rounds: [String] = []

            /// Room for `capacity` rounds.
            init(capacity: Int) { roundParts.reserveCapacity(capacity) }

            mutating func add(_ path: ArraySlice<UInt8>, _ stamp: (size: Int64, modified: Int64, isDirectory: Bool)?) {
                guard path.starts(with: Stamps.projectsPrefix) else { return }
                // The slashes of `projects/<slug>/rounds/<NNNN>/<name>`: most paths (snippets and
                // ballots) are deeper, and are passed over at their fifth.
                var slashes = (0, 0, 0, 0), count = 0
                for index in path.indices where path[index] == UInt8(ascii: "/") {
                    count += 1
                    switch count {
                    case 1: slashes.0 = index
                    case 2: slashes.1 = index
                    case 3: slashes.2 = index
                    case 4: slashes.3 = index
                    default: return
                    }
                }
                // A racy entry's kind is unknown: where a folder belongs, it is taken for one.
                let isFolder = stamp?.isDirectory ?? true
                let own = stamp.map { Stamp(round: [$0.size, $0.modified]) } ?? Stamps.racy
                func text(_ range: Range<Int>) -> String { String(decoding: path[range], as: UTF8.self) }
                let end = path.endIndex
                switch count {
                case 1 where isFolder:
                    if let slug = Slug(text((slashes.0 + 1)..<end)) { projects.append(slug) }
                case 2 where path[(slashes.1 + 1)...].elementsEqual(Stamps.projectFile):
                    projectFiles[text((slashes.0 + 1)..<slashes.1)] = own
                case 3 where isFolder && path[(slashes.1 + 1)..<slashes.2].elementsEqual(Stamps.rounds):
                    let folder = text((slashes.2 + 1)..<end)
                    if let slug = Slug(text((slashes.0 + 1)..<slashes.1)), RoundNumber(folderName: folder) != nil {
                        rounds.append(slug.rawValue + "/" + folder)
                    }
                case 4 where path[(slashes.1 + 1)..<slashes.2].elementsEqual(Stamps.rounds):
                    let name = path[(slashes.3 + 1)...]
                    guard let part = Stamps.roundParts.firstIndex(where: { name.elementsEqual($0) }) else { return }
                    let key = text((slashes.0 + 1)..<slashes.1) + "/" + text((slashes.2 + 1)..<slashes.3)
                    roundParts[key, default: [nil, nil, nil]][part] = own
                default:
                    break
                }
            }

            func stamps() -> Stamps {
                let missing = Stamp(round: [-1, -1])
                var result = Stamps()
                result.stamps.reserveCapacity(projects.count + rounds.count)
                for slug in projects { result.stamps[slug.rawValue] = projectFiles[slug.rawValue] ?? missing }
                // A round's key is `"\(slug)/\(number.folderName)"`: its folder's name is four digits.
                for key in rounds {
                    let parts = roundParts[key] ?? [nil, nil, nil]
                    result.stamps[key] = Stamp(round: parts.flatMap { ($0 ?? missing).round })
                }
                return result
            }
        }

        private static let projectsPrefix = Array("projects/".utf8)
        private static let projectFile = Array("project.md".utf8)
        private static let rounds = Array("rounds".utf8)
        /// A round's parts its stamp is made of, in order.
        private static let roundParts = [Array("round.md".utf8), Array("submissions".utf8), Array("votes".utf8)]
        /// What a racy entry is stamped with: `stat` never gives a negative size.
        static let racy = Stamp(round: [-2, -2])
    }

    /// How many of `content`'s closed rounds, in closing order, a saved history holds when a
    /// build saves it at `now`: those that closed before any tally `close` may still make can
    /// look. A round `close` tallies has its deadline as cutoff when that came first, and a
    /// history holding a round closed at or after a cutoff can't serve it: `close` then read
    /// every closed round again (2.88 s on large), and the build after it replayed the whole
    /// game. So rounds that closed at or after `now`, or after the earliest deadline of a round
    /// still open, are left to the rounds `close` reads on top of the history, but fewer than
    /// `lagLimit` of them (a `close` that reads that many saves the history again): a round left
    /// open long past its deadline would otherwise keep every later closing out of the history.
    /// Such a round, once more than that many others closed after its deadline, is closed as
    /// before: reading every closed round, once.
    public static func roundsKept(of content: Content, now: Timestamp) -> Int {
        var horizon = now
        var closings: [Timestamp] = []
        // By index: a copy of each round retained all it holds.
        for p in content.projects.indices {
            let rounds = content.projects[p].rounds
            for r in rounds.indices {
                if let closed = rounds[r].closed { closings.append(closed) } else if rounds[r].closes < horizon { horizon = rounds[r].closes }
            }
        }
        let before = closings.lazy.filter { $0 < horizon }.count
        return max(before, closings.count - (lagLimit - 1))
    }

    /// Saves the cache `close` would build, from content a build has read in full, unless the
    /// cache on disk already covers exactly those rounds: the next `close` then reads only the
    /// stamps. Rounds are recorded in the order `close` records them (closing time, slug, number),
    /// the first `kept` of them (`roundsKept(of:now:)`; all when nil). `stamps` were taken before
    /// the content was read; without a stamp for every project and round, nothing is saved.
    /// `replayed` gives the history of those rounds when the build's replay recorded it
    /// (`TallyTimeline.replayExplainedWithHistory(keeping:)`), or nil: only then are the rounds
    /// recorded here.
    public static func warm(
        from content: Content, stamps taken: Stamps, layout: ContentLayout, kept: Int? = nil,
        replayed: () -> VotingHistory? = { nil }
    ) {
        guard isUsable(layout) else { return }
        var entries: [Entry] = []
        var scanned: [String: Scan] = [:]
        for project in content.projects {
            guard let projectStamp = taken.stamps[project.slug.rawValue] else { return }
            scanned[project.slug.rawValue] = Scan(stamp: projectStamp, time: project.created, owner: project.owner)
            for round in project.rounds {
                let key = "\(project.slug)/\(round.number.folderName)"
                guard let roundStamp = taken.stamps[key]?.asKept(for: round) else { return }
                scanned[key] = Scan(stamp: roundStamp, time: round.closed)
                guard let closed = round.closed else { continue }
                entries.append(Entry(slug: project.slug, number: round.number, closed: closed, stamp: roundStamp))
            }
        }
        entries.sort { ($0.closed, $0.slug, $0.number) < ($1.closed, $1.slug, $1.number) }
        if let kept, kept < entries.count { entries.removeSubrange(max(kept, 0)...) }
        // A round stamped racy (changed less than 2 s before the build's inventory: a build right
        // after `close`) vouches for nothing, so no `close` could take a history that lists it:
        // it would record every round again (on the large benchmark, that `close` took 5.35 s
        // instead of 0.54 s). The history on disk is left as it is: after `close`, it lacks that
        // round (and any other closed since it was saved), which the next `close` reads
        // (`lagLimit`).
        // The history a replay hands over is saved even when the entries are the same: the one
        // saved may have been recorded from an earlier version of a round whose stamps didn't
        // move (an edit in place), or by another binary, and a build after `close` adds its
        // tallies to it (`history(of:leavingOut:)`). Otherwise only the entries are compared:
        // the history they stand for is derived from them.
        if !entries.contains(where: \.stamp.isRacy) {
            if let history = replayed() {
                HistoryCache(entries: entries, scanned: scanned, history: history).save(layout)
            } else if loadEntries(layout) != entries {
                HistoryCache(entries: entries, scanned: scanned, history: recorded(entries, of: content)).save(layout)
            }
        }
        if loadScan(layout) != scanned {
            HistoryCache(entries: [], scanned: scanned, history: VotingHistory()).saveScan(layout)
        }
    }

    /// The history file as saved (its rounds and the history they stand for, decoded), for
    /// `history(of:leavingOut:stamps:saved:)`: reading and decoding it needs no stamps, so a
    /// build after `close` does it while it derives the stamps (`Stamps.from`), on the other
    /// core. nil when the file is missing, damaged or cut short.
    public static func saved(_ layout: ContentLayout) -> Saved? {
        guard let (entries, history) = read(layout, keepingHistory: true), let history else { return nil }
        return Saved(entries: entries, history: history)
    }

    /// What `saved(_:)` read.
    public struct Saved: Sendable {
        let entries: [Entry]
        let history: VotingHistory
    }

    /// How many rounds a `close` may find closed since the saved history, and read from their
    /// files, before it saves the history again: 27 MB on large, which a build after each
    /// `close` used to save with the round `close` had just closed. Between saves, a `close`
    /// reads the few rounds the history lacks (a millisecond each) and a build records them from
    /// the content it read (`history(of:leavingOut:stamps:saved:)`).
    public static let lagLimit = 32

    /// Whether `close` saves the history it worked out: always when the saved one couldn't be
    /// taken (`isTaken` false: missing, damaged, or a round in it changed), else once it read
    /// `lagLimit` rounds or more that the saved one lacks.
    static func closeSaves(isTaken: Bool, roundsRead: Int) -> Bool {
        !isTaken || roundsRead >= lagLimit
    }

    /// The history `saved(_:)` read, when it covers the first of the closed rounds of `content`
    /// but those `added` names (by `IdentityEvidence.key`), in order, with the stamps `taken`
    /// gives them (before the content was read), followed by the rest of those rounds that closed
    /// before the earliest cutoff of the rounds `added`, recorded from `content`: the rounds
    /// closed since it was saved, which `close` leaves for later (`lagLimit`). The past a build
    /// adds the `added` rounds' tallies to (`TallyTimeline.replayAdding`, which records the
    /// rounds closed later as their cutoffs pass); nil when the saved history is not such a start.
    ///
    /// `saved` is consumed: its history is added to in place, not copied (27 MB on large).
    public static func history(
        of content: Content, leavingOut added: Set<String>, stamps taken: Stamps, saved: consuming Saved?
    ) -> VotingHistory? {
        guard let saved = consume saved else { return nil }
        var entries: [(entry: Entry, project: Int, round: Int)] = []
        // The rounds added are tallied against what closed before their cutoffs, the earliest first.
        var earliest: Timestamp?
        for p in content.projects.indices {
            let project = content.projects[p]
            for r in project.rounds.indices {
                guard let closed = project.rounds[r].closed else { continue }
                let number = project.rounds[r].number
                let key = "\(project.slug)/\(number.folderName)"
                guard !added.contains(key) else {
                    let cutoff = TallyContext.cutoff(of: project.rounds[r])
                    if earliest.map({ cutoff < $0 }) ?? true { earliest = cutoff }
                    continue
                }
                // A racy stamp vouches for nothing: the saved history may hold another version. A
                // missing or racy one matches no saved entry; such a round can only be read anew.
                let stamp = taken.stamps[key]?.asKept(for: project.rounds[r]) ?? Stamps.racy
                entries.append((Entry(slug: project.slug, number: number, closed: closed, stamp: stamp), p, r))
            }
        }
        entries.sort { ($0.entry.closed, $0.entry.slug, $0.entry.number) < ($1.entry.closed, $1.entry.slug, $1.entry.number) }
        if let earliest { entries.removeSubrange((entries.firstIndex { $0.entry.closed >= earliest } ?? entries.count)...) }
        guard saved.entries.count <= entries.count,
            zip(saved.entries, entries).allSatisfy({ $0 == $1.entry && !$0.stamp.isRacy })
        else { return nil }
        let covered = saved.entries.count
        var history = (consume saved).history
        for later in entries[covered...] { history.record(content.projects[later.project].rounds[later.round]) }
        return history
    }

    /// The rounds `entries` name, recorded in their order from `content`.
    private static func recorded(_ entries: [Entry], of content: Content) -> VotingHistory {
        var rounds: [String: Round] = [:]
        for project in content.projects {
            for round in project.rounds where round.closed != nil { rounds["\(project.slug)/\(round.number.folderName)"] = round }
        }
        var history = VotingHistory()
        for entry in entries {
            if let round = rounds["\(entry.slug)/\(entry.number.folderName)"] { history.record(round) }
        }
        return history
    }

    static func path(_ layout: ContentLayout) -> String { "\(layout.root)/\(file)" }

    /// Whether `.prolific/` may be used: not when it is a symbolic link, which a pull request could
    /// add to have `close` write the cache files wherever it points. The cache is only speed, so
    /// then it is neither read nor written.
    static func isUsable(_ layout: ContentLayout) -> Bool {
        !FileSystem.isSymlink("\(layout.root)/.prolific")
    }

    static func load(_ layout: ContentLayout) -> HistoryCache? {
        guard let saved = saved(layout) else { return nil }
        return HistoryCache(entries: saved.entries, scanned: loadScan(layout) ?? [:], history: saved.history)
    }

    /// The rounds the saved history covers, without keeping the history itself: a build
    /// compares them with the closed rounds it read, and most builds find them the same. The
    /// whole file is still read through, so a file cut short is no match.
    static func loadEntries(_ layout: ContentLayout) -> [Entry]? {
        read(layout, keepingHistory: false)?.entries
    }

    /// The history file's entries and, when `keepingHistory`, the history they stand for; nil
    /// when the file is missing, damaged or cut short.
    private static func read(
        _ layout: ContentLayout, keepingHistory keeping: Bool
    ) -> (entries: [Entry], history: VotingHistory?)? {
        guard isUsable(layout), let bytes = try? FileSystem.readBytes(path(layout), limit: 1 << 30) else { return nil }
        var r = BinaryReader(bytes)
        guard let entries = readEntries(&r), let handleCount = r.count(minimumSize: 8) else { return nil }
        var handles: [Handle] = []
        var karma: [Karma] = []
        for _ in 0..<handleCount {
            guard let text = r.string(), let handle = Handle(text), let s = r.integer(), let b = r.integer(),
                let w = r.integer(), let p = r.integer(), [s, b, w, p].allSatisfy(Self.isCount)
            else { return nil }
            if keeping {
                handles.append(handle)
                karma.append(Karma(snippets: Int(s), ballots: Int(b), wins: Int(w), projects: Int(p)))
            }
        }
        // The records are read in place once the rest is known to be whole: four numbers of 8
        // bytes each, handed to the history one by one (`Records`).
        guard let recordCount = r.count(minimumSize: Records.size), let recordBytes = r.skip(recordCount * Records.size),
            let strongCount = r.count(minimumSize: 8)
        else { return nil }
        var strong: [UInt64] = []
        for _ in 0..<strongCount {
            guard let key = r.unsigned() else { return nil }
            if keeping { strong.append(key) }
        }
        guard let rounds = r.integer(), r.isAtEnd else { return nil }
        // Every record is checked, its counts as it is read and its pair among the handles: by
        // the history as it takes them in (a pass of their own only when no history is wanted).
        let records = Records(count: recordCount)
        guard keeping else {
            let pairs = UInt64(handleCount)
            let whole = bytes.withUnsafeBytes {
                records.read(UnsafeRawBufferPointer(rebasing: $0[recordBytes])) { key, _, _, _ in key >> 32 < pairs && key & 0xFFFF_FFFF < pairs }
            }
            return whole ? (entries, nil) : nil
        }
        let snapshot = VotingHistory.Snapshot(handles: handles, records: [], karma: karma, strong: strong, roundsRecorded: Int(rounds))
        let history = bytes.withUnsafeBytes { all in
            VotingHistory(snapshot: snapshot, recordCount: recordCount) { add in
                records.read(UnsafeRawBufferPointer(rebasing: all[recordBytes]), add)
            }
        }
        guard let history else { return nil }
        return (entries, history)
    }

    /// The records of the history file: `count` of them, each its pair's key, chances, backs
    /// and expectation, 8 bytes each, least significant byte first (`BinaryWriter.integer`).
    struct Records {
        static let size = 32
        let count: Int

        /// Hands each record of `bytes` (exactly `count` of them) to `body`, until `body`
        /// returns false; whether every record was whole and handed over. A count outside what
        /// the history keeps, or an expectation negative or not finite, is no record: a file
        /// committed by a pull request is read like any other (`isCount`).
        func read(
            _ bytes: UnsafeRawBufferPointer, _ body: (_ key: UInt64, _ chances: Int, _ backs: Int, _ expected: Double) -> Bool
        ) -> Bool {
            guard bytes.count == count * Self.size else { return false }
            for start in stride(from: 0, to: bytes.count, by: Self.size) {
                func number(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + at, as: UInt64.self)) }
                let (key, chances, backs) = (number(0), Int64(bitPattern: number(8)), Int64(bitPattern: number(16)))
                let expected = Double(bitPattern: number(24))
                guard HistoryCache.isCount(chances), HistoryCache.isCount(backs), expected.isFinite, expected >= 0,
                    body(key, Int(chances), Int(backs), expected)
                else { return false }
            }
            return true
        }
    }

    /// Whether a number read from the file can be a count the history keeps: a file committed
    /// by a pull request is read like any other, and a negative count would trap where a replay
    /// encodes it (`UInt64(_:)`).
    private static func isCount(_ value: Int64) -> Bool { (0...Int64(Int32.max)).contains(value) }

    /// The magic number and the entries, from the start of the history file.
    private static func readEntries(_ r: inout BinaryReader) -> [Entry]? {
        guard r.integer() == magic, let entryCount = r.count(minimumSize: 40) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            guard let slugText = r.string(), let slug = Slug(slugText), let n = r.integer(), let number = RoundNumber(Int(n)),
                let closed = r.integer(), let stampCount = r.count(minimumSize: 8)
            else { return nil }
            var stamp: [Int64] = []
            for _ in 0..<stampCount {
                guard let v = r.integer() else { return nil }
                stamp.append(v)
            }
            entries.append(Entry(slug: slug, number: number, closed: Timestamp(secondsSinceEpoch: closed), stamp: Stamp(round: stamp)))
        }
        return entries
    }

    /// What the last scan saw, from its own small file: it changes with every close, the history
    /// only when rounds are added to it.
    static func loadScan(_ layout: ContentLayout) -> [String: Scan]? {
        guard isUsable(layout), let bytes = try? FileSystem.readBytes("\(layout.root)/\(scanFile)", limit: 1 << 30) else { return nil }
        var r = BinaryReader(bytes)
        guard r.integer() == magic else { return nil }
        guard let scanCount = r.count(minimumSize: 24) else { return nil }
        var scanned: [String: Scan] = [:]
        for _ in 0..<scanCount {
            guard let key = r.string(), let stampCount = r.count(minimumSize: 8) else { return nil }
            var stamp: [Int64] = []
            for _ in 0..<stampCount {
                guard let v = r.integer() else { return nil }
                stamp.append(v)
            }
            guard let time = r.integer(), let owner = r.string() else { return nil }
            scanned[key] = Scan(
                stamp: Stamp(round: stamp), time: time == Int64.min ? nil : Timestamp(secondsSinceEpoch: time),
                owner: owner.isEmpty ? nil : Handle(owner))
        }
        guard r.isAtEnd else { return nil }
        return scanned
    }

    /// Saves the scan table atomically; a failure to save only costs speed next time.
    func saveScan(_ layout: ContentLayout) {
        guard Self.isUsable(layout) else { return }
        var w = BinaryWriter()
        w.integer(Self.magic)
        w.integer(Int64(scanned.count))
        for (key, scan) in scanned.sorted(by: { $0.key < $1.key }) {
            w.string(key)
            w.integer(Int64(scan.stamp.round.count))
            for v in scan.stamp.round { w.integer(v) }
            w.integer(scan.time?.secondsSinceEpoch ?? Int64.min)
            w.string(scan.owner?.rawValue ?? "")
        }
        try? AtomicFile.write(bytes: w.bytes, to: "\(layout.root)/\(Self.scanFile)", durable: false)
    }

    /// Saves the history atomically; a failure to save only costs speed next time.
    func save(_ layout: ContentLayout) {
        guard Self.isUsable(layout) else { return }
        let snapshot = history.snapshotLeavingOutRecords
        // Sized exactly: grown by doubling, the buffer touched twice its final size in fresh
        // memory (27 MB on the large benchmark, where a new page is dear: docs/performance-log.md).
        var size = 8 * 6 + 8 * snapshot.strong.count + 32 * history.recordCount
        for e in entries { size += 8 * 4 + e.slug.rawValue.utf8.count + 8 * e.stamp.round.count }
        for handle in snapshot.handles { size += 8 * 5 + handle.rawValue.utf8.count }
        var w = BinaryWriter(capacity: size)
        w.integer(Self.magic)
        w.integer(Int64(entries.count))
        for e in entries {
            w.string(e.slug.rawValue)
            w.integer(Int64(e.number.value))
            w.integer(e.closed.secondsSinceEpoch)
            w.integer(Int64(e.stamp.round.count))
            for v in e.stamp.round { w.integer(v) }
        }
        w.integer(Int64(snapshot.handles.count))
        for (handle, karma) in zip(snapshot.handles, snapshot.karma) {
            w.string(handle.rawValue)
            for v in [karma.snippets, karma.ballots, karma.wins, karma.projects] { w.integer(Int64(v)) }
        }
        w.integer(Int64(history.recordCount))
        // Records in batches, each batch's numbers copied in at once (`integers`), rather than
        // each number appended a byte at a time (`integer`): 3.4 million numbers on large.
        var batch: [Int64] = []
        batch.reserveCapacity(4 * 512)
        func flush() {
            batch.withUnsafeBufferPointer { w.integers($0) }
            batch.removeAll(keepingCapacity: true)
        }
        history.forEachRecord { key, chances, backs, expected in
            batch.append(Int64(bitPattern: key))
            batch.append(Int64(chances))
            batch.append(Int64(backs))
            batch.append(Int64(bitPattern: expected.bitPattern))
            if batch.count == 4 * 512 { flush() }
        }
        flush()
        w.integer(Int64(snapshot.strong.count))
        for key in snapshot.strong { w.unsigned(key) }
        w.integer(Int64(snapshot.roundsRecorded))
        assert(w.bytes.count == size, "HistoryCache.save sized its buffer wrong")
        try? AtomicFile.write(bytes: w.bytes, to: Self.path(layout), durable: false)
    }
}
