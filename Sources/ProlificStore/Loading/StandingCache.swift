import ProlificCore

/// The standings as the last build counted them, in `.prolific/standing.cache` inside the
/// content directory, so a rebuild counts only the projects whose files changed.
///
/// Every count and every karma point is a sum over projects (`Standing.part(of:)`), so the file
/// holds each project's part, under the key of its files (`SiteBuilder`'s project keys: the
/// folder's inventory, hashed), and their sum. A rebuild takes the sum, takes out the parts of
/// the projects whose key changed or which are gone, and adds the new parts of those that
/// changed or came: after a ballot, one project is counted instead of 2,000. Counts are whole
/// numbers, so the sum is exactly the one a count from scratch gives (a store test compares
/// them over a series of changes). The parts of unchanged projects are copied into the next
/// file as bytes, never decoded.
///
/// Like the other caches it is only speed, keyed by the running binary and the content
/// directory (resolved): a missing, torn, unreadable or mismatched file is a miss, as is a sum
/// a part can't be taken out of, and a linked `.prolific/` is not used. A project without a
/// key (a racy entry) is counted every time and never kept.
public struct StandingCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_5354_4E01  // "PROLSTN" v1
    static let file = ".prolific/standing.cache"

    let layout: ContentLayout
    /// The running binary (`BuildStamp.runningBinary`).
    let binary: String
    /// The content directory, resolved.
    let root: String

    /// How a build had its standings, for `build --timings`.
    public enum Outcome: Equatable, Sendable {
        /// Every project counted: no usable file.
        case counted(projects: Int)
        /// The last build's sum, with this many projects counted again (those changed, come or
        /// without a key; those gone are only taken out).
        case updated(projects: Int)
    }

    /// The cache of `layout`'s content directory; nil where there can be none (an unknown
    /// binary, a linked `.prolific/`).
    public init?(layout: ContentLayout) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, binary: binary)
    }

    /// The same, for a given binary identity (tests).
    init?(layout: ContentLayout, binary: String) {
        guard HistoryCache.isUsable(layout) else { return nil }
        self.layout = layout
        self.binary = binary
        root = layout.resolvedRoot
    }

    func path() -> String { "\(layout.root)/\(Self.file)" }

    /// The standings of `content` (its projects as the pages show them), whose projects' files
    /// have `keys`, from the last build's where it can; keeps them for the next build.
    public func standing(of content: Content, keys: [Slug: String], badges: [Badge]) -> (Standing, Outcome) {
        let projects = content.projects
        // By index: `for project in projects` copied each project, retaining all it holds.
        var now: [Slug: String?] = [:]
        for p in projects.indices { now[projects[p].slug] = keys[projects[p].slug] }
        // The last build's file, and its sum less the parts of the projects gone, changed or
        // racy since; none if that sum doesn't hold one of those parts.
        var last: (saved: Saved, sum: [Handle: Counts], takenOut: Int)?
        if let saved = load(), let (sum, takenOut) = saved.sum(leavingOut: now) { last = (saved, sum, takenOut) }
        // Counted now: every project without a file, else those with no key or a new one.
        let fresh = projects.indices.filter { p in
            let slug = projects[p].slug
            guard let key = keys[slug], let entry = last?.saved.entries[slug] else { return true }
            return entry.key != key
        }
        let counted = Dictionary(uniqueKeysWithValues: zip(fresh, Parallel.map(fresh) { Standing.part(of: projects[$0]) }))
        var sum = last?.sum ?? [:], unkeyed: [Handle: Counts] = [:]
        var changed = last?.takenOut ?? 0
        var next: [(slug: Slug, key: String, part: Part)] = []
        next.reserveCapacity(projects.count)
        for p in projects.indices {
            let slug = projects[p].slug
            if let part = counted[p] {
                guard let key = keys[slug] else {
                    Self.add(part, to: &unkeyed)
                    continue
                }
                Self.add(part, to: &sum)
                next.append((slug, key, .counted(part)))
                changed += 1
            } else if let key = keys[slug], let entry = last?.saved.entries[slug] {
                next.append((slug, key, .saved(entry.part)))
            }
        }
        if last == nil || changed > 0 { save(next, sum: sum, saved: last?.saved) }
        Self.add(unkeyed, to: &sum)
        let outcome: Outcome = last == nil ? .counted(projects: projects.count) : .updated(projects: fresh.count)
        return (Standing(total: sum, players: content.users.keys, badges: badges), outcome)
    }

    typealias Counts = Standing.Counts

    /// A project's part in the next file: counted now, or the bytes the last file held.
    private enum Part {
        case counted([Handle: Counts])
        case saved(Range<Int>)
    }

    private static func add(_ part: [Handle: Counts], to total: inout [Handle: Counts]) {
        for (handle, counts) in part { total[handle, default: Counts()].add(counts) }
    }

    /// Takes `part` out of `total`, dropping players left at zero (a count from scratch never
    /// lists them); false if the part can't have been added to it.
    fileprivate static func remove(_ part: [Handle: Counts], from total: inout [Handle: Counts]) -> Bool {
        for (handle, counts) in part {
            guard var left = total[handle], left.remove(counts) else { return false }
            total[handle] = left.isZero ? nil : left
        }
        return true
    }

    // MARK: The file

    /// The last build's file: each project's key and where its part is, and the sum.
    private struct Saved {
        var bytes: [UInt8]
        var entries: [Slug: (key: String, part: Range<Int>)]
        var total: [Handle: Counts]

        /// The sum without the parts of the projects gone or changed: `now` gives each project
        /// there is its key (nil inside when it has none). Also how many parts came out; nil if
        /// one can't, as it can't from a sum it was never added to.
        func sum(leavingOut now: [Slug: String?]) -> (sum: [Handle: Counts], takenOut: Int)? {
            var sum = total, takenOut = 0
            for (slug, entry) in entries where now[slug].map({ $0 != entry.key }) ?? true {
                guard let part = part(entry.part), StandingCache.remove(part, from: &sum) else { return nil }
                takenOut += 1
            }
            return (sum, takenOut)
        }

        func part(_ range: Range<Int>) -> [Handle: Counts]? {
            var r = BinaryReader(bytes, range: range)
            guard let part = StandingCache.decodePart(&r), r.isAtEnd else { return nil }
            return part
        }
    }

    private func load() -> Saved? {
        guard let bytes = try? FileSystem.readBytes(path(), limit: 1 << 30), let body = CacheSeal.body(of: bytes) else {
            return nil
        }
        var r = BinaryReader(bytes, range: body)
        guard r.integer() == Self.magic, r.text() == binary, r.text() == root, let count = r.shortCount(minimumSize: 3)
        else { return nil }
        var entries: [Slug: (key: String, part: Range<Int>)] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let slug = r.text().flatMap(Slug.init), let key = r.text(), let size = r.shortCount(),
                let part = r.skip(size), entries.updateValue((key, part), forKey: slug) == nil
            else { return nil }
        }
        guard let total = Self.decodePart(&r), r.isAtEnd else { return nil }
        return Saved(bytes: bytes, entries: entries, total: total)
    }

    private func save(_ next: [(slug: Slug, key: String, part: Part)], sum: [Handle: Counts], saved: Saved?) {
        var w = BinaryWriter(capacity: 64 + next.count * 2048)
        w.integer(Self.magic)
        w.text(binary)
        w.text(root)
        w.varint(UInt64(next.count))
        var part = BinaryWriter()
        for entry in next.sorted(by: { $0.slug < $1.slug }) {
            w.text(entry.slug.rawValue)
            w.text(entry.key)
            switch entry.part {
            case .counted(let counts):
                part.removeAll()
                Self.encode(counts, into: &part)
                w.varint(UInt64(part.bytes.count))
                w.raw(part.bytes)
            case .saved(let range):
                guard let saved else { return }
                w.varint(UInt64(range.count))
                w.raw(saved.bytes[range])
            }
        }
        Self.encode(sum, into: &w)
        CacheSeal.seal(&w)
        // Into the file the last save replaced: 4 MB on large, at every rebuild.
        try? AtomicFile.write(parts: [w.bytes], to: path(), reusing: path() + ".spare")
    }

    /// A part: its players in handle order, each with the eight counts.
    private static func encode(_ part: [Handle: Counts], into w: inout BinaryWriter) {
        w.varint(UInt64(part.count))
        for (handle, c) in part.sorted(by: { $0.key < $1.key }) {
            w.text(handle.rawValue)
            // Never below zero: parts are counted, and a sum a part can't come out of isn't used.
            let k = c.karma
            w.varint(UInt64(clamping: c.snippets))
            w.varint(UInt64(clamping: c.wins))
            w.varint(UInt64(clamping: c.projects))
            w.varint(UInt64(clamping: c.ballots))
            w.varint(UInt64(clamping: k.snippets))
            w.varint(UInt64(clamping: k.ballots))
            w.varint(UInt64(clamping: k.wins))
            w.varint(UInt64(clamping: k.projects))
        }
    }

    /// The most any count may be in a file: sums of parts then can't overflow.
    private static let largestCount: UInt64 = 1 << 40

    private static func decodePart(_ r: inout BinaryReader) -> [Handle: Counts]? {
        guard let count = r.shortCount(minimumSize: 10) else { return nil }
        var part: [Handle: Counts] = [:]
        part.reserveCapacity(count)
        for _ in 0..<count {
            guard let handle = r.text().flatMap(Handle.init) else { return nil }
            func next() -> Int? { r.varint().flatMap { $0 <= largestCount ? Int($0) : nil } }
            guard let snippets = next(), let wins = next(), let projects = next(), let ballots = next(),
                let karmaSnippets = next(), let karmaBallots = next(), let karmaWins = next(), let karmaProjects = next()
            else { return nil }
            let counts = Counts(
                snippets: snippets, wins: wins, projects: projects, ballots: ballots,
                karma: Karma(snippets: karmaSnippets, ballots: karmaBallots, wins: karmaWins, projects: karmaProjects))
            guard !counts.isZero, part.updateValue(counts, forKey: handle) == nil else { return nil }
        }
        return part
    }
}
