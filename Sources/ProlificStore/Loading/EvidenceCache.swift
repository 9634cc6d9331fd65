import ProlificCore

/// The commits' evidence as the last read found it, with the commit it was read up to, in
/// `.prolific/evidence.cache`: `GitEvidence.read` adds the commits since instead of reading the
/// whole history again. Keyed by the binary (its reading may change) and the content
/// directory's place in the repository, and checked by a checksum. Like the other caches, it
/// is only speed: anything unreadable, torn or of another key reads the whole history.
struct EvidenceCache: Sendable {
    static let magic: Int64 = 0x5052_4F4C_4556_4902  // "PROLEVI" v2: lists in commit order, without repeats
    static let file = ".prolific/evidence.cache"

    var head: String
    var configCommitters: [String: Timestamp]
    var profileCommits: [Handle: [IdentityEvidence.Commit]]
    var ballotCommits: [String: [Handle: [IdentityEvidence.Commit]]]

    init(head: String, evidence: IdentityEvidence) {
        self.head = head
        configCommitters = evidence.configCommitters
        profileCommits = evidence.profileCommits
        ballotCommits = evidence.ballotCommits
    }

    /// Sets what was read into `evidence`, whose maintainers come from prolific.yml.
    func copy(into evidence: inout IdentityEvidence) {
        evidence.configCommitters = configCommitters
        evidence.profileCommits = profileCommits
        evidence.ballotCommits = ballotCommits
    }

    private static func key(prefix: String) -> [String]? {
        BuildStamp.runningBinary.map { ["binary \($0)", "prefix \(prefix)"] }
    }

    /// The saved evidence, all of it or only the `wanted` profiles and rounds (and every
    /// committer of prolific.yml).
    static func load(_ layout: ContentLayout, prefix: String, wanted: GitEvidence.Wanted? = nil) -> EvidenceCache? {
        guard HistoryCache.isUsable(layout), let key = key(prefix: prefix),
            let bytes = try? FileSystem.readBytes("\(layout.root)/\(file)", limit: 1 << 31), let body = CacheSeal.body(of: bytes)
        else { return nil }
        var r = BinaryReader(bytes, range: body)
        guard r.integer() == magic, let first = r.text(), let second = r.text(), [first, second] == key,
            let head = r.text(), isCommitName(head), let configCount = r.shortCount(minimumSize: 2)
        else { return nil }
        var cache = EvidenceCache(head: head, evidence: IdentityEvidence())
        for _ in 0..<configCount {
            guard let identity = r.text(), let time = r.signed() else { return nil }
            cache.configCommitters[identity] = Timestamp(secondsSinceEpoch: time)
        }
        guard let profileCount = r.shortCount(minimumSize: 2) else { return nil }
        // Sized before they are filled: growing them by doubling was a quarter of reading the
        // cache (counts are checked against the bytes left, so a crafted one can't ask for more).
        cache.profileCommits.reserveCapacity(wanted == nil ? profileCount : 0)
        for _ in 0..<profileCount {
            guard let name = r.text() else { return nil }
            if let wanted, !wanted.profiles.contains(name) {
                guard skipCommits(&r) else { return nil }
                continue
            }
            guard let handle = Handle(name), let commits = commits(&r) else { return nil }
            cache.profileCommits[handle] = commits
        }
        guard let roundCount = r.shortCount(minimumSize: 2) else { return nil }
        cache.ballotCommits.reserveCapacity(wanted == nil ? roundCount : 0)
        for _ in 0..<roundCount {
            guard let round = r.text(), let voterCount = r.shortCount(minimumSize: 2) else { return nil }
            let skips = wanted.map { !$0.rounds.contains(round) } ?? false
            var voters: [Handle: [IdentityEvidence.Commit]] = [:]
            voters.reserveCapacity(skips ? 0 : voterCount)
            for _ in 0..<voterCount {
                if skips {
                    guard r.skipText(), skipCommits(&r) else { return nil }
                    continue
                }
                guard let name = r.text(), let voter = Handle(name), let commits = commits(&r) else { return nil }
                voters[voter] = commits
            }
            if !skips { cache.ballotCommits[round] = voters }
        }
        guard r.isAtEnd else { return nil }
        return cache
    }

    /// A commit's full name, 40 (SHA-1) or 64 (SHA-256) hexadecimal digits: what goes to git as
    /// an argument is never an option.
    static func isCommitName(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64) && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    private static func skipCommits(_ r: inout BinaryReader) -> Bool {
        guard let count = r.shortCount(minimumSize: 2) else { return false }
        for _ in 0..<count {
            guard r.skipText(), r.signed() != nil else { return false }
        }
        return true
    }

    private static func commits(_ r: inout BinaryReader) -> [IdentityEvidence.Commit]? {
        guard let count = r.shortCount(minimumSize: 2) else { return nil }
        var commits: [IdentityEvidence.Commit] = []
        commits.reserveCapacity(count)
        for _ in 0..<count {
            guard let identity = r.text(), let time = r.signed() else { return nil }
            commits.append(IdentityEvidence.Commit(identity: identity, time: Timestamp(secondsSinceEpoch: time)))
        }
        return commits
    }

    /// Saves the cache atomically, in key order (the same evidence gives the same bytes); a
    /// failure only costs speed next time.
    func save(_ layout: ContentLayout, prefix: String) {
        guard HistoryCache.isUsable(layout), let key = Self.key(prefix: prefix) else { return }
        var w = BinaryWriter()
        w.integer(Self.magic)
        for part in key { w.text(part) }
        w.text(head)
        w.varint(UInt64(configCommitters.count))
        for identity in configCommitters.keys.sorted() {
            w.text(identity)
            w.signed(configCommitters[identity]?.secondsSinceEpoch ?? 0)
        }
        func write(_ commits: [IdentityEvidence.Commit]) {
            w.varint(UInt64(commits.count))
            for commit in commits {
                w.text(commit.identity)
                w.signed(commit.time.secondsSinceEpoch)
            }
        }
        w.varint(UInt64(profileCommits.count))
        for handle in profileCommits.keys.sorted() {
            w.text(handle.rawValue)
            write(profileCommits[handle] ?? [])
        }
        w.varint(UInt64(ballotCommits.count))
        for round in ballotCommits.keys.sorted() {
            let voters = ballotCommits[round] ?? [:]
            w.text(round)
            w.varint(UInt64(voters.count))
            for voter in voters.keys.sorted() {
                w.text(voter.rawValue)
                write(voters[voter] ?? [])
            }
        }
        CacheSeal.seal(&w)
        try? FileSystem.makeDirectories("\(layout.root)/.prolific")
        try? AtomicFile.write(bytes: w.bytes, to: "\(layout.root)/\(Self.file)", durable: false)
    }
}
