import Crypto
import ProlificCore

/// The tallies `close` made, handed to the next build in `.prolific/handed.tallies`.
///
/// A build after a `close` adds the rounds closed since to the last build's replay
/// (`ReplayCache.save(adding:to:)`). Tallying them again meant reading the 27 MB history `close`
/// keeps, checking it against every round's stamps and replaying them against it: about a tenth
/// of a large rebuild's CPU, on the model stage's path. The build takes the tally `close` made
/// instead, when it can tell that tally read what its own would read:
///
/// - the round, as `FairTally.count` reads it, and what its context holds besides the history:
///   its voters' join times and git's word on its ballots (`inputs`). The build works both out
///   from what it read, for the few rounds added.
/// - the past: the projects started and the rounds closed before the round's cutoff. `close`
///   keeps, for each project, a digest of its start and of each of its closed rounds' number,
///   closing and stamp (`HistoryCache.Stamp`, what the history `close` reads is checked by). The
///   build checks only the projects whose folder changed since the build stamp `close` saw
///   before it read anything (`after`): a folder with the key that stamp recorded
///   (`SubtreeKeys`) held the same files all along, `close`'s reading included, as every other
///   cache a build keeps takes it (the key is made of each entry's inode, size and times, ctime
///   included, which a write moves; a sealed round's files are checked by their folders' times,
///   and a recorded round's `votes/` not at all, `SealedRounds`). For the others it takes
///   their rounds' stamps from its own inventory, as `HistoryCache` is checked against them.
///
/// Like every cache it is only speed: another binary or content folder, a build stamp written
/// since, a round, voter or past that differs, a project added or removed, and the build tallies
/// the round itself, as before.
public struct HandedTallies: Sendable {
    static let magic: Int64 = 0x5052_4F4C_4854_4C01  // "PROLHTL" v1
    static let file = ".prolific/handed.tallies"
    /// The most rounds kept: `close --due` may close many before a build.
    static let limit = 64

    /// One round's tally, as `close` made it.
    struct Entry: Sendable {
        /// `IdentityEvidence.key` of the round.
        var round: String
        /// `inputs(of:slug:context:)` of the round as it was tallied.
        var inputs: [UInt8]
        /// Each project's `pastPart`, by slug.
        var past: [Slug: [UInt8]]
        /// The fair tally's explanation, as the replay cache keeps it (`ReplayCodec.body`).
        var outcome: [UInt8]
    }

    /// What the file is good for: the running binary and the content folder (resolved).
    let key: String
    /// The build stamp `close` saw, as `stat` gave it.
    let after: FileInventory.Stamp
    var entries: [Entry]

    // MARK: What a tally reads

    /// A digest of what `FairTally.count` reads of `round` (its number, times, hidden snippets,
    /// snippets and ballots; in a fixed order) and of `context` but its history: the voters' join
    /// times, their git identities and the ballots git casts doubt on. A field of `Round` that
    /// `FairTally.count` comes to read, or a field `TallyContext` comes to hold, must be added
    /// here, or a build could take a tally that read something else.
    static func inputs(of round: Round, slug: Slug, context: TallyContext) -> [UInt8] {
        var w = BinaryWriter(capacity: 4096)
        w.text(slug.rawValue)
        w.varint(UInt64(round.number.value))
        for time in [round.opened, round.closes] { w.signed(time.secondsSinceEpoch) }
        w.optional(round.closed) { $0.signed($1.secondsSinceEpoch) }
        w.varint(UInt64(round.hidden.count))
        for hidden in round.hidden.sorted(by: { ($0.id, $0.at) < ($1.id, $1.at) }) {
            w.submissionID(hidden.id)
            w.signed(hidden.at.secondsSinceEpoch)
        }
        w.varint(UInt64(round.submissions.count))
        for s in round.submissions.indices.sorted(by: { round.submissions[$0].id < round.submissions[$1].id }) {
            w.submissionID(round.submissions[s].id)
            w.text(round.submissions[s].author.rawValue)
            w.text(round.submissions[s].body)
        }
        w.varint(UInt64(round.ballots.count))
        for b in round.ballots.indices.sorted(by: { round.ballots[$0].voter < round.ballots[$1].voter }) {
            w.text(round.ballots[b].voter.rawValue)
            w.signed(round.ballots[b].cast.secondsSinceEpoch)
            w.varint(UInt64(round.ballots[b].choices.count))
            for choice in round.ballots[b].choices { w.submissionID(choice) }
        }
        func pairs(_ values: [Handle: String]) {
            w.varint(UInt64(values.count))
            for (handle, value) in values.sorted(by: { $0.key < $1.key }) {
                w.text(handle.rawValue)
                w.text(value)
            }
        }
        w.varint(UInt64(context.joined.count))
        for (handle, time) in context.joined.sorted(by: { $0.key < $1.key }) {
            w.text(handle.rawValue)
            w.signed(time.secondsSinceEpoch)
        }
        pairs(context.identities)
        pairs(context.suspect)
        return Array(SHA256.hash(data: w.bytes))
    }

    /// One project's part of the past of a round whose tally has `cutoff`: a digest of its start
    /// when it came before (when and by whom) and of each of `rounds` that closed before (its
    /// number, closing and stamp), in number order.
    static func pastPart(
        start: (created: Timestamp, owner: Handle),
        rounds: [(number: RoundNumber, closed: Timestamp, stamp: HistoryCache.Stamp)], cutoff: Timestamp
    ) -> [UInt8] {
        var w = BinaryWriter(capacity: 64 + 64 * rounds.count)
        let started = start.created < cutoff
        w.flag(started)
        if started {
            w.signed(start.created.secondsSinceEpoch)
            w.text(start.owner.rawValue)
        }
        for round in rounds.sorted(by: { $0.number.value < $1.number.value }) where round.closed < cutoff {
            w.varint(UInt64(round.number.value))
            w.signed(round.closed.secondsSinceEpoch)
            w.varint(UInt64(round.stamp.round.count))
            for value in round.stamp.round { w.signed(value) }
        }
        return Array(SHA256.hash(data: w.bytes))
    }

    /// The past `close` read for a round's tally: each project's start and the closed rounds
    /// of its scan (`rounds`, with their stamps), and the tally's cutoff. Made into each
    /// project's `pastPart` only when it is kept.
    struct Past {
        var projects: [(slug: Slug, created: Timestamp, owner: Handle)]
        var rounds: [HistoryCache.Entry]
        var cutoff: Timestamp

        /// Each project's `pastPart`, by slug.
        func parts() -> [Slug: [UInt8]] {
            var byProject: [Slug: [(number: RoundNumber, closed: Timestamp, stamp: HistoryCache.Stamp)]] = [:]
            for entry in rounds { byProject[entry.slug, default: []].append((entry.number, entry.closed, entry.stamp)) }
            var parts: [Slug: [UInt8]] = [:]
            parts.reserveCapacity(projects.count)
            for project in projects {
                parts[project.slug] = pastPart(
                    start: (project.created, project.owner), rounds: byProject[project.slug] ?? [], cutoff: cutoff)
            }
            return parts
        }
    }

    // MARK: Handing over (`close`)

    /// Keeps `outcome`, the tally `close` just made of `round` (as tallied: closing now) of
    /// `slug` against `context` and the `past` it read, for the next build, beside the rounds
    /// closed since the same build stamp. `after` is that stamp as it was before `close` read
    /// anything: a build that ran meanwhile (`build` doesn't wait for `close`'s lock) may have
    /// recorded files `close` read before they changed, so when the stamp is not the same now,
    /// nothing is kept. Nothing is kept without a build stamp (no build would take it) or a
    /// known binary; a failure to write only costs speed.
    static func hand(
        _ outcome: FairTally.Outcome, of round: Round, slug: Slug, context: TallyContext, past: Past,
        after: FileInventory.Stamp?, layout: ContentLayout, binary: String? = BuildStamp.runningBinary
    ) {
        guard HistoryCache.isUsable(layout), let key = key(layout, binary: binary), let after,
            FileInventory.stamp(BuildStamp.path(layout)) == after
        else { return }
        var handed = read(layout, key: key, after: after) ?? HandedTallies(key: key, after: after, entries: [])
        let name = IdentityEvidence.key(slug, round.number)
        handed.entries.removeAll { $0.round == name }
        var body = BinaryWriter()
        let replayed = TallyTimeline.Replayed(
            slug: slug, round: round, outcome: Tally.Outcome(record: outcome.record, winner: outcome.winner), explained: outcome)
        ReplayCodec.body(replayed, into: &body)
        handed.entries.append(
            Entry(round: name, inputs: inputs(of: round, slug: slug, context: context), past: past.parts(), outcome: body.bytes))
        handed.entries.removeFirst(max(0, handed.entries.count - limit))
        try? AtomicFile.write(bytes: handed.encoded(), to: "\(layout.root)/\(file)", durable: false)
    }

    static func key(_ layout: ContentLayout, binary: String? = BuildStamp.runningBinary) -> String? {
        binary.map { "binary \($0)\ncontent \(layout.resolvedRoot)" }
    }

    private func encoded() -> [UInt8] {
        var w = BinaryWriter(capacity: 4096 + entries.reduce(0) { $0 + 48 * $1.past.count + $1.outcome.count })
        w.integer(Self.magic)
        w.text(key)
        for value in [after.kind, after.inode, after.size, after.modified, after.changed] { w.signed(value) }
        w.varint(UInt64(entries.count))
        for entry in entries {
            w.text(entry.round)
            w.raw(entry.inputs)
            w.varint(UInt64(entry.past.count))
            for (slug, part) in entry.past.sorted(by: { $0.key < $1.key }) {
                w.text(slug.rawValue)
                w.raw(part)
            }
            w.varint(UInt64(entry.outcome.count))
            w.raw(entry.outcome)
        }
        CacheSeal.seal(&w)
        return w.bytes
    }

    /// The file, when it was kept for `key` after the build stamp `after`; nil when it is
    /// missing, damaged, or kept for another binary, folder or build. A file kept after another
    /// build (every build after the first past a `close` finds one) is told by its start alone.
    static func read(_ layout: ContentLayout, key: String, after: FileInventory.Stamp) -> HandedTallies? {
        let path = "\(layout.root)/\(file)"
        guard HistoryCache.isUsable(layout), let start = FileSystem.readStart(of: path, upTo: 128 + key.utf8.count) else { return nil }
        var header = BinaryReader(start)
        guard Self.header(&header, key: key, after: after),
            let bytes = try? FileSystem.readBytes(path, limit: 1 << 26), let body = CacheSeal.body(of: bytes)
        else { return nil }
        var r = BinaryReader(bytes, range: body)
        guard Self.header(&r, key: key, after: after), let count = r.shortCount(minimumSize: 34), count <= limit else { return nil }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard let round = r.text(), let inputs = r.raw(32), let parts = r.shortCount(minimumSize: 34) else { return nil }
            var past: [Slug: [UInt8]] = [:]
            past.reserveCapacity(min(parts, 1 << 12))
            for _ in 0..<parts {
                guard let slug = r.text().flatMap(Slug.init), let part = r.raw(32) else { return nil }
                past[slug] = part
            }
            guard let length = r.shortCount(minimumSize: 0), let outcome = r.raw(length) else { return nil }
            entries.append(Entry(round: round, inputs: inputs, past: past, outcome: outcome))
        }
        guard r.isAtEnd else { return nil }
        return HandedTallies(key: key, after: after, entries: entries)
    }

    /// Whether the file's start (`encoded`'s) names `key` and the build stamp `after`.
    private static func header(_ r: inout BinaryReader, key: String, after: FileInventory.Stamp) -> Bool {
        guard r.integer() == magic, r.text() == key, let kind = r.signed(), let inode = r.signed(), let size = r.signed(),
            let modified = r.signed(), let changed = r.signed()
        else { return false }
        return FileInventory.Stamp(kind: kind, inode: inode, size: size, modified: modified, changed: changed) == after
    }

    // MARK: Taking over (`build`)

    /// The tallies kept after the build stamp `stamp` (the one this build read), by this binary
    /// for this folder; nil when there are none.
    public static func load(_ layout: ContentLayout, after stamp: BuildStamp.Saved?) -> HandedTallies? {
        guard let stamp, let key = key(layout) else { return nil }
        return read(layout, key: key, after: stamp.fileStamp)
    }

    /// How many of the rounds handed over `content` has closed: as many as the saved replay
    /// lacks (`ReplayCache.roundsLacking`), and the build needs no history to add them.
    public func closedRounds(in content: Content) -> Int {
        let names = Set(entries.map(\.round))
        let slugs = Self.slugs(of: names)
        var count = 0
        // Only the projects a round was handed over for: a key formatted and hashed for each of
        // a large game's 18,000 closed rounds took 12 ms of a rebuild after a `close`.
        for p in content.projects.indices where slugs.contains(content.projects[p].slug.rawValue) {
            let slug = content.projects[p].slug
            for round in content.projects[p].rounds where round.closed != nil {
                if names.contains(IdentityEvidence.key(slug, round.number)) { count += 1 }
            }
        }
        return count
    }

    /// The projects' slugs in rounds' keys (`IdentityEvidence.key`: the slug, a slash, the
    /// round's folder name), as they are spelt: a project whose slug is not among them has none
    /// of the rounds.
    static func slugs(of keys: some Sequence<String>) -> Set<String> {
        Set(keys.map { key in key.lastIndex(of: "/").map { String(key[..<$0]) } ?? key })
    }

    /// The replay of the rounds `added` names (by `IdentityEvidence.key`: the rounds closed
    /// since the last build's replay), as `TallyTimeline.replayAdding` gives it, from the tallies
    /// handed over; nil unless each of them was handed over and reads what this build would
    /// read: the same round and context (`inputs`) and the same past (checked only for projects
    /// whose folder's key in `inventory` is not the one `recorded`, the build stamp's), and
    /// unless `replayAdding` would take them: no other round's tally saw one of them
    /// (`TallyTimeline.noOtherTallySaw`).
    public func replayed(
        _ added: Set<String>, content: Content, inventory: FileInventory, recorded: [String: SubtreeKeys],
        evidence: IdentityEvidence
    ) -> [TallyTimeline.Replayed]? {
        var byRound: [String: Entry] = [:]
        for entry in entries { byRound[entry.round] = entry }
        // The rounds added, where they are, and the latest cutoff of every other round.
        var targets: [(project: Int, round: Int, cutoff: Timestamp, closed: Timestamp, entry: Entry)] = []
        var latest: Timestamp?
        // Keys are formatted only for the projects of the rounds added, not for each of a
        // large game's 18,000 closed rounds.
        let addedSlugs = Self.slugs(of: added)
        for p in content.projects.indices {
            let rounds = content.projects[p].rounds
            let mayHaveAdded = addedSlugs.contains(content.projects[p].slug.rawValue)
            for r in rounds.indices {
                guard let closed = rounds[r].closed else { continue }
                let name = mayHaveAdded ? IdentityEvidence.key(content.projects[p].slug, rounds[r].number) : nil
                if let name, added.contains(name) {
                    guard let entry = byRound[name] else { return nil }
                    targets.append((p, r, TallyContext.cutoff(of: rounds[r]), closed, entry))
                } else {
                    let cutoff = TallyContext.cutoff(of: rounds[r])
                    if latest.map({ $0 < cutoff }) ?? true { latest = cutoff }
                }
            }
        }
        guard targets.count == added.count, !targets.isEmpty else { return nil }
        // In the order `replayAdding` tallies them: by cutoff, then slug and number.
        func order(_ t: (project: Int, round: Int, cutoff: Timestamp, closed: Timestamp, entry: Entry)) -> (Timestamp, Slug, RoundNumber) {
            (t.cutoff, content.projects[t.project].slug, content.projects[t.project].rounds[t.round].number)
        }
        targets.sort { order($0) < order($1) }
        guard TallyTimeline.noOtherTallySaw(targets.lazy.map { ($0.cutoff, $0.closed) }, cutoffsBefore: latest) else { return nil }
        // Projects whose folder changed since the build stamp `close` saw: their part of each
        // past is worked out again, from their rounds' stamps as this build's inventory has them.
        let changed = content.projects.indices.filter { p in
            let folder = "projects/\(content.projects[p].slug)"
            guard let now = inventory.subtreeKey(folder), let then = recorded[folder]?.key else { return true }
            return now != then
        }
        guard let stamps = HistoryCache.Stamps.from(inventory, projects: changed.map { content.projects[$0].slug }) else { return nil }
        var replayed: [TallyTimeline.Replayed] = []
        for (p, r, cutoff, _, entry) in targets {
            let (slug, round) = (content.projects[p].slug, content.projects[p].rounds[r])
            // A round recorded as decided by the plain count is replayed so.
            guard round.tally?.method != Tally.method, entry.past.count == content.projects.count,
                content.projects.allSatisfy({ entry.past[$0.slug] != nil })
            else { return nil }
            for q in changed {
                let project = content.projects[q]
                var rounds: [(number: RoundNumber, closed: Timestamp, stamp: HistoryCache.Stamp)] = []
                for other in project.rounds where !(q == p && other.number == round.number) {
                    guard let closed = other.closed else { continue }
                    let key = IdentityEvidence.key(project.slug, other.number)
                    let stamp = stamps.stamps[key]?.asKept(for: other) ?? HistoryCache.Stamps.racy
                    rounds.append((other.number, closed, stamp))
                }
                guard Self.pastPart(start: (project.created, project.owner), rounds: rounds, cutoff: cutoff) == entry.past[project.slug]
                else { return nil }
            }
            var joined: [Handle: Timestamp] = [:]
            for ballot in round.ballots {
                if let time = TallyTimeline.profileJoined(of: ballot.voter, in: content) { joined[ballot.voter] = time }
            }
            let context = TallyTimeline.context(for: round, of: slug, history: VotingHistory(), joined: joined, evidence: evidence)
            guard Self.inputs(of: round, slug: slug, context: context) == entry.inputs else { return nil }
            var reader = BinaryReader(entry.outcome)
            guard let explained = ReplayCodec.explained(from: &reader) else { return nil }
            replayed.append(
                TallyTimeline.Replayed(
                    slug: slug, round: round, outcome: Tally.Outcome(record: explained.record, winner: explained.winner),
                    explained: explained))
        }
        return replayed
    }
}
