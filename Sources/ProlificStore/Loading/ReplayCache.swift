import Crypto
import ProlificCore

/// Every closed round's tally as the last build re-ran it (`TallyTimeline.replayExplained`), in
/// `.prolific/replay.cache` inside the content directory, so a build after a ballot, a snippet,
/// a profile edit or a `close` doesn't replay the whole game.
///
/// The replay can't be split (each round's weights depend on the rounds before it), but it reads
/// nothing of an open round: only closed rounds, when projects started and who started them,
/// when players joined, `prolific.yml` and git's evidence. So it is keyed by the running binary,
/// the content directory (resolved: `ContentLayout.resolvedRoot`), git's evidence as far as a tally reads it (who maintains the game, each
/// profile's first commit; each replayed round's ballots' commits are compared beside the
/// files), each project's start and owner and each player's join time as read, and the inventory
/// of every other file but those of open rounds (`FileInventory.digests`, taken before
/// reading; projects' own files and folders and the players' profiles are left to what the key
/// holds of them).
/// Ballots and snippets land in open rounds, follows and names in profiles, and keep the key,
/// committed or not; a player's join time, a closed round, a new profile's first commit or a
/// commit of a closed round's ballot changes it, and the game is replayed.
///
/// Closing a round adds a round to the replay and changes nothing else it reads: the files
/// the cache doesn't cover are those of the rounds closed since, and with them left out, the
/// digest is the one saved. When no other round's cutoff is later than one of those rounds'
/// closing (as a round `close` just closed has it), no other tally saw it: the replay is the
/// saved one followed by those rounds' tallies, each against its own past from the history
/// `close` keeps (`HistoryCache`, `TallyTimeline.replayAdding`). Anything else replays the game.
/// The file then lists those rounds last, where a whole replay would list a round closed past
/// its deadline (a cutoff before other rounds' cutoffs) among them: what each round's bytes
/// hold is the same, and rounds are only ever looked up by project and number.
///
/// Like the other caches it is only speed: a missing, torn, unreadable or mismatched file is a
/// miss, an entry naming a round the content doesn't have closed is a miss, a racy entry among
/// those the key covers is a miss (and the replay is then not saved), and a linked `.prolific/`
/// is not used. The rounds themselves are not stored, only what the replay found for each, and
/// each round is decoded when a page asks for it (`ReplayedRounds`): a rebuild keeps most round
/// pages by the bytes alone.
public struct ReplayCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_5250_4C08  // "PROLRPL" v8: each project's identity
    static let file = ".prolific/replay.cache"

    let layout: ContentLayout
    /// What the replay reads besides the files the digest covers, as one line per part.
    let key: String
    /// The content as the build found it, before reading.
    let inventory: FileInventory
    /// Each open round's folder, `projects/<slug>/rounds/<NNNN>`.
    let open: Set<ArraySlice<UInt8>>
    /// The projects, in the content's order: the files' digest is taken project by project.
    let slugs: [Slug]
    /// Git's commits of each round's ballots: a replayed round's are compared with the saved
    /// ones' (`ballotsDigest`), an open round's are not in the key.
    let ballotCommits: [String: [Handle: [IdentityEvidence.Commit]]]
    /// Where the file is written, when not by the thread that saves: a build hands the write
    /// to a thread of its own (`Parallel.background`) and waits for it before it ends, so that
    /// the pages don't wait for 19 MB to be written (a large rebuild after `close`: 70 ms).
    public var writesAside: (@Sendable (@escaping @Sendable () -> Void) -> Void)?

    /// The cache for `content`, read from the files `inventory` (of the whole content directory,
    /// taken before anything was read) saw, with what git says (`evidence`, empty outside a
    /// repository); nil where there can be none (an unknown binary, a linked `.prolific/`, an
    /// inventory of another folder).
    public init?(layout: ContentLayout, inventory: FileInventory, content: Content, evidence: IdentityEvidence) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, inventory: inventory, content: content, evidence: evidence, binary: binary)
    }

    /// The same, for a given binary identity (tests).
    init?(layout: ContentLayout, inventory: FileInventory, content: Content, evidence: IdentityEvidence, binary: String) {
        guard inventory.root == layout.root, HistoryCache.isUsable(layout) else { return nil }
        var open: Set<ArraySlice<UInt8>> = []
        var joined = SHA256()
        for handle in content.users.keys.sorted() {
            if let user = content.users[handle] { joined.update(data: Array("\(handle) \(user.joined)\n".utf8)) }
        }
        var starts = SHA256()
        for project in content.projects {
            starts.update(data: Array("\(project.slug) \(project.created) \(project.owner)\n".utf8))
            for round in project.rounds where round.isOpen { open.insert(Self.folder(project.slug, round.number)) }
        }
        (self.layout, self.inventory, self.open, self.ballotCommits) = (layout, inventory, open, evidence.ballotCommits)
        slugs = content.projects.map(\.slug)
        key = [
            "binary \(binary)", "content \(layout.resolvedRoot)", "git \(Self.digest(of: evidence))",
            "projects \(RoundSeal.hex(starts.finalize()))",
            "players \(RoundSeal.hex(joined.finalize()))",
        ].joined(separator: "\n")
    }

    /// What identifies git's evidence besides the ballots' commits (`ballotsDigest`), as far as
    /// a tally reads it: who maintains the game and since when, and each profile's first commit
    /// (`IdentityEvidence.firstCommit`), in a fixed order. A commit that changes none of it, such
    /// as `close --commit`'s, a ballot's in an open round or a profile's edit, keeps the replay.
    static func digest(of evidence: IdentityEvidence) -> String {
        var w = BinaryWriter()
        func commits(_ list: [IdentityEvidence.Commit]) {
            w.varint(UInt64(list.count))
            for commit in list {
                w.text(commit.identity)
                w.signed(commit.time.secondsSinceEpoch)
            }
        }
        w.varint(UInt64(evidence.maintainers.count))
        for identity in evidence.maintainers.sorted() { w.text(identity) }
        w.varint(UInt64(evidence.configCommitters.count))
        for (identity, since) in evidence.configCommitters.sorted(by: { $0.key < $1.key }) {
            w.text(identity)
            w.signed(since.secondsSinceEpoch)
        }
        w.varint(UInt64(evidence.profileCommits.count))
        for (handle, list) in evidence.profileCommits.sorted(by: { $0.key < $1.key }) {
            w.text(handle.rawValue)
            commits(Array(list.prefix(1)))
        }
        return RoundSeal.sha256(w.bytes)
    }

    /// What identifies the commits of `rounds`' ballots (`IdentityEvidence.key`s, in the
    /// replay's order): a round's tally reads those of its own ballots only, so a ballot committed
    /// to an open round keeps the replay, and a round `close` adds brings its own.
    func ballotsDigest(_ rounds: some Sequence<String>) -> String {
        var w = BinaryWriter(capacity: 1 << 16)
        for round in rounds {
            w.text(round)
            let voters = ballotCommits[round] ?? [:]
            w.varint(UInt64(voters.count))
            for (voter, list) in voters.sorted(by: { $0.key < $1.key }) {
                w.text(voter.rawValue)
                w.varint(UInt64(list.count))
                for commit in list {
                    w.text(commit.identity)
                    w.signed(commit.time.secondsSinceEpoch)
                }
            }
        }
        return RoundSeal.sha256(w.bytes)
    }

    /// The digest a cache of `rounds` is saved with: the files' (nil when racy) and the ballots'.
    private func savedDigest(files: String?, rounds: some Sequence<String>) -> String? {
        files.map { "\($0) \(ballotsDigest(rounds))" }
    }

    /// A round's folder, as the inventory names it.
    private static func folder(_ slug: Slug, _ number: RoundNumber) -> ArraySlice<UInt8> {
        ArraySlice("projects/\(slug)/rounds/\(number.folderName)".utf8)
    }

    /// One project's part of the files' digest (`filesDigests`), kept in the file with the
    /// key of the project's folder (`FileInventory.subtreeKey`) it was taken with: a later
    /// build whose inventory gives that folder the same key takes the digest as it is.
    struct Part: Equatable {
        var slug: Slug
        var key: [UInt8]
        var digest: [UInt8]
    }

    /// What identifies every file the replay reads: every entry but open rounds',
    /// projects' own files and folders (`projects/<slug>`, its project.md, its rounds folder),
    /// whose starts are in the key, and players' (`users/`), whose join times are. `first`
    /// leaves out `added`'s folders too (rounds closed since the cache was saved), `second`
    /// doesn't; each nil when an entry it covers is racy.
    ///
    /// Taken project by project, then the rest, and hashed together: a project whose folder has
    /// the key `kept` holds it with has the part `kept` holds (files with the same key are the
    /// same files, and the parts of one with a round added since are never kept). `parts` are
    /// the projects' parts of `second`, to keep for the next build (nil when racy). Hashing
    /// every entry of the large content was 4 % of a rebuild after a ballot, on the model
    /// stage's longest thread.
    func filesDigests(leavingOut added: Set<ArraySlice<UInt8>> = [], kept: [Slug: Part] = [:])
        -> (first: String?, second: String?, parts: [Part]?)
    {
        let keys = slugs.map { inventory.subtreeKey("projects/\($0)") }
        // The projects of the rounds added: `projects/<slug>/rounds/<NNNN>`.
        let addedTo = Set(
            added.compactMap { folder in
                Slug(String(decoding: folder.dropFirst(Self.projectsPrefix.count).prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self))
            })
        func reused(_ place: Int) -> Part? {
            guard let key = keys[place], let part = kept[slugs[place]], part.key == key, !addedTo.contains(slugs[place]) else { return nil }
            return part
        }
        guard
            let (computed, rest) = inventory.digests(
                of: slugs.map { "projects/\($0)" }, needed: { reused($0) == nil }, takingTheFirst: !added.isEmpty, share(leavingOut: added))
        else { return (nil, nil, nil) }
        var parts: [FileInventory.PartDigests] = []
        parts.reserveCapacity(slugs.count)
        for place in slugs.indices {
            if let part = reused(place) {
                parts.append(FileInventory.PartDigests(first: part.digest, second: part.digest))
            } else if let part = computed[place] {
                parts.append(part)
            } else {
                return (nil, nil, nil)
            }
        }
        func combined(_ digest: (FileInventory.PartDigests) -> [UInt8]?) -> String? {
            var hasher = SHA256()
            for (slug, part) in zip(slugs, parts) {
                guard let digest = digest(part) else { return nil }
                hasher.update(data: Array(slug.rawValue.utf8) + [0])
                hasher.update(data: digest)
            }
            guard let rest = digest(rest) else { return nil }
            hasher.update(data: rest)
            return RoundSeal.hex(hasher.finalize())
        }
        let second = combined(\.second)
        var toKeep: [Part]? = nil
        if second != nil {
            toKeep = zip(slugs, zip(keys, parts)).compactMap { slug, keyed in
                guard let key = keyed.0, let digest = keyed.1.second else { return nil }
                return Part(slug: slug, key: key, digest: digest)
            }
        }
        return (added.isEmpty ? nil : combined(\.first), second, toKeep)
    }

    /// Which of the digests an entry goes into (`FileInventory.DigestShare`), by its path.
    private func share(leavingOut added: Set<ArraySlice<UInt8>>) -> (ArraySlice<UInt8>) -> FileInventory.DigestShare {
        // Entries come folder by folder: a round's folder is looked up once for all its files.
        var last: (folder: ArraySlice<UInt8>, share: FileInventory.DigestShare)?
        let open = open
        func round(_ folder: ArraySlice<UInt8>) -> FileInventory.DigestShare {
            if let last, last.folder.elementsEqual(folder) { return last.share }
            let share: FileInventory.DigestShare = open.contains(folder) ? .neither : added.contains(folder) ? .secondOnly : .both
            last = (folder, share)
            return share
        }
        return { path in
            guard path.starts(with: Self.projectsPrefix) else {
                return path.starts(with: Self.usersPrefix) || path.elementsEqual(Self.usersPrefix.dropLast()) ? .neither : .both
            }
            var slashes = 0, second = path.startIndex
            for index in path.indices where path[index] == UInt8(ascii: "/") {
                slashes += 1
                if slashes == 2 {
                    second = index
                } else if slashes == 3 {
                    guard path[(second + 1)..<index].elementsEqual(Self.rounds) else { return .both }
                } else if slashes == 4 {
                    return round(path[..<index])
                }
            }
            switch slashes {
            case 1: return .neither
            case 2:
                let name = path[(second + 1)...]
                return name.elementsEqual(Self.projectFile) || name.elementsEqual(Self.rounds) ? .neither : .both
            case 3: return round(path)
            default: return .both
            }
        }
    }

    private static let projectsPrefix = Array("projects/".utf8)
    private static let usersPrefix = Array("users/".utf8)
    private static let rounds = Array("rounds".utf8)
    private static let projectFile = Array("project.md".utf8)

    func path() -> String { Self.path(layout) }

    /// Where the cache of the content at `layout` is.
    static func path(_ layout: ContentLayout) -> String { "\(layout.root)/\(file)" }

    /// What a build finds in the cache.
    public enum Found: Sendable {
        /// The replay of exactly the closed rounds the content has.
        case kept(ReplayedRounds)
        /// The replay of every closed round but those `Base.added` names, which closed since.
        case adding(Base)
    }

    /// A saved replay that lacks rounds closed since it was saved (nothing else it reads
    /// changed); `save(adding:to:)` completes it.
    public struct Base: Sendable {
        /// The rounds it lacks, by `IdentityEvidence.key`.
        public let added: Set<String>
        /// `filesDigests().second` of the content now, nil when racy, and its projects' parts.
        let files: String?
        let parts: [Part]?
        let rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)]
        let bytes: [UInt8]
        let ranges: [Range<Int>]
        let identities: [Slug: ReplayedRounds.Identity]

        /// Where the rounds' bytes are in `bytes`, one after the other.
        var bodies: Range<Int> {
            guard let first = ranges.first, let last = ranges.last else { return 0..<0 }
            return first.lowerBound..<last.upperBound
        }
    }

    /// The replay an earlier build saved for the same files, each round decoded when a page asks
    /// for it (`ReplayedRounds`), or the part of it that still holds when rounds closed since;
    /// nil when there is none, or when it names a round `content` doesn't have closed.
    ///
    /// `sealed`: the file's bytes as `sealedBytes` read them earlier in the same build, when
    /// they were; read here otherwise.
    public func load(for content: Content, sealed: [UInt8]? = nil) -> Found? {
        guard let bytes = sealed ?? Self.sealedBytes(layout) else { return nil }
        // The whole file: the index's ranges are places in it, and `trailer` leaves out the seal.
        var r = BinaryReader(bytes)
        guard r.integer() == Self.magic, r.text() == key, let digest = r.text(), let kept = Self.parts(from: &r),
            let identities = Self.identities(from: &r)
        else { return nil }
        // Projects and rounds are looked at in place, by index: a dictionary of the projects and
        // a loop over copies of them retained all that each project and round holds, 18,000
        // rounds' worth at every rebuild.
        let projects = content.projects
        var places: [Slug: Int] = [:]
        places.reserveCapacity(projects.count)
        for p in projects.indices { places[projects[p].slug] = p }
        let isClosed = { (slug: Slug, number: RoundNumber) -> Bool in
            guard let p = places[slug] else { return false }
            let its = projects[p].rounds
            return its.indices.contains { its[$0].number == number && !its[$0].isOpen }
        }
        guard let (rounds, ranges) = ReplayCodec.index(from: &r, trailer: 8, isClosed: isClosed) else { return nil }
        // Rounds closed since the replay was saved: their files are left out of the digest.
        // By project and number, not by their keys' strings, formatted twice for each of a large
        // game's 18,000 rounds.
        var saved = Set<ReplayedRounds.Place>(minimumCapacity: rounds.count)
        for round in rounds { saved.insert(ReplayedRounds.Place(slug: round.slug, number: round.number)) }
        var added: Set<String> = [], folders: Set<ArraySlice<UInt8>> = []
        for p in projects.indices {
            let (slug, its) = (projects[p].slug, projects[p].rounds)
            for i in its.indices where !its[i].isOpen && !saved.contains(ReplayedRounds.Place(slug: slug, number: its[i].number)) {
                added.insert(IdentityEvidence.key(slug, its[i].number))
                folders.insert(Self.folder(slug, its[i].number))
            }
        }
        let savedRounds = rounds.lazy.map { IdentityEvidence.key($0.slug, $0.number) }
        guard !added.isEmpty else {
            guard savedDigest(files: filesDigests(kept: kept).second, rounds: savedRounds) == digest else { return nil }
            var replay = ReplayedRounds(rounds: rounds, bytes: bytes, ranges: ranges, decode: Self.decode)
            replay.identities = identities
            return .kept(replay)
        }
        let (before, now, parts) = filesDigests(leavingOut: folders, kept: kept)
        guard savedDigest(files: before, rounds: savedRounds) == digest else { return nil }
        return .adding(
            Base(added: added, files: now, parts: parts, rounds: rounds, bytes: bytes, ranges: ranges, identities: identities))
    }

    /// The file's bytes, when its seal holds (what `load` reads), read on their own: a build
    /// reads them on a thread aside while the content loads, when a core is often idle, not on
    /// the model stage's path (19 MB read and checksummed, about 20 ms of CPU on large). Only
    /// the same build reads them: no other command writes the cache while it runs (the
    /// content directory's lock), and `load` still checks what they hold against the content.
    public static func sealedBytes(_ layout: ContentLayout) -> [UInt8]? {
        guard HistoryCache.isUsable(layout), let bytes = try? FileSystem.readBytes(path(layout), limit: 1 << 31),
            CacheSeal.body(of: bytes) != nil
        else { return nil }
        return bytes
    }

    /// Whether the saved replay has fewer rounds than `content` has closed: the sign of a
    /// `close` since the last build, told from the start of the file (its header and its
    /// index's count, not the 19 MB of bodies nor the checksum) before git is read, so that the
    /// build can read the history `close` keeps and derive its stamps meanwhile. Only a hint for
    /// starting that work early: `load` decides what the cache holds. False when there is no
    /// file or its start can't be read.
    public static func lacksClosedRounds(_ layout: ContentLayout, content: Content) -> Bool {
        roundsLacking(layout, content: content) > 0
    }

    /// How many more rounds `content` has closed than the saved replay holds, told as
    /// `lacksClosedRounds` tells it; 0 when there is no file or its start can't be read.
    public static func roundsLacking(_ layout: ContentLayout, content: Content) -> Int {
        // The large benchmark's header takes 0.25 MB (each project's part of the files' digest
        // and its identity). A linked `.prolific/` is never read (`HistoryCache.isUsable`).
        guard HistoryCache.isUsable(layout), let start = FileSystem.readStart(of: "\(layout.root)/\(file)", upTo: 1 << 20)
        else { return 0 }
        var r = BinaryReader(start)
        guard r.integer() == magic, r.text() != nil, r.text() != nil, parts(from: &r) != nil, identities(from: &r) != nil,
            let saved = r.varint(), saved <= UInt64(Int.max)
        else { return 0 }
        return max(0, content.projects.indices.reduce(0) { $0 + content.projects[$1].closedRoundCount } - Int(saved))
    }

    private static let decode: ReplayedRounds.Decoder = { bytes, range in
        var r = BinaryReader(bytes, range: range)
        return ReplayCodec.explained(from: &r)
    }

    /// `replayed` with each round's bytes, the same as `save` gives, for a build that has no
    /// cache to save it in (no inventory of the content). Round pages are fingerprinted by those
    /// bytes, so without them every round page would be rendered again, in this build and in the
    /// next.
    public static func encoded(_ replayed: [TallyTimeline.Replayed]) -> ReplayedRounds {
        let bound = ReplayCodec.bodiesBound(replayed)
        var w = BinaryWriter(capacity: 4096 + 32 * replayed.count + bound)
        let ranges = ReplayCodec.encode(replayed, bound: bound, into: &w)
        var replay = ReplayedRounds(replayed, bytes: w.bytes, ranges: ranges)
        replay.identities = identities(replayed.map { ($0.slug, $0.round.number, $0.explained != nil) }) { w.bytes[ranges[$0]] }
        return replay
    }

    /// Keeps `replayed`, the replay of the content this cache was made for, for the next build,
    /// and gives it back with each round's bytes. Written atomically, unless an entry the key
    /// covers is racy (changed too recently to vouch for: a build right after `close`); a
    /// failure to write only costs speed.
    @discardableResult
    public func save(_ replayed: [TallyTimeline.Replayed]) -> ReplayedRounds {
        let bound = ReplayCodec.bodiesBound(replayed)
        // The bodies first: the projects' identities, in the header, are made of them.
        var bodies = BinaryWriter(capacity: bound)
        let entries = bodies.appending(replayed)
        let bodyRanges = ReplayCodec.ranges(entries)
        let identities = Self.identities(entries.map { ($0.slug, $0.number, $0.isExplained) }) { bodies.bytes[bodyRanges[$0]] }
        var w = BinaryWriter(capacity: 4096 + 32 * replayed.count + 48 * identities.count + bodies.bytes.count)
        let files = filesDigests()
        let digest = savedDigest(files: files.second, rounds: replayed.lazy.map { IdentityEvidence.key($0.slug, $0.round.number) })
        header(digest, files.parts, identities, into: &w)
        let ranges = ReplayCodec.write(entries, bodies: bodies.bytes[...], into: &w)
        finish(&w, saving: digest != nil)
        var replay = ReplayedRounds(replayed, bytes: w.bytes, ranges: ranges)
        replay.identities = identities
        return replay
    }

    /// Each project's `ReplayedRounds.Identity` (only those `only` names, when given): for its
    /// rounds in number order, each one's number, whether it has an explanation, its length and
    /// its bytes (`body(i)` gives round `i`'s), hashed with SHA-256.
    static func identities(
        _ rounds: [(slug: Slug, number: RoundNumber, isExplained: Bool)], only: Set<Slug>? = nil,
        body: (Int) -> ArraySlice<UInt8>
    ) -> [Slug: ReplayedRounds.Identity] {
        var byProject: [Slug: [Int]] = [:]
        for (index, round) in rounds.enumerated() where only?.contains(round.slug) ?? true {
            byProject[round.slug, default: []].append(index)
        }
        var found: [Slug: ReplayedRounds.Identity] = [:]
        found.reserveCapacity(byProject.count)
        for (slug, indices) in byProject {
            var hasher = SHA256()
            for index in indices.sorted(by: { rounds[$0].number.value < rounds[$1].number.value }) {
                let bytes = body(index)
                var header = BinaryWriter(capacity: 24)
                header.integer(Int64(rounds[index].number.value))
                header.flag(rounds[index].isExplained)
                header.integer(Int64(bytes.count))
                hasher.update(data: header.bytes)
                bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            }
            found[slug] = ReplayedRounds.Identity(digest: Array(hasher.finalize()), rounds: indices.count)
        }
        return found
    }

    /// The identities `header` wrote, by project; nil when malformed.
    static func identities(from r: inout BinaryReader) -> [Slug: ReplayedRounds.Identity]? {
        guard let count = r.shortCount(minimumSize: 34) else { return nil }
        var found: [Slug: ReplayedRounds.Identity] = [:]
        found.reserveCapacity(count)
        for _ in 0..<count {
            guard let slug = r.text().flatMap(Slug.init), let rounds = r.varint(), rounds <= UInt64(Int32.max), let digest = r.raw(32)
            else { return nil }
            found[slug] = ReplayedRounds.Identity(digest: digest, rounds: Int(rounds))
        }
        return found
    }

    /// `base` followed by `replayed`, the tallies of the rounds it lacks
    /// (`TallyTimeline.replayAdding`): the whole replay, saved as `save` saves it, each round
    /// decoded when a page asks for it.
    ///
    /// The replay given back is the saved one's bytes as they were read and the new rounds'
    /// own; the file, those bytes one after the other under a new index, is put together where
    /// it is written (`writesAside`). Copying the 19 MB of a large replay twice, here, kept the
    /// model stage waiting after a `close` (40 ms).
    @discardableResult
    public func save(adding replayed: [TallyTimeline.Replayed], to base: Base) -> ReplayedRounds {
        var added = BinaryWriter(capacity: ReplayCodec.bodiesBound(replayed))
        let addedEntries = added.appending(replayed)
        let addedRanges = ReplayCodec.ranges(addedEntries)
        let entries: [ReplayCodec.Entry] =
            zip(base.rounds, base.ranges).map { round, range in (round.slug, round.number, round.isExplained, range.count) }
            + addedEntries
        // Only the projects rounds were added to have a new identity.
        let addedTo = Set(addedEntries.map(\.slug))
        let (baseCount, addedBytes) = (base.rounds.count, added.bytes)
        let identities = base.identities.filter { !addedTo.contains($0.key) }.merging(
            Self.identities(entries.map { ($0.slug, $0.number, $0.isExplained) }, only: addedTo) { index in
                index < baseCount ? base.bytes[base.ranges[index]] : addedBytes[addedRanges[index - baseCount]]
            }
        ) { $1 }
        if let digest = savedDigest(files: base.files, rounds: entries.lazy.map { IdentityEvidence.key($0.slug, $0.number) }) {
            let (bytes, bodies) = (base.bytes, base.bodies)
            write(parts: { [self] in
                // The kept rounds' bodies are written from where the file was read, and sealed
                // in pieces: put together, they were 19 MB of fresh memory after every `close`.
                var w = BinaryWriter(capacity: 4096 + 32 * entries.count + 48 * identities.count)
                header(digest, base.parts, identities, into: &w)
                _ = ReplayCodec.write(entries, bodies: [], into: &w)
                let parts = [w.bytes[...], bytes[bodies], addedBytes[...]]
                return parts + [CacheSeal.seal(of: parts)[...]]
            })
        }
        var replay = ReplayedRounds(
            rounds: entries.map { ($0.slug, $0.number, $0.isExplained) }, bytes: base.bytes, ranges: base.ranges,
            later: (added.bytes, addedRanges), decode: Self.decode)
        replay.identities = identities
        return replay
    }

    /// The magic number, the key, the digest of the files and ballots (nil when racy: not
    /// saved), the projects' parts of the files' digest and their identities (in slug order).
    private func header(
        _ digest: String?, _ parts: [Part]?, _ identities: [Slug: ReplayedRounds.Identity], into w: inout BinaryWriter
    ) {
        w.integer(Self.magic)
        w.text(key)
        w.text(digest ?? "")
        let parts = digest == nil ? [] : parts ?? []
        w.varint(UInt64(parts.count))
        for part in parts {
            w.text(part.slug.rawValue)
            w.varint(UInt64(part.key.count))
            w.raw(part.key)
            w.varint(UInt64(part.digest.count))
            w.raw(part.digest)
        }
        w.varint(UInt64(identities.count))
        for (slug, identity) in identities.sorted(by: { $0.key < $1.key }) {
            w.text(slug.rawValue)
            w.varint(UInt64(identity.rounds))
            w.raw(identity.digest)
        }
    }

    /// The parts `header` wrote, by project; nil when malformed.
    static func parts(from r: inout BinaryReader) -> [Slug: Part]? {
        guard let count = r.shortCount(minimumSize: 3) else { return nil }
        var parts: [Slug: Part] = [:]
        parts.reserveCapacity(count)
        for _ in 0..<count {
            guard let slug = r.text().flatMap(Slug.init), let keyCount = r.shortCount(), let key = r.raw(keyCount),
                let digestCount = r.shortCount(), let digest = r.raw(digestCount)
            else { return nil }
            parts[slug] = Part(slug: slug, key: key, digest: digest)
        }
        return parts
    }

    /// The checksum, then the file written when `saving`.
    private func finish(_ w: inout BinaryWriter, saving: Bool) {
        CacheSeal.seal(&w)
        guard saving else { return }
        let bytes = w.bytes
        write { bytes }
    }

    /// The file `contents` makes, written atomically where `writesAside` says, or here.
    private func write(_ contents: @escaping @Sendable () -> [UInt8]) {
        write(parts: { [contents()[...]] })
    }

    /// The file `parts` make, one after the other, written as `write(_:)` writes it.
    private func write(parts: @escaping @Sendable () -> [ArraySlice<UInt8>]) {
        let path = path()
        let write: @Sendable () -> Void = {
            try? FileSystem.makeDirectories(FileSystem.parentPath(path))
            // Into the file the last save replaced: 19 MB on large, after every `close`.
            try? AtomicFile.write(parts: parts(), to: path, reusing: path + ".spare")
        }
        if let writesAside { writesAside(write) } else { write() }
    }
}
