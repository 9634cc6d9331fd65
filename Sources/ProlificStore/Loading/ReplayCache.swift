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
/// no key, and a linked `.prolific/` is not used. The rounds themselves are not stored: each
/// result is joined to its round in the content just read.
public struct ReplayCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_5250_4C01  // "PROLRPL" v1
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

    /// The replay an earlier build saved for the same files, joined to the rounds of `content`;
    /// nil when there is none.
    public func load(for content: Content) -> [TallyTimeline.Replayed]? {
        guard let bytes = try? FileSystem.readBytes(path(), limit: 1 << 31), bytes.count >= 16 else { return nil }
        let body = bytes.count - 8
        let intact = bytes.withUnsafeBytes { all in
            ProjectCache.checksum(UnsafeRawBufferPointer(rebasing: all[..<body]))
                == UInt64(littleEndian: all.loadUnaligned(fromByteOffset: body, as: UInt64.self))
        }
        var r = BinaryReader(bytes)
        guard intact, r.integer() == Self.magic, r.text() == key else { return nil }
        var rounds: [String: Round] = [:]
        for project in content.projects {
            for round in project.rounds where !round.isOpen { rounds["\(project.slug)/\(round.number.folderName)"] = round }
        }
        guard let replayed = ReplayCodec.decode(from: &r, rounds: rounds), r.remaining == 8 else { return nil }
        return replayed
    }

    /// Keeps `replayed`, the replay of the content this cache was made for, for the next build.
    /// Written atomically; a failure to write only costs speed.
    public func save(_ replayed: [TallyTimeline.Replayed]) {
        var w = BinaryWriter(capacity: 4096 + 160 * replayed.count)
        w.integer(Self.magic)
        w.text(key)
        ReplayCodec.encode(replayed, into: &w)
        w.unsigned(w.bytes.withUnsafeBytes { ProjectCache.checksum($0) })
        try? FileSystem.makeDirectories(FileSystem.parentPath(path()))
        try? AtomicFile.write(bytes: w.bytes, to: path(), durable: false)
    }
}
