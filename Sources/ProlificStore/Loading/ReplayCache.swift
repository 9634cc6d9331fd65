import ProlificCore

/// Every closed round's tally as the last build re-ran it (`TallyTimeline.replayExplained`), in
/// `.prolific/replay.cache` inside the content directory, so a build after a ballot or a snippet
/// doesn't replay the whole game.
///
/// The replay can't be split (each round's weights depend on the rounds before it), but it reads
/// nothing of an open round: only closed rounds, when projects started and who started them,
/// when players joined, `prolific.yml` and git's evidence. So it is keyed by the inventory of
/// every file but those of open rounds (`FileInventory.digest(leavingOut:)`, taken before
/// reading), the list of open rounds, git's `HEAD` (the evidence is read from its history), the
/// running binary and the content path. Ballots and snippets land in open rounds and keep the
/// key; closing a round, editing a profile or committing changes it, and the game is replayed.
///
/// Like the other caches it is only speed: a missing, torn, unreadable or mismatched file is a
/// miss, an entry naming a round the content doesn't have closed is a miss, a racy inventory gives
/// no key, and a linked `.prolific/` is not used. The rounds themselves are not stored, only
/// what the replay found for each, and each round is decoded when a page asks for it
/// (`ReplayedRounds`): a rebuild keeps most round pages by the bytes alone.
public struct ReplayCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_5250_4C04  // "PROLRPL" v4
    static let file = ".prolific/replay.cache"

    let layout: ContentLayout
    /// Everything the replay reads, as one line per part (see the type's note).
    let key: String

    /// The cache for `content`, read from the files `inventory` (of the whole content directory,
    /// taken before anything was read) saw, with the evidence of git's `head` ("" outside a
    /// repository); nil where there can be none (a racy entry, an unknown binary, a linked
    /// `.prolific/`, an inventory of another folder).
    public init?(layout: ContentLayout, inventory: FileInventory, content: Content, head: String) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, inventory: inventory, content: content, head: head, binary: binary)
    }

    /// The same, for a given binary identity (tests).
    init?(layout: ContentLayout, inventory: FileInventory, content: Content, head: String, binary: String) {
        guard inventory.root == layout.root, HistoryCache.isUsable(layout) else { return nil }
        // Slices, so each path is looked up without copying it.
        var open: Set<ArraySlice<UInt8>> = []
        for project in content.projects {
            for round in project.rounds where round.isOpen {
                open.insert(ArraySlice("projects/\(project.slug)/rounds/\(round.number.folderName)".utf8))
            }
        }
        // An open round's folder and everything under it: `projects/<slug>/rounds/<NNNN>[/…]`.
        let digest = inventory.digest { path in
            guard !open.isEmpty, path.starts(with: Self.projectsPrefix) else { return false }
            var slashes = 0
            for index in path.indices where path[index] == UInt8(ascii: "/") {
                slashes += 1
                if slashes == 4 { return open.contains(path[..<index]) }
            }
            return slashes == 3 && open.contains(path)
        }
        guard let digest else { return nil }
        self.layout = layout
        let rounds = open.map { String(decoding: $0, as: UTF8.self) }.sorted()
        key = ["binary \(binary)", "content \(layout.root)", "git \(head)", "open \(rounds.joined(separator: " "))", digest]
            .joined(separator: "\n")
    }

    private static let projectsPrefix = Array("projects/".utf8)

    func path() -> String { "\(layout.root)/\(Self.file)" }

    /// The replay an earlier build saved for the same files, each round decoded when a page asks
    /// for it (`ReplayedRounds`); nil when there is none, or when it names a round `content`
    /// doesn't have closed.
    public func load(for content: Content) -> ReplayedRounds? {
        guard let bytes = try? FileSystem.readBytes(path(), limit: 1 << 31), bytes.count >= 16 else { return nil }
        let body = bytes.count - 8
        let intact = bytes.withUnsafeBytes { all in
            ProjectCache.checksum(UnsafeRawBufferPointer(rebasing: all[..<body]))
                == UInt64(littleEndian: all.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        }
        var r = BinaryReader(bytes)
        guard intact, r.integer() == Self.magic, r.text() == key else { return nil }
        var projects: [Slug: Project] = [:]
        for project in content.projects { projects[project.slug] = project }
        let isClosed = { (slug: Slug, number: RoundNumber) in
            projects[slug]?.rounds.contains { $0.number == number && !$0.isOpen } ?? false
        }
        guard let (rounds, ranges) = ReplayCodec.index(from: &r, trailer: 8, isClosed: isClosed) else { return nil }
        return ReplayedRounds(rounds: rounds, bytes: bytes, ranges: ranges) { bytes, range in
            var r = BinaryReader(bytes, range: range)
            return ReplayCodec.explained(from: &r)
        }
    }

    /// `replayed` with each round's bytes, the same as `save` gives, for a build that has no
    /// cache to save it in (an entry changed in the last two seconds gives no key: a build run
    /// right after `close`). Round pages are fingerprinted by those bytes, so without them every
    /// round page would be rendered again, in this build and in the next.
    public static func encoded(_ replayed: [TallyTimeline.Replayed]) -> ReplayedRounds {
        var w = BinaryWriter(capacity: 4096 + 160 * replayed.count)
        let ranges = ReplayCodec.encode(replayed, into: &w)
        return ReplayedRounds(replayed, bytes: w.bytes, ranges: ranges)
    }

    /// Keeps `replayed`, the replay of the content this cache was made for, for the next build,
    /// and gives it back with each round's bytes. Written atomically; a failure to write only
    /// costs speed.
    @discardableResult
    public func save(_ replayed: [TallyTimeline.Replayed]) -> ReplayedRounds {
        var w = BinaryWriter(capacity: 4096 + 160 * replayed.count)
        w.integer(Self.magic)
        w.text(key)
        let ranges = ReplayCodec.encode(replayed, into: &w)
        w.unsigned(w.bytes.withUnsafeBytes { ProjectCache.checksum($0) })
        try? FileSystem.makeDirectories(FileSystem.parentPath(path()))
        try? AtomicFile.write(bytes: w.bytes, to: path(), durable: false)
        return ReplayedRounds(replayed, bytes: w.bytes, ranges: ranges)
    }
}
