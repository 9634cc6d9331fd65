#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Crypto
import ProlificCore
import Synchronization

/// What a folder held, entry by entry, with each entry's metadata: enough to tell later, by
/// reading the metadata again, whether anything in it changed.
///
/// An entry is its path, kind, inode, size, and modification and change times. The change time
/// (ctime) moves on every write and can't be set back (`touch -d` and `cp -p` set only mtime), and
/// a folder's times move when an entry is added, removed or renamed in it, so an unchanged
/// inventory means unchanged files. Checking stats the recorded paths, on every core, without
/// listing folders again, but for the files a round's seal lists, which a stamp marks to be
/// checked by their folders alone (`SealedRounds`). Links are recorded, never followed.
///
/// A file written in the same clock tick as the inventory could change again without its times
/// moving (git calls this "racily clean"): entries changed less than `racyWindow` before the
/// inventory was taken are recorded as changed, so the next check fails and takes a new one.
public struct FileInventory: Sendable, Equatable {
    /// Entries modified this close to the moment of the inventory never count as unchanged.
    static let racyWindow: Int64 = 2_000_000_000

    /// The folder, as given.
    public let root: String
    /// Names of top-level entries left out.
    let skipping: Set<String>
    /// Every entry's path relative to `root`, each followed by a NUL (so a path is ready for
    /// `lstat` once `root/` is put before it), in walk order.
    fileprivate(set) var paths: [UInt8] = []
    fileprivate(set) var stamps: [Stamp] = []
    /// Whether a round's seal vouched for each entry when the inventory was recorded (`encode`'s
    /// `sealed`; for a recorded round's `votes/` folder, its record), so that a later build
    /// checks it by its folders alone (`SealedRounds`). Only an inventory decoded from a stamp
    /// has them; left out of `==`, like `subtrees`.
    fileprivate(set) var vouched: [Bool] = []
    /// For an inventory a build took, the stamp's `vouched` of each entry taken as the last
    /// build recorded it (`RecordedParts`: a kept project's), nil for the others; empty when
    /// there are none. `encode` takes these as they are and asks its `sealed` rounds only
    /// about the rest: an unchanged project's seals are the ones that vouched then, and listing
    /// every sealed round of a large game (250,000 paths) was 4 % of a rebuild after a ballot.
    fileprivate(set) var vouchedAsRecorded: [Bool?] = []
    /// For an inventory decoded from a stamp, that stamp's encoding of it (`decoded(from:)`).
    fileprivate(set) var encoding: RecordedEncoding?
    /// Where each second-level folder walked on its own (`projects/<slug>`) sits in `paths` and
    /// `stamps`, by its path: see `subtreeKey(_:)`. Only an inventory just taken has them.
    private var subtrees: [String: Span] = [:]
    /// How many entries, and bytes of `paths`, the first two levels take (they come first, the
    /// folders walked on their own after): only an inventory just taken has it.
    private var head: (entries: Int, paths: Int)?

    /// Equal when they record the same entries (`subtrees` only indexes them, and `vouched` says
    /// how the next build checks them).
    public static func == (a: FileInventory, b: FileInventory) -> Bool {
        a.root == b.root && a.skipping == b.skipping && a.paths == b.paths && a.stamps == b.stamps
    }

    /// A folder's own entry and the entries under it, as index ranges into `stamps` and `paths`.
    private struct Span {
        var entry: Int
        var entryPath: Range<Int>
        var walked: Range<Int>
        var walkedPaths: Range<Int>
        /// Its `subtreeKey`, when the walker gave it with these entries (worked out from them,
        /// or the last build's for entries taken as it recorded them, `SubtreeKeys`): a build
        /// hashed every project's entries twice, to find its cache and for its pages' keys.
        var key: [UInt8]?
        /// A `subtreeDigest(_:leavingOut:)` the walker gave with them (the last build's, for
        /// entries taken as it recorded them), with the path it leaves out.
        var leftOut: SubtreeKeys.LeftOut?
        /// For entries taken as the last build recorded them, its stamp's encoding and where they
        /// were in it: `encode` copies their chunks.
        var recorded: (encoding: RecordedEncoding, entries: Range<Int>)?
    }

    /// An entry's metadata. The root folder itself is the first entry, with the empty path.
    struct Stamp: Equatable {
        var kind: Int64
        var inode: Int64
        var size: Int64
        var modified: Int64
        var changed: Int64

        /// What no entry ever has: a racy entry is recorded so.
        static let never = Stamp(kind: -1, inode: -1, size: -1, modified: -1, changed: -1)

        init(kind: Int64, inode: Int64, size: Int64, modified: Int64, changed: Int64) {
            (self.kind, self.inode, self.size, self.modified, self.changed) = (kind, inode, size, modified, changed)
        }

        init(_ info: stat) {
            self.init(
                kind: Int64(info.st_mode & S_IFMT), inode: Int64(bitPattern: UInt64(info.st_ino)), size: Int64(info.st_size),
                modified: FileSystem.nanoseconds(info.st_mtim), changed: FileSystem.nanoseconds(info.st_ctim))
        }

        var isDirectory: Bool { kind == Int64(S_IFDIR) }

        /// A `stat` holding these five numbers, the rest zero: `Stamp(_:)` gives this stamp back.
        /// nil for `never`, or a kind no file mode holds.
        var info: stat? {
            guard self != .never, let mode = mode_t(exactly: kind) else { return nil }
            func time(_ nanoseconds: Int64) -> timespec {
                // Floored: a time before 1970 has a negative second and a positive nanosecond.
                var (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
                if rest < 0 { (seconds, rest) = (seconds - 1, rest + 1_000_000_000) }
                return timespec(tv_sec: Int(seconds), tv_nsec: Int(rest))
            }
            var info = stat()
            info.st_mode = mode
            info.st_ino = ino_t(UInt64(bitPattern: inode))
            info.st_size = off_t(size)
            info.st_mtim = time(modified)
            info.st_ctim = time(changed)
            return info
        }

        /// Its five numbers, little-endian, for keys and digests.
        func append(to bytes: inout [UInt8]) {
            withUnsafeBytes(of: kind.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: inode.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: size.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: modified.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: changed.littleEndian) { bytes += $0 }
        }
    }

    public var count: Int { stamps.count }

    /// The inventory of `root` and everything under it, except the top-level entries named in
    /// `skipping` (`.prolific`, `.git`); nil if `root` or a folder under it can't be read.
    ///
    /// `guardingRacyWrites: false` is for a folder only this process wrote, just now (the built site).
    public static func take(of root: String, skipping: Set<String> = [], guardingRacyWrites: Bool = true) -> FileInventory? {
        take(of: root, skipping: skipping, racyAfter: guardingRacyWrites ? clock() - racyWindow : Int64.max)
    }

    /// The inventory, with every entry changed after `racyAfter` (nanoseconds since 1970) recorded as changed.
    ///
    /// Each second-level folder (`projects/<slug>`) is walked on its own core, by `walking` when
    /// given: it gets the folder's path and metadata (taken when its parent was listed) and gives
    /// the entries under it, as `walk` would take them (a build reads a project and records what
    /// it saw, `InventoryRecorder`, instead of stat-ing it all first), with their keys if it has
    /// them (`subtreeKey(path:own:part:)`, or the last build's for entries it took as recorded),
    /// or nil to have `walk` take them.
    static func take(
        of root: String, skipping: Set<String>, racyAfter: Int64,
        walking: (@Sendable (_ path: [UInt8], _ own: Stamp) -> (part: Part, keys: SubtreeKeys?)?)? = nil
    ) -> FileInventory? {
        var info = stat()
        guard lstat(root, &info) == 0, Stamp(info).isDirectory else { return nil }
        var inventory = FileInventory(root: root, skipping: skipping)
        // The root's times are never compared (`Encoded.areUnchanged`), so it is never racy.
        inventory.add([], Stamp(info), racyAfter: .max)
        // The first two levels in order, then each folder found there walked on its own core:
        // content is `projects/<slug>/…` and `users/…`, so the big subtrees spread evenly.
        var subtrees: [(path: [UInt8], entry: Int, entryPath: Range<Int>, stamp: Stamp)] = []
        guard let top = entries(of: root, []) else { return nil }
        let kept = top.filter { !skipping.contains(String(decoding: $0.0, as: UTF8.self)) }
        // The folders of the first level listed side by side: a large content's `users/` (5,000
        // files) and `projects/` (2,000 folders) were listed one after the other, each entry
        // stat-ed, on one core, before any project was read.
        let listed = Parallel.map(kept, batch: 1) { name, stamp in stamp.isDirectory ? entries(of: root, name) : [] }
        for ((name, stamp), second) in zip(kept, listed) {
            inventory.add(name, stamp, racyAfter: racyAfter)
            guard stamp.isDirectory else { continue }
            guard let second else { return nil }
            for (path, stamp) in second {
                let start = inventory.paths.count
                inventory.add(path, stamp, racyAfter: racyAfter)
                if stamp.isDirectory {
                    subtrees.append((path, inventory.stamps.count - 1, start..<inventory.paths.count, inventory.stamps.last ?? stamp))
                }
            }
        }
        inventory.head = (inventory.stamps.count, inventory.paths.count)
        let walked = Parallel.map(subtrees) { subtree -> (part: Part, keys: SubtreeKeys?)? in
            walking?(subtree.path, subtree.stamp) ?? walk(root, subtree.path, racyAfter: racyAfter).map { ($0.asPart, nil) }
        }
        var parts: [Part] = []
        parts.reserveCapacity(walked.count)
        for walked in walked {
            guard let part = walked?.part else { return nil }
            parts.append(part)
        }
        // Where each part goes: after the first two levels, in the folders' order.
        var starts: [(stamps: Int, paths: Int)] = []
        starts.reserveCapacity(parts.count)
        var (stampCount, pathCount) = (inventory.stamps.count, inventory.paths.count)
        for part in parts {
            starts.append((stampCount, pathCount))
            (stampCount, pathCount) = (stampCount + part.stamps.count, pathCount + part.paths.count)
        }
        inventory.stamps = joined(inventory.stamps, parts.map(\.stamps))
        inventory.paths = joined(inventory.paths, parts.map(\.paths))
        if parts.contains(where: \.isAsRecorded) {
            inventory.vouchedAsRecorded = joined(
                Array(repeating: nil, count: starts.first?.stamps ?? stampCount),
                parts.map { $0.isAsRecorded ? $0.vouched.map(Optional.some)[...] : Array(repeating: nil, count: $0.stamps.count)[...] })
        }
        for (i, subtree) in subtrees.enumerated() {
            let (part, keys) = (parts[i], walked[i]?.keys)
            let end = i + 1 < starts.count ? starts[i + 1] : (stamps: stampCount, paths: pathCount)
            inventory.subtrees[String(decoding: subtree.path, as: UTF8.self)] = Span(
                entry: subtree.entry, entryPath: subtree.entryPath, walked: starts[i].stamps..<end.stamps,
                walkedPaths: starts[i].paths..<end.paths, key: keys?.key,
                leftOut: keys?.leftOut, recorded: part.recorded.map { ($0, part.stamps.startIndex..<part.stamps.endIndex) })
        }
        return inventory
    }

    /// `head` followed by each of `parts`, copied on every core into memory allocated once. One
    /// core joining a large rebuild's 30 MB of paths and stamps alone, each new page of them
    /// faulted in, took 20 ms while the other idled.
    private static func joined<T>(_ head: [T], _ parts: [ArraySlice<T>]) -> [T] {
        var offsets: [Int] = []
        offsets.reserveCapacity(parts.count)
        var count = head.count
        for part in parts {
            offsets.append(count)
            count += part.count
        }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(from: head)
            _ = Parallel.map(Array(parts.indices), batch: 32) { i in
                parts[i].withUnsafeBufferPointer { part in
                    if let source = part.baseAddress { (base + offsets[i]).initialize(from: source, count: part.count) }
                }
            }
            initialized = count
        }
    }

    /// The metadata of each regular file right inside the top-level folder `folder` (`users`),
    /// by name, as its kind, inode, size, modification and change times; a racy file has none.
    /// nil for an inventory not just taken (its first two levels are not known apart).
    func fileStamps(in folder: String) -> [String: [Int64]]? {
        guard let head else { return nil }
        let prefix = Array((folder + "/").utf8)
        var found: [String: [Int64]] = [:]
        var start = 0, index = 0
        paths.withUnsafeBufferPointer { all in
            Self.forEachNUL(in: UnsafeBufferPointer(rebasing: all[..<head.paths])) { nul in
                defer { (start, index) = (nul + 1, index + 1) }
                let path = all[start..<nul]
                guard index > 0, index < head.entries, path.starts(with: prefix), !path.dropFirst(prefix.count).contains(UInt8(ascii: "/"))
                else { return }
                let stamp = stamps[index]
                guard stamp != .never, stamp.kind == Int64(S_IFREG) else { return }
                found[String(decoding: path.dropFirst(prefix.count), as: UTF8.self)] = [
                    stamp.kind, stamp.inode, stamp.size, stamp.modified, stamp.changed,
                ]
            }
        }
        return found
    }

    /// The entries under one second-level folder (`projects/<slug>`), as `take` joins them to
    /// an inventory: slices of the arrays they were taken into, or, for a part taken as the last
    /// build recorded it (`RecordedParts`), of that build's inventory. Copied out of it first,
    /// then into the new inventory, a large rebuild's kept projects took 25 MB of fresh pages
    /// twice.
    struct Part: Equatable, Sendable {
        var paths: ArraySlice<UInt8>
        var stamps: ArraySlice<Stamp>
        /// What the last stamp vouched for each entry, for a part taken as recorded; else empty.
        var vouched: ArraySlice<Bool> = []
        /// For a part taken as recorded, the encoding of the stamp it was recorded in, when
        /// known: its entries are `stamps`' indices there.
        var recorded: RecordedEncoding? = nil

        /// Whether it was taken as recorded, with the stamp's `vouched`.
        var isAsRecorded: Bool { !stamps.isEmpty && vouched.count == stamps.count }
    }

    /// This inventory's entries, as a part (`walk`'s, `InventoryRecorder`'s).
    var asPart: Part { Part(paths: paths[...], stamps: stamps[...], vouched: vouched[...]) }

    /// Whether the entries under the folder at `path` (`projects/<slug>`, walked on its own)
    /// were taken as the last build recorded them, with what its stamp vouched for.
    public func isAsRecorded(_ path: String) -> Bool {
        // Such a part's entries all have their flag; any other part's, none.
        guard let first = subtrees[path]?.walked.first, first < vouchedAsRecorded.count else { return false }
        return vouchedAsRecorded[first] != nil
    }

    /// Calls `body` with every entry but the root: its path relative to `root` and its stamp.
    private func forEachStamped(_ body: (ArraySlice<UInt8>, Stamp) -> Void) {
        var start = 0
        var index = 0
        paths.withUnsafeBufferPointer { bytes in
            Self.forEachNUL(in: bytes) { i in
                if index > 0 { body(paths[start..<i], stamps[index]) }
                index += 1
                start = i + 1
            }
        }
    }

    /// Calls `body` with every entry but the root: its path relative to `root`, and its size and
    /// modification time, or nil for an entry recorded as changed (racy).
    func forEachEntry(_ body: (ArraySlice<UInt8>, (size: Int64, modified: Int64, isDirectory: Bool)?) -> Void) {
        forEachStamped { path, stamp in body(path, stamp == .never ? nil : (stamp.size, stamp.modified, stamp.isDirectory)) }
    }

    /// `forEachEntry(_:)` for the folder at `path` (a second-level one walked on its own, such as
    /// `projects/moon`) and the entries under it, without passing over the others; false, and
    /// `body` never called, when the folder was not walked on its own (only an inventory just
    /// taken knows).
    func forEachEntry(
        under path: String, _ body: (ArraySlice<UInt8>, (size: Int64, modified: Int64, isDirectory: Bool)?) -> Void
    ) -> Bool {
        guard let span = subtrees[path] else { return false }
        func give(_ path: ArraySlice<UInt8>, _ stamp: Stamp) {
            body(path, stamp == .never ? nil : (stamp.size, stamp.modified, stamp.isDirectory))
        }
        // The folder's own path ends with its NUL, as every path does.
        give(paths[span.entryPath].dropLast(), stamps[span.entry])
        var start = span.walkedPaths.lowerBound, index = span.walked.lowerBound
        paths.withUnsafeBufferPointer { all in
            Self.forEachNUL(in: UnsafeBufferPointer(rebasing: all[span.walkedPaths])) { nul in
                let end = span.walkedPaths.lowerBound + nul
                give(paths[start..<end], stamps[index])
                (start, index) = (end + 1, index + 1)
            }
        }
        return true
    }

    /// A check that the entry at a path (relative to `root`) is still as recorded: there, of the
    /// same kind, inode, size and times (a racy or unrecorded entry never is), giving the
    /// metadata of one that is (the site's writer then links or leaves that file without looking
    /// at it again), and whether `spare`, the record of the site this one replaced, has the same
    /// file (inode) at that path.
    ///
    /// `lookingAhead` looks at the files in the moments a core is idle, from now on
    /// (`LookAhead`): an entry is then as it was when looked at, which may be before the check
    /// is asked for (the site is then taken as it was when the build began).
    public func intactEntries(
        spare: FileInventory? = nil, lookingAhead: Bool = false
    ) -> @Sendable (String) -> (info: stat, inSpare: Bool)? {
        // Looked at relative to the root, held open: the site's 37,000 kept files of a large
        // rebuild were each looked up from `/` by a path made for the purpose.
        let folder = OpenFolder(root)
        return intactEntries(
            spare: spare, in: folder, ahead: lookingAhead ? LookAhead.start(paths: paths, stamps: stamps, in: folder) : nil)
    }

    /// `intactEntries(spare:lookingAhead:)`, looking at entries in `folder` (the root, open),
    /// and taking what `ahead` found of those it looked at.
    func intactEntries(
        spare: FileInventory?, in folder: OpenFolder, ahead: LookAhead?
    ) -> @Sendable (String) -> (info: stat, inSpare: Bool)? {
        // Found by their bytes where they are (`PathIndex`): the root (entry 0) and racy entries
        // are never intact.
        let stamps = stamps
        let index = PathIndex(paths, count: stamps.count) { $0 > 0 && stamps[$0] != .never }
        var inSpare = [Bool](repeating: false, count: stamps.count)
        spare?.forEachStamped { path, stamp in
            guard stamp.kind == Int64(S_IFREG) else { return }
            path.withUnsafeBufferPointer { path in
                if let entry = index.entry(path), stamps[entry].inode == stamp.inode { inSpare[entry] = true }
            }
        }
        let ahead = ahead.map(LookAhead.Holder.init)
        return { [inSpare] path in
            guard let entry = index.entry(path) else { return nil }
            switch ahead?.lookAhead.look(entry) {
            case .intact(let info): return (info, inSpare[entry])
            case .changed: return nil
            case .notYet, nil: break
            }
            var info = stat()
            guard folder.metadata(of: path, into: &info), Stamp(info) == stamps[entry] else { return nil }
            return (info, inSpare[entry])
        }
    }

    /// A folder held open for looking at entries under it, closed with the last
    /// closure that holds it; paths are joined to its own when it couldn't be opened.
    final class OpenFolder: Sendable {
        let path: String
        let descriptor: Int32

        init(_ path: String) {
            self.path = path
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// The metadata of `relative` under the folder, links not followed; false when it fails.
        func metadata(of relative: String, into info: inout stat) -> Bool {
            descriptor >= 0
                ? fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0
                : lstat("\(path)/\(relative)", &info) == 0
        }

        /// `metadata(of:into:)` for a path given as a C string; false, without looking, when
        /// the folder isn't open.
        func metadata(ofCString relative: UnsafePointer<CChar>, into info: inout stat) -> Bool {
            descriptor >= 0 && fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0
        }

        var isOpen: Bool { descriptor >= 0 }
    }

    /// Calls `body` with the path (relative to `root`) of every regular file, and of every racy
    /// entry (recorded as changed, so of unknown kind: the caller looks at it again).
    func forEachFile(_ body: (ArraySlice<UInt8>) -> Void) {
        let file = Int64(S_IFREG)
        forEachStamped { path, stamp in
            if stamp.kind == file || stamp == .never { body(path) }
        }
    }

    /// What identifies the folder `path` (a second-level one, such as `projects/moon`) and
    /// everything under it: the SHA-256 (32 bytes) of every entry's path and metadata. Equal keys
    /// from two inventories mean the same files with the same contents (see the type's note), so
    /// what was read from them then is what reading them now gives. nil when the folder was not
    /// walked on its own, or when an entry in it is racy (changed too recently to vouch for).
    public func subtreeKey(_ path: String) -> [UInt8]? {
        guard let span = subtrees[path] else { return nil }
        if let key = span.key { return key }
        return Self.subtreeKey(
            entryPath: paths[span.entryPath], own: stamps[span.entry], paths: paths[span.walkedPaths],
            stamps: stamps[span.walked])
    }

    /// The key the walker gave with the entries under the folder at `path` (`take`), which
    /// `subtreeKey(_:)` returns without hashing them again; nil if it gave none.
    func keyGivenByWalker(_ path: String) -> [UInt8]? { subtrees[path]?.key }

    /// The key `subtreeKey(_:)` gives for the folder at `path`, whose metadata is `own` (`.never`
    /// when racy), from the entries under it as `walk` takes them (`part`), before they are
    /// joined to an inventory.
    static func subtreeKey(path: [UInt8], own: Stamp, part: Part) -> [UInt8]? {
        subtreeKey(entryPath: (path + [0])[...], own: own, paths: part.paths, stamps: part.stamps)
    }

    /// The SHA-256 of the folder's path, the paths under it, then its metadata and theirs (five
    /// little-endian numbers each), hashed as it goes. The bytes themselves (about 16 KB a
    /// project on the large benchmark) used to be the key: held for every project a build read
    /// until its cache was written, then written into each cache file (the project caches were
    /// 169 MB, 138 MB since; docs/performance.md, "Fresh memory").
    private static func subtreeKey(
        entryPath: ArraySlice<UInt8>, own: Stamp, paths: ArraySlice<UInt8>, stamps: ArraySlice<Stamp>
    ) -> [UInt8]? {
        guard own != .never, !stamps.contains(.never) else { return nil }
        var hasher = SHA256()
        entryPath.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        paths.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let chunk = 40 * 64
        var numbers: [UInt8] = []
        numbers.reserveCapacity(chunk)
        own.append(to: &numbers)
        for stamp in stamps {
            if numbers.count == chunk {
                hasher.update(data: numbers)
                numbers.removeAll(keepingCapacity: true)
            }
            stamp.append(to: &numbers)
        }
        hasher.update(data: numbers)
        return Array(hasher.finalize())
    }

    /// `subtreeKey(path)` in 64 hex digits: short enough to keep for every project, and the
    /// digest `subtreeDigest(path, leavingOut:)` gives when it leaves nothing out.
    public func subtreeDigest(_ path: String) -> String? {
        subtreeKey(path).map(RoundSeal.hex)
    }

    /// The same, leaving out the entry at `excluded` (a path inside the folder, relative to the
    /// root) and everything under it: what identifies the rest of the folder. nil when the folder
    /// was not walked on its own, or an entry of the rest is racy.
    ///
    /// Every project with an open round asks, at the start of every rebuild: its entries are
    /// found with `memchr` and compared as bytes in place (a byte-by-byte loop took 0.1 s of CPU
    /// on the large content).
    public func subtreeDigest(_ path: String, leavingOut excluded: String) -> String? {
        guard let span = subtrees[path], stamps[span.entry] != .never else { return nil }
        if let given = span.leftOut, given.path == excluded { return given.digest }
        let skipped = Array(excluded.utf8)
        var key = Array(paths[span.entryPath])
        key.reserveCapacity(key.count + span.walkedPaths.count + 40 * (span.walked.count + 1))
        var kept: [Stamp] = [stamps[span.entry]]
        kept.reserveCapacity(span.walked.count + 1)
        var racy = false
        paths.withUnsafeBufferPointer { all in
            let walked = UnsafeBufferPointer(rebasing: all[span.walkedPaths])
            var start = 0, index = span.walked.lowerBound
            skipped.withUnsafeBufferPointer { skipped in
                Self.forEachNUL(in: walked) { nul in
                    defer {
                        start = nul + 1
                        index += 1
                    }
                    guard !racy else { return }
                    let entry = UnsafeBufferPointer(rebasing: walked[start..<nul])
                    if entry.count >= skipped.count,
                        let a = entry.baseAddress, let b = skipped.baseAddress, memcmp(a, b, skipped.count) == 0,
                        entry.count == skipped.count || entry[skipped.count] == UInt8(ascii: "/")
                    {
                        return
                    }
                    guard stamps[index] != .never else {
                        racy = true
                        return
                    }
                    key += walked[start...nul]
                    kept.append(stamps[index])
                }
            }
        }
        guard !racy else { return nil }
        for stamp in kept { stamp.append(to: &key) }
        return RoundSeal.sha256(key)
    }

    /// Which of the two digests `digests(of:needed:takingTheFirst:_:)` takes an entry into.
    enum DigestShare {
        case both, secondOnly, neither
    }

    /// A part's two digests (`digests(of:needed:takingTheFirst:_:)`), as raw SHA-256: each nil
    /// when an entry it takes is racy, the first also when it was not asked for.
    struct PartDigests: Equatable, Sendable {
        var first: [UInt8]?
        var second: [UInt8]?
    }

    /// Two digests of the entries `share` takes, in parts: each folder of `folders` (one walked
    /// on its own, such as `projects/moon`: its own entry and every entry under it) that `needed`
    /// asks for by its place, then every entry outside all of them but the root (whose times are
    /// left out, as `isUnchanged` leaves them). Each part's digests identify its entries (SHA-256
    /// of their paths and metadata): the first those `share` says `.both` of (none unless
    /// `takingTheFirst`), the second those and the `.secondOnly` ones; each nil when an entry it
    /// takes is racy. A folder not needed has no digests. nil when a folder was not walked on its
    /// own.
    ///
    /// A caller keeps each folder's digests by its `subtreeKey` and asks only for those whose key
    /// changed (`ReplayCache`): hashing every entry of the large content for the replay's key was
    /// 4 % of a rebuild after a ballot, on the model stage's longest thread.
    func digests(
        of folders: [String], needed: (Int) -> Bool, takingTheFirst: Bool, _ share: (ArraySlice<UInt8>) -> DigestShare
    ) -> (folders: [PartDigests?], rest: PartDigests)? {
        var spans: [Span] = []
        spans.reserveCapacity(folders.count)
        for folder in folders {
            guard let span = subtrees[folder] else { return nil }
            spans.append(span)
        }
        var parts: [PartDigests?] = []
        parts.reserveCapacity(spans.count)
        for (place, span) in spans.enumerated() {
            guard needed(place) else {
                parts.append(nil)
                continue
            }
            var part = PartHasher(takingTheFirst: takingTheFirst, capacity: 1 << 12)
            // The folder's own path ends in its NUL.
            part.take(paths[span.entryPath].dropLast(), stamps[span.entry], share)
            var start = span.walkedPaths.lowerBound, index = span.walked.lowerBound
            paths.withUnsafeBufferPointer { all in
                Self.forEachNUL(in: UnsafeBufferPointer(rebasing: all[span.walkedPaths])) { nul in
                    let end = span.walkedPaths.lowerBound + nul
                    part.take(paths[start..<end], stamps[index], share)
                    (start, index) = (end + 1, index + 1)
                }
            }
            parts.append(part.finish())
        }
        var outside = [Bool](repeating: true, count: stamps.count)
        for span in spans {
            outside[span.entry] = false
            for index in span.walked { outside[index] = false }
        }
        var rest = PartHasher(takingTheFirst: takingTheFirst, capacity: 1 << 16)
        var index = 0
        forEachStamped { path, stamp in
            index += 1
            if outside[index] { rest.take(path, stamp, share) }
        }
        return (parts, rest.finish())
    }

    /// A part's two digests (`digests(of:needed:takingTheFirst:_:)`) as entries are taken into them.
    private struct PartHasher {
        private var hashers = (SHA256(), SHA256())
        private var buffers: ([UInt8], [UInt8]) = ([], [])
        private var racy: (Bool, Bool)

        init(takingTheFirst: Bool, capacity: Int) {
            racy = (!takingTheFirst, false)
            buffers.0.reserveCapacity(capacity)
            buffers.1.reserveCapacity(capacity)
        }

        mutating func take(_ path: ArraySlice<UInt8>, _ stamp: Stamp, _ share: (ArraySlice<UInt8>) -> DigestShare) {
            guard !(racy.0 && racy.1) else { return }
            let share = share(path)
            guard share != .neither else { return }
            if stamp == .never { (racy.0, racy.1) = (racy.0 || share == .both, true) }
            if share == .both && !racy.0 { Self.add(path, stamp, into: &buffers.0, &hashers.0) }
            if !racy.1 { Self.add(path, stamp, into: &buffers.1, &hashers.1) }
        }

        private static func add(_ path: ArraySlice<UInt8>, _ stamp: Stamp, into buffer: inout [UInt8], _ hasher: inout SHA256) {
            buffer += path
            buffer.append(0)
            stamp.append(to: &buffer)
            if buffer.count >= 1 << 16 {
                hasher.update(data: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }

        mutating func finish() -> PartDigests {
            hashers.0.update(data: buffers.0)
            hashers.1.update(data: buffers.1)
            return PartDigests(first: racy.0 ? nil : Array(hashers.0.finalize()), second: racy.1 ? nil : Array(hashers.1.finalize()))
        }
    }

    /// Whether every entry still has the metadata it had: nothing added, removed or written.
    public func isUnchanged() -> Bool {
        Self.areUnchanged([self])
    }

    /// Whether every entry of each of `inventories` still has the metadata it had: the same
    /// check as a build's stamp makes of its encoded inventories (`Encoded.areUnchanged`), for
    /// inventories held in memory.
    static func areUnchanged(_ inventories: [FileInventory]) -> Bool {
        var writer = BinaryWriter()
        for inventory in inventories { inventory.encode(into: &writer) }
        var reader = BinaryReader(writer.bytes)
        var encoded: [Encoded] = []
        for _ in inventories {
            guard let inventory = Encoded.read(from: &reader) else { return false }
            encoded.append(inventory)
        }
        return writer.bytes.withUnsafeBufferPointer { Encoded.areUnchanged(encoded, in: $0) }
    }

    /// Calls `body` with the offset of each NUL of `bytes`, in order, found with `memchr`: a
    /// byte-by-byte loop over the large content's 16.7 MB of paths took 13 ms, on one core,
    /// at the start of every rebuild and no-op.
    @inline(__always)
    static func forEachNUL(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count, let nul = memchr(base + offset, 0, bytes.count - offset) {
            let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(nul))
            body(at)
            offset = at + 1
        }
    }

    /// The entries of this (recorded) inventory under each second-level folder walked on its
    /// own, by the folder's path, for `RecordedParts`.
    fileprivate func partRanges() -> [[UInt8]: RecordedParts.Ranges] {
        var ranges: [[UInt8]: RecordedParts.Ranges] = [:]
        // Where each folder right under a top-level one (`projects/<slug>`) was recorded: the
        // first two levels come first.
        var folders: [[UInt8]: Int] = [:]
        // The open folder as a range of `paths`: its name is made only once it closes (a large
        // content's 372,000 entries made an array each to compare, 50 ms of a rebuild's start).
        var current: (folder: Range<Int>, stamp: Int, path: Int)? = nil
        let slash = UInt8(ascii: "/")
        paths.withUnsafeBufferPointer { bytes in
            var start = 0, index = 0
            func close(_ stampEnd: Int, _ pathEnd: Int) {
                if let open = current {
                    let folder = Array(bytes[open.folder])
                    ranges[folder] = RecordedParts.Ranges(
                        stamps: open.stamp..<stampEnd, paths: open.path..<pathEnd, own: folders[folder])
                }
                current = nil
            }
            Self.forEachNUL(in: bytes) { i in
                defer {
                    index += 1
                    start = i + 1
                }
                // Most entries are under the open folder: that is checked first, with `memcmp`
                // (looking for the slashes of each of a large content's 300,000 paths was 20 ms of
                // a rebuild's start, on one core, before any project was read).
                if let open = current, i - start > open.folder.count, bytes[start + open.folder.count] == slash,
                    let base = bytes.baseAddress, memcmp(base + start, base + open.folder.lowerBound, open.folder.count) == 0
                {
                    return
                }
                // Entries under a second-level folder have two slashes; the folder is what
                // precedes the second one.
                var first = start
                while first < i, bytes[first] != slash { first += 1 }
                var second = first + 1
                while second < i, bytes[second] != slash { second += 1 }
                guard second < i else {
                    close(index, start)
                    if first < i, stamps[index].isDirectory { folders[Array(bytes[start..<i])] = index }
                    return
                }
                let folder = start..<second
                if let open = current, open.folder.count == folder.count, bytes[open.folder].elementsEqual(bytes[folder]) {
                    return
                }
                close(index, start)
                current = (folder, index, start)
            }
            close(index, start)
        }
        return ranges
    }

    /// Whether the folder at `root` is the one recorded (the same inode) and every folder under
    /// it still has its recorded metadata (the root, its modification time): then it holds
    /// exactly the recorded entries, since adding, removing or renaming an entry moves its
    /// folder's times (files are not looked at: what they hold doesn't matter to which entries
    /// there are). For a folder recorded under another name: the spare, the site the build
    /// before last recorded, renamed since (`SiteWriter`).
    public func foldersAreUnchanged(at root: String) -> Bool {
        // The root's ctime moves as it is renamed; its mtime only as entries come and go.
        // Its entries are listed too: a time put back by hand must not hide one added there.
        var folders: [(path: ArraySlice<UInt8>, stamp: Stamp)] = []
        var top: [[UInt8]] = []
        forEachStamped { path, stamp in
            if stamp == .never || stamp.isDirectory { folders.append((path, stamp)) }
            if !path.contains(UInt8(ascii: "/")) { top.append(Array(path)) }
        }
        guard Self.stamp(root)?.modified == stamps.first?.modified, isRecordedRoot(root, listing: top) else { return false }
        let base = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return false }
        defer { close(base) }
        let chunks = stride(from: 0, to: folders.count, by: 1024).map { $0..<min(folders.count, $0 + 1024) }
        return Parallel.map(chunks) { chunk -> Bool in
            var info = stat()
            for index in chunk {
                let (path, stamp) = folders[index]
                guard stamp != .never, fstatat(base, String(decoding: path, as: UTF8.self), &info, AT_SYMLINK_NOFOLLOW) == 0,
                    Stamp(info) == stamp
                else { return false }
            }
            return true
        }.allSatisfy { $0 }
    }

    /// Every recorded entry but the root, by path relative to `root`: the folders, and the rest.
    public func entryPaths() -> (folders: [String], others: [String]) {
        let (folders, others) = recordedEntries()
        return (folders.map(\.path), others)
    }

    /// The same, each folder with its recorded metadata as a `stat` (`Stamp.info`: only what a
    /// stamp holds). A racy entry, its kind unknown, is among the others.
    public func recordedEntries() -> (folders: [(path: String, info: stat?)], others: [String]) {
        var folders: [(path: String, info: stat?)] = [], others: [String] = []
        forEachStamped { path, stamp in
            if stamp.isDirectory {
                folders.append((String(decoding: path, as: UTF8.self), stamp.info))
            } else {
                others.append(String(decoding: path, as: UTF8.self))
            }
        }
        return (folders, others)
    }

    /// What stops checking an inventory: an entry that is not as recorded.
    fileprivate struct Changed: Error {}

    /// Whether `folder` (the root, or the root renamed) is the recorded folder, the same kind and
    /// inode, and lists exactly `top`, the recorded top-level entries (skipped names aside).
    private func isRecordedRoot(_ folder: String, listing top: [[UInt8]]) -> Bool {
        Self.isRecordedRoot(folder, stamp: stamps.first, skipping: skipping, listing: top)
    }

    /// The same, for a root recorded with `recorded` as its stamp, `skipping` those names.
    fileprivate static func isRecordedRoot(
        _ folder: String, stamp recorded: Stamp?, skipping: Set<String>, listing top: [[UInt8]]
    ) -> Bool {
        guard let recorded, let now = stamp(folder), now.kind == recorded.kind, now.inode == recorded.inode,
            let listed = entries(of: folder, [])
        else { return false }
        let present = listed.map(\.0).filter { !skipping.contains(String(decoding: $0, as: UTF8.self)) }
        return present == top.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The stamp of the entry at `path` (or, `following` links, of what it leads to); nil if there is none.
    static func stamp(_ path: String, following: Bool = false) -> Stamp? {
        var info = stat()
        return (following ? stat(path, &info) : lstat(path, &info)) == 0 ? Stamp(info) : nil
    }

    init(root: String, skipping: Set<String>) { (self.root, self.skipping) = (root, skipping) }

    /// The inventory of a folder this process has just written, from what the writer saw of
    /// each entry once it was in place (the root first, with the empty path; then every file
    /// and folder under it, each once), instead of walking the folder again: the built site,
    /// whose 64,000 entries on the large benchmark (47,000 now) took a walk 0.3–0.5 s. Entries are kept in
    /// path order; none is racy (nobody else writes there). nil without the root first.
    public init?(root: String, written entries: [(path: String, info: stat)]) {
        guard let first = entries.first, first.path.isEmpty else { return nil }
        self.init(root: root, skipping: [])
        add([], Stamp(first.info), racyAfter: .max)
        // Sorted as paths and stamps (48 bytes each), not as paths and `stat`s (152): the sort
        // moves every entry about a dozen times, 47,000 of them at the end of every build. Each
        // half on a core of its own, then merged: sorted whole, on one core, they left the other
        // idle for 10 ms at the end of every large rebuild, after the last page was written.
        let rest = entries.dropFirst()
        let middle = rest.startIndex + rest.count / 2
        func sorted(_ part: ArraySlice<(path: String, info: stat)>) -> [(path: [UInt8], stamp: Stamp)] {
            var sorted = part.map { (path: Array($0.path.utf8), stamp: Stamp($0.info)) }
            sorted.sort { Self.precedes($0.path, $1.path) }
            return sorted
        }
        let (later, earlier) = Parallel.beside({ sorted(rest[middle...]) }, { sorted(rest[..<middle]) })
        paths.reserveCapacity(
            earlier.reduce(0) { $0 + $1.path.count + 1 } + later.reduce(0) { $0 + $1.path.count + 1 } + 1)
        stamps.reserveCapacity(entries.count)
        // Paths are unique: one of two is always the first.
        var (e, l) = (0, 0)
        while e < earlier.count || l < later.count {
            if l == later.count || (e < earlier.count && Self.precedes(earlier[e].path, later[l].path)) {
                add(earlier[e].path, earlier[e].stamp, racyAfter: .max)
                e += 1
            } else {
                add(later[l].path, later[l].stamp, racyAfter: .max)
                l += 1
            }
        }
    }

    mutating func add(_ path: [UInt8], _ stamp: Stamp, racyAfter: Int64) {
        paths += path
        paths.append(0)
        let racy = max(stamp.modified, stamp.changed) > racyAfter
        stamps.append(racy ? .never : stamp)
    }

    /// Adds the entries of `part`, as `walk` gives them.
    mutating func append(_ part: FileInventory) {
        paths += part.paths
        stamps += part.stamps
    }

    /// The subtree at `path` (which is already recorded), depth first in name order.
    static func walk(_ root: String, _ path: [UInt8], racyAfter: Int64) -> FileInventory? {
        var part = FileInventory(root: root, skipping: [])
        var pending = [path]
        while let folder = pending.popLast() {
            guard let found = entries(of: root, folder) else { return nil }
            var folders: [[UInt8]] = []
            for (entry, stamp) in found {
                part.add(entry, stamp, racyAfter: racyAfter)
                if stamp.isDirectory { folders.append(entry) }
            }
            pending += folders.reversed()
        }
        return part
    }

    /// The entries of the folder at `path` (relative to `root`) as (relative path, stamp), in
    /// byte order of their names; nil if the folder can't be read.
    private static func entries(of root: String, _ path: [UInt8]) -> [([UInt8], Stamp)]? {
        let folder = path.isEmpty ? root : root + "/" + String(decoding: path, as: UTF8.self)
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        let descriptor = dirfd(dir)
        var found: [([UInt8], Stamp)] = []
        var info = stat()
        while let entry = readdir(dir) {
            // `d_name` is NUL-terminated in place: stat it through the folder, then copy its bytes.
            // `.` and `..` come back as an empty name; a failed stat as nil.
            let name: [UInt8]? = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { cName -> [UInt8]? in
                    let length = strlen(cName)
                    let isDots = cName[0] == 0x2E && (length == 1 || length == 2 && cName[1] == 0x2E)
                    if isDots { return [] }
                    guard fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                    return cName.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                }
            }
            guard let name else { return nil }
            if name.isEmpty { continue }
            found.append((path.isEmpty ? name : path + [UInt8(ascii: "/")] + name, Stamp(info)))
        }
        return found.sorted { precedes($0.0, $1.0) }
    }

    /// Whether `a` sorts before `b`, byte by byte (`lexicographicallyPrecedes`), by `memcmp`:
    /// the stamp sorts the site's 47,000 paths at the end of every build, and element by element
    /// that was three times as long.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let common = min(a.count, b.count)
                guard common > 0, let x = a.baseAddress, let y = b.baseAddress else { return a.count < b.count }
                let order = memcmp(x, y, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    /// The wall clock in nanoseconds, for the racy window (file times are wall-clock times).
    static func clock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return FileSystem.nanoseconds(now)
    }
}

extension FileInventory {
    /// The inventory in a compact form: each path as the length it shares with the path before
    /// and the rest, each stamp as small numbers (its inode and modification time as the
    /// difference from the entry before, its change time from its modification time). A large
    /// build's stamp held 440,000 entries (421,000 now): 42 MB written as they are in memory, whose copying
    /// into fresh pages was most of saving it (0.15 s) and of loading it in a no-op build.
    ///
    /// Both come in chunks of at most `chunk` entries, each after its length in bytes (the paths'
    /// after their number of entries, that length, then the length of their paths decoded:
    /// all the paths' chunks, then all the stamps'), the shared
    /// parts and differences starting afresh in each chunk: a reader takes the chunks on every
    /// core, and a no-op build checks them in place, without decoding the inventory into memory
    /// (`Encoded`). In an inventory just taken, each folder walked on its own (a project) starts
    /// a chunk: a project taken as the last build recorded it (`Part.recorded`) has its chunks
    /// copied from that build's stamp as they are, instead of being encoded again (the large
    /// content's 300,000 entries were encoded at every rebuild, 4 % of its CPU after a ballot).
    ///
    /// A regular file a round's seal vouches for (`sealed`, relative to the content directory)
    /// is written with its own code: a no-op build checks it by its folders' times alone. So is
    /// the `votes/` folder of a round counted from its record, which is then not checked at all
    /// (`SealedRounds.vouchesForFolder`), and an entry the last stamp vouched for, taken as it
    /// recorded it (`vouchedAsRecorded`): `sealed` need not list the rounds of the projects
    /// kept so.
    func encode(into writer: inout BinaryWriter, sealed: SealedRounds = .empty) {
        writer.string(root)
        writer.integer(Int64(skipping.count))
        for name in skipping.sorted() { writer.string(name) }
        writer.varint(UInt64(stamps.count))
        writer.varint(UInt64(paths.count))
        // The stamps' chunks, written after every chunk of paths.
        var stampChunks = BinaryWriter(capacity: 12 * stamps.count + 64)
        var chunk = BinaryWriter(capacity: 16 * min(stamps.count, Self.chunk))
        // Only while they line up with the entries (they always do: nothing adds to an
        // inventory once taken).
        let asRecorded = vouchedAsRecorded.count == stamps.count ? vouchedAsRecorded : []
        let vouching = !sealed.isEmpty || !asRecorded.isEmpty
        var cursor: SealedRounds.Cursor = ([], nil)
        // Whether each entry of the chunk being written is vouched for, found as its paths are
        // written: as recorded, else by `sealed`.
        var vouched: [Bool] = []
        vouched.reserveCapacity(Self.chunk)
        paths.withUnsafeBufferPointer { all in
            /// Writes a chunk of at most `chunk` entries from `first` on, whose paths (each with
            /// its NUL) start at `from` in `all`, within `bytes`; gives where the next one starts.
            func write(from first: Int, at from: Int, within bytes: Range<Int>) -> (entry: Int, at: Int) {
                chunk.removeAll()
                vouched.removeAll(keepingCapacity: true)
                var previous = 0..<0, start = from, index = first
                while index - first < Self.chunk, start < bytes.upperBound,
                    let base = all.baseAddress, let nul = memchr(base + start, 0, bytes.upperBound - start)
                {
                    let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(nul))
                    let path = start..<end
                    var shared = 0
                    while shared < previous.count, shared < path.count, all[previous.lowerBound + shared] == all[start + shared] {
                        shared += 1
                    }
                    chunk.varint(UInt64(shared))
                    chunk.varint(UInt64(path.count - shared))
                    chunk.raw(UnsafeBufferPointer(rebasing: all[(start + shared)..<end]))
                    if !vouching {
                        vouched.append(false)
                    } else if index < asRecorded.count, let recorded = asRecorded[index] {
                        vouched.append(recorded)
                    } else {
                        // A racy entry (`.never`) has no kind: it is never vouched for.
                        let entry = UnsafeBufferPointer(rebasing: all[path])
                        switch stamps[index].kind {
                        case Int64(S_IFREG): vouched.append(sealed.vouchesFor(entry, last: &cursor))
                        case Int64(S_IFDIR): vouched.append(sealed.vouchesForFolder(entry, last: &cursor))
                        default: vouched.append(false)
                        }
                    }
                    previous = path
                    start = end + 1
                    index += 1
                }
                let entries = first..<index
                writer.varint(UInt64(entries.count))
                writer.varint(UInt64(chunk.bytes.count))
                writer.varint(UInt64(start - from))
                writer.raw(chunk.bytes)
                chunk.removeAll()
                var inode: Int64 = 0, modified: Int64 = 0
                for (index, stamp) in zip(entries, stamps[entries]) {
                    if stamp == .never {
                        chunk.varint(0)
                        continue
                    }
                    switch stamp.kind {
                    case Int64(S_IFREG): chunk.varint(vouched[index - entries.lowerBound] ? 4 : 1)
                    case Int64(S_IFDIR): chunk.varint(vouched[index - entries.lowerBound] ? 5 : 2)
                    default:
                        chunk.varint(3)
                        chunk.signed(stamp.kind)
                    }
                    chunk.signed(stamp.inode &- inode)
                    chunk.signed(stamp.size)
                    chunk.signed(stamp.modified &- modified)
                    chunk.signed(stamp.changed &- stamp.modified)
                    (inode, modified) = (stamp.inode, stamp.modified)
                }
                stampChunks.varint(UInt64(chunk.bytes.count))
                stampChunks.raw(chunk.bytes)
                return (index, start)
            }
            for segment in segments() {
                if let (recorded, chunks) = segment.copied {
                    for old in chunks {
                        writer.varint(UInt64(old.count))
                        writer.varint(UInt64(old.paths.count))
                        writer.varint(UInt64(old.pathsLength))
                        writer.raw(UnsafeBufferPointer(rebasing: recorded.bytes[old.paths]))
                        stampChunks.varint(UInt64(old.stamps.count))
                        stampChunks.raw(UnsafeBufferPointer(rebasing: recorded.bytes[old.stamps]))
                    }
                    continue
                }
                var next = (entry: segment.entries.lowerBound, at: segment.paths.lowerBound)
                while next.entry < segment.entries.upperBound {
                    let after = write(from: next.entry, at: next.at, within: segment.paths)
                    guard after.entry > next.entry else { break }
                    next = after
                }
            }
        }
        writer.raw(stampChunks.bytes)
    }

    /// Runs of entries `encode` writes in chunks of their own: the whole inventory, or, for one
    /// just taken, its first two levels, then each folder walked on its own, with the chunks of
    /// the last stamp that hold exactly its entries when it was taken as recorded.
    func segments() -> [Segment] {
        let whole = [Segment(entries: 0..<stamps.count, paths: 0..<paths.count)]
        guard let head, !subtrees.isEmpty else { return whole }
        var segments = [Segment(entries: 0..<head.entries, paths: 0..<head.paths)]
        segments.reserveCapacity(subtrees.count + 1)
        for span in subtrees.values.sorted(by: { $0.walked.lowerBound < $1.walked.lowerBound }) where !span.walked.isEmpty {
            // They follow one another (`take` joins them so); else the whole is written as one.
            guard let last = segments.last, last.entries.upperBound == span.walked.lowerBound,
                last.paths.upperBound == span.walkedPaths.lowerBound
            else { return whole }
            segments.append(
                Segment(
                    entries: span.walked, paths: span.walkedPaths,
                    copied: span.recorded.flatMap { $0.encoding.chunks(holding: $0.entries) }))
        }
        guard segments.last?.entries.upperBound == stamps.count, segments.last?.paths.upperBound == paths.count else { return whole }
        return segments
    }

    /// Entries `encode` writes in chunks of their own, and the recorded chunks that hold exactly
    /// them, when they are to be copied.
    struct Segment {
        var entries: Range<Int>, paths: Range<Int>
        var copied: (file: MappedFile, chunks: ArraySlice<Encoded.Chunk>)? = nil
    }

    /// How many entries `encode` writes in a chunk: small enough that the last chunks checked
    /// or decoded keep both cores busy to the end (with 16,384, one core checked alone for the
    /// last 20 ms of a large no-op build), large enough that the chunks' own lengths and fresh
    /// starts add little (213 chunks for the large content's 436,000 entries; its stamp went
    /// 14.75 → 14.93 MB, a few dozen ballots added between the two).
    static let chunk = 2_048

    static func decode<Bytes>(from reader: inout ByteReader<Bytes>) -> FileInventory? {
        guard let encoded = Encoded.read(from: &reader) else { return nil }
        return reader.withAll { encoded.decoded(in: $0) }
    }

    /// An inventory as `encode` wrote it, found in place: where each chunk of its paths and
    /// stamps is in the bytes, to check (`areUnchanged`) or decode (`decoded`) chunk by chunk on
    /// every core. A no-op build checks its stamp's inventories so: decoding them first was 16.7
    /// MB of paths and 17 MB of stamps written into fresh pages, on one core, before any `stat`.
    struct Encoded: Sendable {
        let root: String
        let skipping: Set<String>
        /// How many entries, and the bytes of their paths with a NUL after each.
        let count: Int, length: Int
        fileprivate let chunks: [Chunk]

        /// One chunk: its entries, where they sit in the decoded inventory, and its bytes.
        struct Chunk: Sendable {
            var first: Int, count: Int
            var pathsStart: Int, pathsLength: Int
            var paths: Range<Int>, stamps = 0..<0
        }

        /// Finds the inventory `encode` wrote at the reader's position, and moves past it.
        static func read<Bytes>(from reader: inout ByteReader<Bytes>) -> Encoded? {
            guard let root = reader.string(), let skippedCount = reader.count(minimumSize: 8) else { return nil }
            var skipping: Set<String> = []
            for _ in 0..<skippedCount {
                guard let name = reader.string() else { return nil }
                skipping.insert(name)
            }
            // Each entry takes at least three bytes (two lengths and a stamp's code), and ends its
            // path with a NUL; the first is the root, whose path is empty. The paths come to at
            // most 16 times the bytes left (the large benchmark's 16.7 MB of paths take 4.9 MB):
            // a path copied whole from the one before costs a few bytes, and a crafted file must
            // not unfold into gigabytes.
            guard let count = reader.shortCount(minimumSize: 3), count >= 1,
                let length = reader.varint().map(Int.init(clamping:)), length >= count, length <= count &* 4096,
                length <= reader.remaining &* 16
            else { return nil }
            var chunks: [Chunk] = []
            var first = 0, pathsStart = 0
            // A chunk takes at least eight bytes (its three lengths, an entry's two and a byte of
            // its path, its stamps' length and a stamp's code): a crafted file can't make more
            // chunks (64 bytes each) than that allows.
            let chunkLimit = reader.remaining / 8 + 1
            while first < count {
                guard chunks.count < chunkLimit, let entries = reader.shortCount(), entries >= 1,
                    entries <= min(FileInventory.chunk, count - first),
                    let size = reader.shortCount(), let pathsLength = reader.varint().map(Int.init(clamping:)),
                    pathsLength <= length - pathsStart, let paths = reader.skip(size)
                else { return nil }
                chunks.append(Chunk(first: first, count: entries, pathsStart: pathsStart, pathsLength: pathsLength, paths: paths))
                (first, pathsStart) = (first + entries, pathsStart + pathsLength)
            }
            guard pathsStart == length else { return nil }
            for index in chunks.indices {
                guard let size = reader.shortCount(), let stamps = reader.skip(size) else { return nil }
                chunks[index].stamps = stamps
            }
            return Encoded(root: root, skipping: skipping, count: count, length: length, chunks: chunks)
        }

        /// The inventory, decoded from `file`, which it keeps (`RecordedEncoding`): the next stamp
        /// copies the chunks of a project taken as recorded from it.
        func decoded(from file: MappedFile) -> FileInventory? {
            guard var inventory = decoded(in: file.bytes) else { return nil }
            inventory.encoding = RecordedEncoding(file: file, chunks: chunks)
            return inventory
        }

        /// The inventory, its chunks decoded on every core; nil if `bytes` (all of those it was
        /// read from) don't hold one.
        func decoded(in bytes: UnsafeBufferPointer<UInt8>) -> FileInventory? {
            var stamps: [Stamp] = []
            var vouched = [Bool](repeating: false, count: count)
            let paths = vouched.withUnsafeMutableBufferPointer { vouchedOut in
                [UInt8](unsafeUninitializedCapacity: length) { pathsOut, pathsDecoded in
                    stamps = [Stamp](unsafeUninitializedCapacity: count) { stampsOut, stampsDecoded in
                        guard let pathsBase = pathsOut.baseAddress, let stampsBase = stampsOut.baseAddress,
                            let vouchedBase = vouchedOut.baseAddress
                        else { return }
                        // Each chunk into its own part of the arrays (`read` checked that the parts
                        // tile them; `forEachEntry` that a chunk fills exactly its part).
                        let decoded = Parallel.map(chunks, batch: 1) { chunk in
                            var at = chunk.pathsStart, index = chunk.first
                            return Self.forEachEntry(of: chunk, in: bytes) { path, stamp, isVouched in
                                (pathsBase + at).initialize(from: path.baseAddress!, count: path.count)
                                (stampsBase + index).initialize(to: stamp)
                                vouchedBase[index] = isVouched
                                (at, index) = (at + path.count, index + 1)
                                return true
                            }
                        }
                        stampsDecoded = decoded.allSatisfy { $0 } ? count : 0
                    }
                    pathsDecoded = stamps.count == count ? length : 0
                }
            }
            guard paths.count == length, stamps.count == count, paths.first == 0 else { return nil }
            var inventory = FileInventory(root: root, skipping: skipping)
            inventory.paths = paths
            inventory.stamps = stamps
            inventory.vouched = vouched
            return inventory
        }

        /// The first four components of a path of at least four (`path` ends with its NUL): for
        /// an entry of a round, its round's folder, `projects/<slug>/rounds/<NNNN>`.
        fileprivate static func roundFolder(of path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
            var slashes = 0
            for i in path.indices where path[i] == UInt8(ascii: "/") || path[i] == 0 {
                slashes += 1
                if slashes == 4 { return UnsafeBufferPointer(rebasing: path[..<i]) }
            }
            return nil
        }

        /// The rounds of one chunk that are sealed, by their folders: those with a file a seal
        /// vouches for (`roundFolder(of:)` of its path). A sealed round's folders are where a
        /// change is least expected. The rounds are looked through one by one: a chunk holds
        /// one project's few.
        fileprivate struct SealedRoundFolders: Sendable {
            private var rounds: [[UInt8]] = []

            /// Notes the round of `file`, an entry a seal or a record vouches for (its path with
            /// its NUL).
            mutating func note(_ file: UnsafeBufferPointer<UInt8>) {
                // A round's files come one after another.
                if let last = rounds.last, file.count > last.count, file[last.count] == UInt8(ascii: "/"),
                    memcmp(file.baseAddress!, last, last.count) == 0
                {
                    return
                }
                if let round = roundFolder(of: file) { rounds.append(Array(round)) }
            }

            /// Whether `folder` (its path with its NUL) is a sealed round's folder or under one.
            func contains(_ folder: UnsafeBufferPointer<UInt8>) -> Bool {
                guard !rounds.isEmpty, let round = roundFolder(of: folder) else { return false }
                return rounds.contains { $0.count == round.count && memcmp($0, round.baseAddress!, round.count) == 0 }
            }
        }

        /// Folders kept to be stat-ed once their chunk is read, each path with its NUL, in one buffer.
        fileprivate struct FolderList {
            private var paths: [UInt8] = []
            private var ends: [Int] = []
            private var stamps: [Stamp] = []

            mutating func append(_ path: UnsafeBufferPointer<UInt8>, _ stamp: Stamp) {
                paths.append(contentsOf: path)
                ends.append(paths.count)
                stamps.append(stamp)
            }

            /// Whether `body` holds for each folder, in order, stopping at the first that doesn't.
            func allSatisfy(_ body: (UnsafeBufferPointer<UInt8>, Stamp) -> Bool) -> Bool {
                paths.withUnsafeBufferPointer { all in
                    var start = 0
                    for f in ends.indices {
                        guard body(UnsafeBufferPointer(rebasing: all[start..<ends[f]]), stamps[f]) else { return false }
                        start = ends[f]
                    }
                    return true
                }
            }
        }

        /// Calls `body` with each entry of `chunk` in order, its path (with its NUL, so that
        /// `fstatat` can take it as it is), its stamp and whether a seal vouches for it, until
        /// `body` returns false. Whether the chunk was whole and `body` never returned false: a
        /// chunk that isn't (bytes cut short or crafted) never has `body` see more than its
        /// entries or bytes.
        fileprivate static func forEachEntry(
            of chunk: Chunk, in bytes: UnsafeBufferPointer<UInt8>,
            _ body: (UnsafeBufferPointer<UInt8>, Stamp, _ vouched: Bool) -> Bool
        ) -> Bool {
            guard chunk.paths.upperBound <= bytes.count, chunk.stamps.upperBound <= bytes.count else { return false }
            var paths = VarintCursor(UnsafeBufferPointer(rebasing: bytes[chunk.paths]))
            var stamps = VarintCursor(UnsafeBufferPointer(rebasing: bytes[chunk.stamps]))
            // The path before, which the next shares its start with, followed by its NUL.
            var path = [UInt8](repeating: 0, count: 256)
            var length = 0, decoded = 0
            var inode: Int64 = 0, modified: Int64 = 0
            for _ in 0..<chunk.count {
                guard let shared = paths.varint().map(Int.init(clamping:)), shared <= length,
                    let rest = paths.varint().map(Int.init(clamping:)), rest <= paths.bytes.count - paths.offset,
                    shared + rest < chunk.pathsLength - decoded
                else { return false }
                let suffix = UnsafeBufferPointer(rebasing: paths.bytes[paths.offset..<(paths.offset + rest)])
                // A NUL inside a path would split it in two.
                guard suffix.baseAddress.map({ memchr($0, 0, rest) == nil }) ?? true else { return false }
                if shared + rest >= path.count { path += repeatElement(0, count: shared + rest + 1 - path.count) }
                length = shared + rest
                path.withUnsafeMutableBufferPointer { path in
                    _ = UnsafeMutableBufferPointer(rebasing: path[shared..<length]).initialize(from: suffix)
                    path[length] = 0
                }
                paths.offset += rest
                decoded += length + 1
                // The stamp, as `encode` wrote it (written out here: as a function of its own it
                // was not inlined, and called 436,000 times a pass on large).
                guard let code = stamps.varint() else { return false }
                let stamp: Stamp
                if code == 0 {
                    stamp = .never
                } else {
                    let kind: Int64
                    switch code {
                    case 1, 4: kind = Int64(S_IFREG)
                    case 2, 5: kind = Int64(S_IFDIR)
                    case 3:
                        guard let raw = stamps.signed() else { return false }
                        kind = raw
                    default: return false
                    }
                    guard let inodeStep = stamps.signed(), let size = stamps.signed(), let modifiedStep = stamps.signed(),
                        let changedStep = stamps.signed()
                    else { return false }
                    inode = inode &+ inodeStep
                    modified = modified &+ modifiedStep
                    stamp = Stamp(kind: kind, inode: inode, size: size, modified: modified, changed: modified &+ changedStep)
                }
                guard path.withUnsafeBufferPointer({ body(UnsafeBufferPointer(rebasing: $0[...length]), stamp, code >= 4) }) else {
                    return false
                }
            }
            return decoded == chunk.pathsLength && paths.offset == paths.bytes.count && stamps.offset == stamps.bytes.count
        }

        /// Whether every entry of each of `inventories` (read from `bytes`) still has the
        /// metadata it had: a build's content, templates and site. They are checked on every
        /// core, chunk by chunk as they are encoded, paths looked up from each root's descriptor
        /// (fewer components to walk). The first change found stops every worker.
        ///
        /// Folders come first: adding, removing or renaming a file moves its folder's times, so
        /// after `vote`, `submit` or `close` (which write by renaming) the change is found having
        /// stat-ed only folders. And of the folders, those where a change is to be expected come
        /// first: all but a sealed round's (`SealedRoundFolders`), 19,400 of the large
        /// benchmark's 73,400 (content and site). Stat-ed in the order they were recorded, a
        /// ballot in a project recorded late (`p998`) stat-ed nearly every folder before its own:
        /// 7.8 % of the samples of its rebuild, against 0.2 % for one recorded early (`p1000`).
        /// A second pass stats the sealed rounds' folders (but a recorded round's `votes/`,
        /// vouched for) and the files no seal vouches for: a change in a sealed round (a snippet
        /// added after the close) or a file edited in place is found there, after every other
        /// folder.
        ///
        /// The first pass also gathers each root's recorded top-level names, whose listing is
        /// compared last (decoding every chunk once more for them alone cost a large no-op 10 ms
        /// of CPU).
        static func areUnchanged(_ inventories: [Encoded], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let roots = inventories.map { open($0.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            defer { for root in roots where root >= 0 { close(root) } }
            guard roots.allSatisfy({ $0 >= 0 }) else { return false }
            let checks = inventories.indices.flatMap { i in inventories[i].chunks.map { (inventory: i, chunk: $0) } }
            let changed = Atomic(false)
            /// Stats `path` (with its NUL) from the root of inventory `i`; false when it differs
            /// from `stamp`, or when another worker found a change (looked at every 64 stats).
            func isUnchanged(_ path: UnsafeBufferPointer<UInt8>, _ stamp: Stamp, in i: Int, looked: inout Int) -> Bool {
                looked += 1
                if looked & 63 == 0, changed.load(ordering: .relaxed) { return false }
                var info = stat()
                return path.withMemoryRebound(to: CChar.self) {
                    fstatat(roots[i], $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0
                } && Stamp(info) == stamp
            }
            let found: [(root: Stamp?, top: [[UInt8]], sealed: SealedRoundFolders)]
            do {
                // The folders where a change is expected; one chunk at a time from the shared
                // counter.
                found = try Parallel.map(checks, batch: 1) { check throws(Changed) in
                    var index = check.chunk.first, looked = 0
                    var root: Stamp? = nil, top: [[UInt8]] = []
                    var folders = FolderList(), sealed = SealedRoundFolders()
                    let whole = forEachEntry(of: check.chunk, in: bytes) { path, stamp, vouched in
                        defer { index += 1 }
                        // The root's own entry is compared with its listing, after the rest.
                        if index == 0 {
                            root = stamp
                            return true
                        }
                        if memchr(path.baseAddress!, Int32(UInt8(ascii: "/")), path.count) == nil {
                            top.append(Array(path.dropLast()))
                        }
                        if vouched {
                            sealed.note(path)
                        } else if stamp.isDirectory {
                            folders.append(path, stamp)
                        }
                        return true
                    }
                    // A round's folders come before its files: which rounds are sealed is known
                    // once the chunk is read.
                    let unchanged = whole && folders.allSatisfy { path, stamp in
                        sealed.contains(path) || isUnchanged(path, stamp, in: check.inventory, looked: &looked)
                    }
                    guard unchanged else {
                        changed.store(true, ordering: .relaxed)
                        throw Changed()
                    }
                    return (root, top, sealed)
                }
                // The sealed rounds' folders and the files.
                _ = try Parallel.map(Array(checks.indices), batch: 1) { c throws(Changed) in
                    var index = checks[c].chunk.first, looked = 0
                    let sealed = found[c].sealed
                    let unchanged = forEachEntry(of: checks[c].chunk, in: bytes) { path, stamp, vouched in
                        defer { index += 1 }
                        // The folders the first pass left (the root's is compared with its
                        // listing), and the files but those a round's seal vouches for, which
                        // are checked by their folders (`SealedRounds`); a folder vouched for
                        // (a recorded round's votes/) is not checked.
                        guard index > 0, !vouched, !stamp.isDirectory || sealed.contains(path) else { return true }
                        return isUnchanged(path, stamp, in: checks[c].inventory, looked: &looked)
                    }
                    guard unchanged else {
                        changed.store(true, ordering: .relaxed)
                        throw Changed()
                    }
                }
            } catch {
                return false
            }
            // Each root is the same folder with the same entries. Its own times are not compared:
            // they move when a skipped entry is made (the first build makes `.prolific/`), so its
            // entries are listed instead.
            for (i, inventory) in inventories.enumerated() {
                var root: Stamp? = nil, top: [[UInt8]] = []
                for (check, found) in zip(checks, found) where check.inventory == i {
                    root = root ?? found.root
                    top += found.top
                }
                guard FileInventory.isRecordedRoot(inventory.root, stamp: root, skipping: inventory.skipping, listing: top) else {
                    return false
                }
            }
            return true
        }
    }
}

/// An inventory's encoding in a stamp, as a build decoded it (`Encoded.decoded(from:)`): the file
/// (checked by its seal when it was read, and not written while mapped: `MappedFile`) and where
/// each chunk is in it.
final class RecordedEncoding: Sendable, Equatable {
    let file: MappedFile
    fileprivate let chunks: [FileInventory.Encoded.Chunk]

    fileprivate init(file: MappedFile, chunks: [FileInventory.Encoded.Chunk]) { (self.file, self.chunks) = (file, chunks) }

    /// The chunks that hold exactly the entries `entries`, in order; nil when a chunk holds
    /// some of them and others.
    fileprivate func chunks(holding entries: Range<Int>) -> (file: MappedFile, chunks: ArraySlice<FileInventory.Encoded.Chunk>)? {
        // The first chunk that ends after the first entry.
        var low = 0, high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle].first + chunks[middle].count <= entries.lowerBound { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count, chunks[low].first == entries.lowerBound else { return nil }
        var end = low
        while end < chunks.count, chunks[end].first + chunks[end].count <= entries.upperBound { end += 1 }
        guard end > low, chunks[end - 1].first + chunks[end - 1].count == entries.upperBound else { return nil }
        return (file, chunks[low..<end])
    }

    static func == (a: RecordedEncoding, b: RecordedEncoding) -> Bool { a === b }
}

/// What identifies a folder walked on its own (`projects/<slug>`) with everything under it, as a
/// build worked it out: its `subtreeKey`, and, for a project with an open round, its
/// `subtreeDigest(_:leavingOut:)` leaving out that round's ballots. A build's stamp keeps them
/// (`BuildStamp.subtreeKeys`), and the next build takes them for a folder whose entries are all
/// as recorded (`RecordedParts.unchanged`) instead of hashing its entries again: the large
/// content's 2,000 kept projects were hashed twice at every rebuild, 5 % of its CPU.
public struct SubtreeKeys: Sendable, Equatable {
    /// `FileInventory.subtreeKey(_:)`: 32 bytes.
    public var key: [UInt8]
    public var leftOut: LeftOut?

    /// A digest of the folder leaving out the entry at `path` and everything under it.
    public struct LeftOut: Sendable, Equatable {
        public var path: String
        /// `FileInventory.subtreeDigest(_:leavingOut:)`, in hex.
        public var digest: String

        public init(path: String, digest: String) { (self.path, self.digest) = (path, digest) }
    }

    public init(key: [UInt8], leftOut: LeftOut? = nil) { (self.key, self.leftOut) = (key, leftOut) }

    /// The key in hex: `FileInventory.subtreeDigest(_:)`.
    public var digest: String { RoundSeal.hex(key) }
}

/// The entries an earlier inventory recorded under each second-level folder (`projects/<slug>`),
/// to take a folder's part of a new inventory by stat-ing the recorded paths instead of listing
/// every folder again: when each entry under it is as recorded, the walk would find exactly
/// those entries, since adding, removing or renaming an entry moves its folder's times.
public struct RecordedParts: Sendable {
    let inventory: FileInventory
    private let ranges: [[UInt8]: Ranges]
    /// What the build that recorded `inventory` worked out of each folder, by its path.
    private let keys: [String: SubtreeKeys]

    /// Where a folder's entries are in the recorded inventory, and its own entry.
    struct Ranges {
        var stamps: Range<Int>, paths: Range<Int>
        var own: Int?
    }

    /// The parts of `inventory`, an inventory of `root` as a build records it, however either
    /// spells the folder (`Content`, `./Content`, its absolute path): parts are paths relative to
    /// it, stat-ed from the folder as this build opened it, and each entry's inode is compared,
    /// so a folder that merely resolves to the same path can't pass for an unchanged one. Spelt
    /// otherwise than the last build, a rebuild used to walk every kept project again.
    ///
    /// `keys` are what the build that recorded it worked out of each folder (by its path): a
    /// folder found as recorded is given them (`unchanged(_:own:root:)`).
    public init?(_ inventory: FileInventory, of root: String, keys: [String: SubtreeKeys] = [:]) {
        guard inventory.root == root || Self.isSameFolder(inventory.root, root) else { return nil }
        self.inventory = inventory
        ranges = inventory.partRanges()
        self.keys = keys
    }

    /// The entries recorded under the folder at `path`, if each of them is still as recorded
    /// (`unchangedPart`), with the keys the recording build worked out of the folder when its own
    /// metadata (`own`, as just listed) is the recorded one too: the keys hash the folder's own
    /// entry and every entry under it, and those are then the ones they were worked out from.
    func unchanged(_ path: [UInt8], own: FileInventory.Stamp, root: Int32) -> (part: FileInventory.Part, keys: SubtreeKeys?)? {
        guard let part = unchangedPart(path, root: root) else { return nil }
        guard own != .never, let index = ranges[path]?.own, inventory.stamps[index] == own,
            let keys = keys[String(decoding: path, as: UTF8.self)]
        else { return (part, nil) }
        return (part, keys)
    }

    /// Whether both paths resolve to the same existing folder.
    private static func isSameFolder(_ a: String, _ b: String) -> Bool {
        guard let resolved = FileSystem.realPath(a) else { return false }
        return resolved == FileSystem.realPath(b)
    }

    /// The entries recorded under the folder at `path` (relative to the root), if each of them is
    /// still as recorded; nil when one is not (or is racy), or none were recorded there.
    ///
    /// A file a round's seal vouched for is checked by its folders alone, as a build that finds
    /// nothing to do checks it (`SealedRounds`): it is taken as recorded when its folder is an
    /// entry of the same part, listed before it (a folder's entries follow it) and found
    /// unchanged. On the large benchmark that spares a rebuild after a ballot 250,000 of its
    /// 440,000 stats. A recorded round's `votes/` folder, vouched for, is taken as recorded the
    /// same way, by its round's folder: 18,000 more, one for each recorded round.
    func unchangedPart(_ path: [UInt8], root: Int32) -> FileInventory.Part? {
        guard let range = ranges[path] else { return nil }
        let vouched = inventory.vouched.count == inventory.stamps.count ? inventory.vouched[range.stamps] : []
        let part = FileInventory.Part(
            paths: inventory.paths[range.paths], stamps: inventory.stamps[range.stamps], vouched: vouched,
            recorded: inventory.encoding)
        var info = stat()
        var start = 0, index = 0
        // Entries are looked at from the part's own folder, held open: two fewer folders for the
        // kernel to look up at each of a large rebuild's 140,000 stats of kept projects. Paths
        // not under it (none are) go from the root.
        let prefix = path.count + 1
        let folder = path.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { name in
                var spelt = Array(name)
                spelt.append(0)
                return openat(root, spelt, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
        }
        defer { if folder >= 0 { close(folder) } }
        let unchanged = part.paths.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { names -> Bool in
                guard let base = names.baseAddress else { return false }
                var unchanged = true
                // The folders found unchanged so far, and the one the last vouched-for file was in
                // (its neighbours share it), as ranges of `bytes`.
                var folders: [Range<Int>] = []
                var lastFolder: Range<Int>? = nil
                func isCheckedFolder(of path: Range<Int>) -> Bool {
                    guard let slash = bytes[path].lastIndex(of: UInt8(ascii: "/")) else { return false }
                    let folder = path.lowerBound..<slash
                    if let lastFolder, bytes[lastFolder].elementsEqual(bytes[folder]) { return true }
                    guard let found = folders.last(where: { bytes[$0].elementsEqual(bytes[folder]) }) else { return false }
                    lastFolder = found
                    return true
                }
                FileInventory.forEachNUL(in: bytes) { i in
                    // Each path ends with its NUL: ready for `fstatat` in place. After a change,
                    // the rest is passed over.
                    guard unchanged else { return }
                    defer { (index, start) = (index + 1, i + 1) }
                    if index >= part.stamps.count {
                        unchanged = false
                    } else if index < vouched.count, vouched[range.stamps.lowerBound + index] {
                        unchanged = isCheckedFolder(of: start..<i)
                        // A folder vouched for (a recorded round's votes/) vouches for what is in it.
                        if unchanged, part.stamps[part.stamps.startIndex + index].isDirectory {
                            folders.append(start..<i)
                        }
                    } else {
                        let underFolder =
                            folder >= 0 && i - start > prefix && bytes[start + prefix - 1] == UInt8(ascii: "/")
                            && bytes[start..<(start + path.count)].elementsEqual(path)
                        let recorded = part.stamps[part.stamps.startIndex + index]
                        unchanged =
                            (underFolder
                                ? fstatat(folder, base + start + prefix, &info, AT_SYMLINK_NOFOLLOW)
                                : fstatat(root, base + start, &info, AT_SYMLINK_NOFOLLOW)) == 0
                            && FileInventory.Stamp(info) == recorded
                        if unchanged, recorded.isDirectory { folders.append(start..<i) }
                    }
                }
                return unchanged && index == part.stamps.count
            }
        }
        // What the stamp vouched for goes with the part, for the next stamp (`vouchedAsRecorded`).
        return unchanged ? part : nil
    }
}

extension PathIndex {
    /// The entries of an inventory's `paths` (`count` paths, each followed by a NUL) for which
    /// `including` is true.
    init(_ paths: [UInt8], count: Int, seed: Int = .random(in: .min ... .max), including: (Int) -> Bool) {
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        starts.append(0)
        paths.withUnsafeBufferPointer { bytes in FileInventory.forEachNUL(in: bytes) { starts.append($0 + 1) } }
        if starts.count > count + 1 { starts.removeLast(starts.count - count - 1) }
        self.init(paths, starts: starts, trailing: 1, seed: seed, including: including)
    }
}
