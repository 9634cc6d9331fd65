#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore

/// Each project as a build last read it, in `.prolific/projects/<slug>.cache` inside the content
/// directory, so a rebuild reads and parses only the projects whose files changed.
///
/// A project's files are its folder and everything under it, so an entry is keyed by that
/// subtree's inventory (`FileInventory.subtreeKey`): the SHA-256 of every path with its inode,
/// size and times, taken before the build reads anything. An equal key means the same files
/// with the same bytes, and what `ContentReader.loadProject` made of them then is what it would
/// make of them now.
/// Only projects read without any problem are kept, never one with a racy entry, and the key also
/// holds the running binary (a rebuilt prolific may read differently) and the content directory,
/// resolved (`ContentLayout.resolvedRoot`): `Content` and `./Content` share the entries. The paths
/// a decoded project's origins show are made again from the layout in use (`ProjectCodec` keeps
/// a path whole only when it is not the expected one, which a project read from files never
/// has). Like the other caches it is only speed: an entry that is missing, different, torn or
/// unreadable is read from the files, and a linked `.prolific/` is not used.
///
/// Entries are written in place without `fsync` (there are thousands, and a lost one costs one
/// project's reading); a checksum over each of an entry's two parts catches one torn by a crash,
/// and the texts' table and each text have their own, for a text read alone (`TextsPart`).
/// A rebuild reads only the first part, the project without its snippets' texts and its seals'
/// files (20 of the 123 MB of entries on large); a text asked for alone is read alone
/// (`text(_:following:count:at:)`), and a kept seal's files with the others of its project
/// (`DeferredSeals`).
public struct ProjectCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_5052_4A09  // "PROLPRJ" v9: ballots, winners and scores name snippets by number
    static let folder = ".prolific/projects"

    let layout: ContentLayout
    /// The inventory the keys come from, for `project(_:)` and `save(_:)`; callers that work out
    /// each project's key themselves (`ContentReader.loadAllTakingInventory`) give none.
    let inventory: FileInventory?
    /// The running binary (`BuildStamp.runningBinary`).
    let binary: String
    /// The content directory, resolved, as the entries name it.
    let root: String
    private let codec: ProjectCodec

    /// A cache that answers for the files as `inventory` (of the whole content directory, taken
    /// before anything is read) saw them; nil where there can be none (a linked `.prolific/` or
    /// `.prolific/projects/`, an unknown binary, an inventory of another folder).
    public init?(layout: ContentLayout, inventory: FileInventory) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, inventory: inventory, binary: binary)
    }

    /// A cache whose callers give each project's key (`FileInventory.subtreeKey`); nil where
    /// there can be none.
    public init?(layout: ContentLayout) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, inventory: nil, binary: binary)
    }

    /// The same, for a given binary identity (tests).
    init?(layout: ContentLayout, inventory: FileInventory?, binary: String) {
        // Neither `.prolific/` nor its `projects/` may be a link: entries are written and pruned
        // there, and a pull request can commit a link.
        guard inventory.map({ $0.root == layout.root }) ?? true, HistoryCache.isUsable(layout),
            !FileSystem.isSymlink("\(layout.root)/\(Self.folder)")
        else { return nil }
        self.layout = layout
        self.inventory = inventory
        self.binary = binary
        root = layout.resolvedRoot
        codec = ProjectCodec(layout: layout)
    }

    func path(_ slug: Slug) -> String { "\(layout.root)/\(Self.folder)/\(slug).cache" }

    private func key(_ slug: Slug) -> [UInt8]? { inventory?.subtreeKey("projects/\(slug)") }

    /// Whether a project is kept for `slug`, files unseen.
    func hasEntry(_ slug: Slug) -> Bool { FileSystem.exists(path(slug)) }

    /// The project as it was read last, if its files are the same.
    public func project(_ slug: Slug) -> Project? {
        key(slug).flatMap { project(slug, key: $0) }
    }

    /// The project as it was read last, if it was read from files whose key was `key`. Its
    /// snippets' texts are made only when asked for (`SnippetText`), and its seals' files read
    /// only when asked for (`DeferredSeals`): a rebuild shows few of them. Only the entry's first
    /// part is read now; the rest is read from the entry again then, or, if another build has
    /// replaced it since (after a change to the project's files), from the files.
    func project(_ slug: Slug, key: [UInt8]) -> Project? {
        guard let bytes = firstPart(slug), let body = CacheSeal.body(of: bytes) else { return nil }
        var r = BinaryReader(bytes, range: body)
        let checksum = Self.checksum(bytes)
        // The second part holds the snippets' texts, then the seals' files as one more
        // (`TextsPart.count(snippets:)`).
        let deferred = ProjectCodec.Bodies.deferred(
            texts: { [self] ids in
                DeferredTexts(
                    load: { texts(slug, following: checksum, count: TextsPart.count(snippets: ids.count)) ?? .strings(textsFromFiles(slug, ids: ids)) },
                    one: { text(slug, following: checksum, count: TextsPart.count(snippets: ids.count), at: $0) })
            },
            seals: { [self] places, textCount in
                DeferredSeals(
                    places: places,
                    load: { textBytes(slug, following: checksum, count: TextsPart.count(snippets: textCount), at: textCount) },
                    fromFiles: { sealFilesFromFiles(slug) })
            })
        guard isHeader(&r, key: key), let project = codec.decode(from: &r, bodies: deferred), r.isAtEnd, project.slug == slug
        else { return nil }
        return project
    }

    /// An entry is two parts, each sealed (`CacheSeal`) on its own, after the first one's
    /// length (8 bytes): the header and the project without its snippets' texts and its seals'
    /// files, then the texts' part (`TextsPart`), which holds them. The first part's checksum
    /// opens the second: two builds writing an entry at once can't pair one's project with the
    /// other's texts.
    private func firstPart(_ slug: Slug) -> [UInt8]? {
        guard let (fd, size) = Self.openEntry(path(slug)) else { return nil }
        defer { close(fd) }
        // A torn second part still gives the project (its texts and seals' files then come
        // from the files).
        guard let first = Self.firstPartLength(fd, entrySize: size, leaving: 0) else { return nil }
        return Self.readBytes(fd, first, at: 8)
    }

    /// `path` opened for reading when it is a regular file of at most 1 GiB, with its size:
    /// never a link, and never waited on (a named pipe in its place is no entry).
    private static func openEntry(_ path: String) -> (descriptor: Int32, size: Int)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 16, info.st_size <= 1 << 30 else {
            close(fd)
            return nil
        }
        return (fd, Int(info.st_size))
    }

    /// The checksum that ends a sealed part.
    private static func checksum(_ part: [UInt8]) -> [UInt8] { Array(part.suffix(8)) }

    /// Whether `r` starts with the header of an entry for `key` (moving past it if so).
    private func isHeader(_ r: inout BinaryReader, key: [UInt8]) -> Bool {
        r.integer() == Self.magic && r.text() == binary && r.text() == root && r.shortCount() == key.count && r.consume(key)
    }

    /// The `count` texts of the second part of `slug`'s entry (the snippets' and, last, the
    /// seals' packed files), read whole (checked by the part's seal, the table stepped over), as
    /// its bytes and where each text is; nil if the part is torn, or the entry's first part is
    /// no longer the one whose checksum is `checksum` (another build replaced it).
    func texts(_ slug: Slug, following checksum: [UInt8], count: Int) -> DeferredTexts.Loaded? {
        guard let (fd, entrySize) = Self.openEntry(path(slug)) else { return nil }
        defer { close(fd) }
        guard let first = Self.firstPartLength(fd, entrySize: entrySize, leaving: TextsPart.tableSize(count: 0) + 8),
            let second = Self.readBytes(fd, entrySize - 8 - first, at: 8 + first), let body = CacheSeal.body(of: second)
        else { return nil }
        var r = BinaryReader(second, range: body)
        guard r.consume(checksum), r.skip(TextsPart.tableSize(count: count) - checksum.count) != nil,
            let ranges = ProjectCodec.textRanges(from: &r, count: count), r.isAtEnd
        else { return nil }
        return .packed(bytes: second, ranges: ranges)
    }

    /// Text `index` of the `count` texts in `slug`'s entry, read alone: the table that opens
    /// the second part, then the text's own bytes, each checked by its checksum. A rebuild's feeds
    /// show one snippet of each of a player's stories, and reading each story's texts whole
    /// for it was most of their work after a `close` (docs/performance-log.md). nil where the entry
    /// is not the one whose first part's checksum is `checksum`, or anything read is damaged.
    func text(_ slug: Slug, following checksum: [UInt8], count: Int, at index: Int) -> String? {
        textBytes(slug, following: checksum, count: count, at: index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of text `index`, read alone as `text(_:following:count:at:)` reads it: the
    /// seals' packed files are the text after the snippets' (`DeferredSeals`).
    func textBytes(_ slug: Slug, following checksum: [UInt8], count: Int, at index: Int) -> [UInt8]? {
        guard index >= 0, index < count, let (fd, entrySize) = Self.openEntry(path(slug)) else { return nil }
        defer { close(fd) }
        let tableSize = TextsPart.tableSize(count: count)
        guard let first = Self.firstPartLength(fd, entrySize: entrySize, leaving: tableSize + 8),
            let table = Self.readBytes(fd, tableSize, at: 8 + first),
            let place = TextsPart.place(of: index, in: table, following: checksum, textsSize: entrySize - 8 - first - tableSize - 8),
            let text = Self.readBytes(fd, place.range.count, at: 8 + first + tableSize + place.range.lowerBound),
            text.withUnsafeBytes({ CacheSeal.checksum($0) }) == place.checksum
        else { return nil }
        return text
    }

    /// The first part's length, read from the entry's first 8 bytes, when it is at least 16
    /// bytes and leaves `rest` bytes or more after it for the second part.
    private static func firstPartLength(_ fd: Int32, entrySize: Int, leaving rest: Int) -> Int? {
        var length: UInt64 = 0
        guard pread(fd, &length, 8, 0) == 8 else { return nil }
        let first = Int(truncatingIfNeeded: UInt64(littleEndian: length))
        return first >= 16 && first <= entrySize - 8 - rest ? first : nil
    }

    /// `count` bytes of `fd` from `offset`, all of them or nil.
    private static func readBytes(_ fd: Int32, _ count: Int, at offset: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { return nil }
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            let (done, failure) = FileSystem.readAll(fd, into: UnsafeMutableRawBufferPointer(buffer))
            filled = done
            complete = failure == 0 && done == count
        }
        return complete ? bytes : nil
    }

    /// The texts of the snippets `ids` names, read from the project's files: its entry was
    /// replaced while a build used it, so the files changed since the build looked at them, and
    /// the next build makes again whatever this one shows of them. A snippet no longer there
    /// has an empty text.
    func textsFromFiles(_ slug: Slug, ids: [SubmissionID]) -> [String] {
        var bodies: [SubmissionID: String] = [:]
        if let project = ContentReader(layout: layout).loadProject(slug, depth: .all).0 {
            for round in project.rounds {
                for submission in round.submissions { bodies[submission.id] = submission.body }
            }
        }
        return ids.map { bodies[$0] ?? "" }
    }

    /// The files of each sealed round's seal as its round.md records them now: the entry was
    /// replaced or damaged while a build used it (see `textsFromFiles`).
    func sealFilesFromFiles(_ slug: Slug) -> [RoundNumber: [Seal.File]] {
        var files: [RoundNumber: [Seal.File]] = [:]
        for round in ContentReader(layout: layout).loadProject(slug, depth: .all).0?.rounds ?? [] {
            if let seal = round.seal { files[round.number] = seal.files }
        }
        return files
    }

    /// Keeps `project`, as just read from files that `inventory` saw, for the next build; does
    /// nothing when its files can't vouch for it (racy). A failure to write only costs speed.
    public func save(_ project: Project) {
        if let key = key(project.slug) { save(project, key: key) }
    }

    /// Keeps `project`, as just read from files whose key is `key`.
    func save(_ project: Project, key: [UInt8]) {
        var w = BinaryWriter(capacity: key.count + ProjectCodec.estimatedSize(of: project))
        w.integer(Self.magic)
        w.text(binary)
        w.text(root)
        w.varint(UInt64(key.count))
        w.raw(key)
        // The project takes the rest of the first part, up to its checksum; its texts and its
        // seals' files the second.
        var texts = BinaryWriter(capacity: ProjectCodec.estimatedSize(of: project))
        codec.encode(project, into: &w, texts: &texts)
        CacheSeal.seal(&w)
        let count = TextsPart.count(snippets: project.rounds.reduce(0) { $0 + $1.submissions.count })
        guard let second = TextsPart.make(texts.bytes, count: count, following: Self.checksum(w.bytes)) else { return }
        var entry = BinaryWriter(capacity: 8 + w.bytes.count + second.count)
        entry.integer(Int64(w.bytes.count))
        entry.raw(w.bytes)
        entry.raw(second)
        Self.write(entry.bytes, to: path(project.slug))
    }

    /// Removes the entries of projects that are gone; `slugs` are the projects there are.
    public func prune(keeping slugs: [Slug]) {
        let folder = "\(layout.root)/\(Self.folder)"
        guard let entries = try? FileSystem.list(folder) else { return }
        let kept = Set(slugs.map { "\($0).cache" })
        for entry in entries where entry.kind == .file && !kept.contains(entry.name) { unlink("\(folder)/\(entry.name)") }
    }

    /// Writes `bytes` over `path` in place. Not atomic, on purpose: a rename per project made
    /// the threads wait on the folder's lock, and the checksum already turns a file torn by a
    /// crash, or by two builds writing it at once, into a miss.
    private static func write(_ bytes: [UInt8], to path: String) {
        try? FileSystem.makeDirectories(FileSystem.parentPath(path))
        // Never waiting on a named pipe in an entry's place, nor writing into one.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        _ = FileSystem.writeAll(fd, bytes)
    }
}
