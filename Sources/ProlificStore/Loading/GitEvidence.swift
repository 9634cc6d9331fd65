import Foundation
import ProlificCore

/// Reads who committed the content's files, when the content directory is in a git repository.
///
/// This binds handles to people: ballots of several handles committed by one git identity are
/// one voter, and a profile's `joined` can't predate its first commit. Profiles and ballots
/// committed by a maintainer are not evidence: maintainers record and merge others' files as part of running the
/// game. Maintainers are the identities listed as `maintainers` in prolific.yml and whoever
/// committed prolific.yml itself.
public enum GitEvidence {
    /// The commits' evidence, from the last read kept in `.prolific/evidence.cache` when it can
    /// be (`kept: true`, as `build`, `close` and `check` read it), and kept for the next read
    /// unless `saving` is false (`check` changes nothing in the content directory).
    ///
    /// The evidence is every commit reachable from HEAD but merges, each with the files it
    /// added or modified against its parent (side branches included: `--full-history`), and its
    /// lists are in commit order (`IdentityEvidence.Commit`), not git's walk order: it depends
    /// only on which commits HEAD reaches. A whole read runs `git log --name-only` over the
    /// history, and git diffs every commit's tree against its parent's: 121–129 s on one core
    /// for the large benchmark in git (308,257 commits), hence `wholeLogs`. When the
    /// last HEAD read is an ancestor of HEAD (commits on top, a pull request merged or rebased
    /// in), the commits HEAD reaches are the ones it reached and `OLD..HEAD`: only those are read.
    /// Anything else (a rewritten history, another binary, a shallow clone) reads it whole.
    public static func read(layout: ContentLayout, maintainers: Set<String>, kept: Bool = false, saving: Bool = true) -> IdentityEvidence {
        readNoting(layout: layout, maintainers: maintainers, kept: kept, saving: saving).evidence
    }

    /// The parts of the evidence a reader wants (`close` tallies one round): the other
    /// profiles and rounds are stepped over, not decoded.
    public struct Wanted: Sendable {
        /// The handles' names.
        var profiles: Set<String>
        /// `IdentityEvidence.key`s.
        var rounds: Set<String>

        /// What the tally of `round` of `slug` reads: its voters' profiles and its own ballots.
        public init(round number: RoundNumber, of slug: Slug, voters: some Sequence<Handle>) {
            profiles = Set(voters.map(\.rawValue))
            rounds = [IdentityEvidence.key(slug, number)]
        }
    }

    /// How a read went, for `build --timings`.
    public enum Reading: Equatable, Sendable {
        /// Not in a repository, or in one without a commit.
        case none
        /// HEAD was the commit the kept evidence was read up to.
        case kept
        /// The commits since the kept evidence's were read and added to it.
        case added(commits: Int)
        /// The whole history was read.
        case whole(commits: Int)

        public var description: String {
            switch self {
            case .none: "git's evidence: none (not in a git repository with a commit)"
            case .kept: "git's evidence kept from the last read (HEAD unmoved)"
            case .added(let commits): "git's evidence: \(Self.count(commits)) added to the last read"
            case .whole(let commits): "git's evidence: the whole history read (\(Self.count(commits)))"
            }
        }

        private static func count(_ commits: Int) -> String { "\(commits) commit\(commits == 1 ? "" : "s")" }
    }

    /// The evidence and how it was had. With `wanted`, a kept read decodes only those profiles
    /// and rounds (and the committers of prolific.yml), holds nothing else, and saves nothing:
    /// enough for the tally of one round, as `close` needs.
    public static func readNoting(
        layout: ContentLayout, maintainers: Set<String>, kept: Bool, saving: Bool = true, wanted: Wanted? = nil
    ) -> (evidence: IdentityEvidence, how: Reading) {
        readNoting(layout: layout, at: Place(layout), maintainers: maintainers, kept: kept, saving: saving, wanted: wanted)
    }

    /// The same, up to the HEAD of `place`, found by the caller (a build keys its stamp by it):
    /// nil outside a repository.
    public static func readNoting(
        layout: ContentLayout, at place: Place?, maintainers: Set<String>, kept: Bool, saving: Bool = true, wanted: Wanted? = nil
    ) -> (evidence: IdentityEvidence, how: Reading) {
        let read = readUnsaved(layout: layout, at: place, kept: kept, wanted: wanted)
        if saving { read.save() }
        return (read.evidence(maintainers: maintainers), read.how)
    }

    /// Evidence read and not yet saved: a build reads it beside the content (`readUnsaved`), and
    /// saves the cache only once the content and the theme have loaded, so that a build refused
    /// for either leaves `.prolific/` as it was. Maintainers come from prolific.yml, given once
    /// it is read.
    public struct Read: Sendable {
        public let how: Reading
        fileprivate let read: IdentityEvidence
        fileprivate let unsaved: (cache: EvidenceCache, layout: ContentLayout, prefix: String)?

        /// The evidence, with the identities prolific.yml lists as maintainers (none where
        /// there is no evidence).
        public func evidence(maintainers: Set<String>) -> IdentityEvidence {
            guard how != .none else { return read }
            var evidence = read
            evidence.maintainers = Set(maintainers.map { $0.lowercased() })
            return evidence
        }

        /// Keeps what was read for the next build, if it is to be kept; a failure only costs
        /// speed.
        public func save() {
            if let unsaved { unsaved.cache.save(unsaved.layout, prefix: unsaved.prefix) }
        }
    }

    /// `readNoting`'s reading, without saving: see `Read`.
    public static func readUnsaved(layout: ContentLayout, at place: Place?, kept: Bool, wanted: Wanted? = nil) -> Read {
        guard let place else { return Read(how: .none, read: IdentityEvidence(), unsaved: nil) }
        let prefix = place.prefix
        var evidence = IdentityEvidence()
        // A shallow clone's oldest commits stand for the history behind them, which a fetch may
        // later fill in behind the same commit names: no evidence is kept from one.
        let keeps = kept && !place.isShallow
        if keeps, let saved = EvidenceCache.load(layout, prefix: prefix, wanted: wanted) {
            if saved.head == place.head {
                saved.copy(into: &evidence)
                return Read(how: .kept, read: evidence, unsaved: nil)
            }
            if let since = newCommits(from: saved.head, to: place.head, in: layout.root) {
                saved.copy(into: &evidence)
                let commits = fold(log: since, prefix: prefix, into: &evidence)
                if let wanted {
                    // The new commits of other profiles and rounds would stand without their
                    // older ones: they are dropped, and the partial evidence is not saved.
                    evidence.profileCommits = evidence.profileCommits.filter { wanted.profiles.contains($0.key.rawValue) }
                    evidence.ballotCommits = evidence.ballotCommits.filter { wanted.rounds.contains($0.key) }
                    return Read(how: .added(commits: commits), read: evidence, unsaved: nil)
                }
                let cache = EvidenceCache(head: place.head, evidence: evidence)
                return Read(how: .added(commits: commits), read: evidence, unsaved: (cache, layout, prefix))
            }
        }
        // Up to the HEAD read above, not whatever HEAD is by now: the cache says where it ends.
        guard let logs = wholeLogs(head: place.head, in: layout.root) else {
            return Read(how: .none, read: IdentityEvidence(), unsaved: nil)
        }
        var commits = 0
        for log in logs { commits += fold(log: log, prefix: prefix, into: &evidence) }
        let cache = keeps ? EvidenceCache(head: place.head, evidence: evidence) : nil
        return Read(how: .whole(commits: commits), read: evidence, unsaved: cache.map { ($0, layout, prefix) })
    }

    /// The content directory's place in its repository, from one `git rev-parse`.
    public struct Place: Sendable {
        /// The folder's path from the repository's top, with a trailing `/` (empty at the top).
        var prefix: String
        var isShallow: Bool
        /// HEAD's full commit name.
        public var head: String

        /// Nil outside a repository, or in one without a commit.
        public init?(_ layout: ContentLayout) { self.init(layout.root) }

        init?(_ folder: String) {
            guard let text = git(["rev-parse", "--show-prefix", "--is-shallow-repository", "--verify", "--quiet", "HEAD"], in: folder)
            else { return nil }
            // One value a line; the prefix is a path, which may itself hold a line break.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            guard lines.count >= 3, let head = lines.popLast(), EvidenceCache.isCommitName(String(head)), let shallow = lines.popLast()
            else { return nil }
            self.prefix = lines.joined(separator: "\n")
            self.isShallow = shallow != "false"
            self.head = String(head)
        }
    }

    /// The log of every commit `head` reaches, in parts read at once on every core when the
    /// history is long (git diffs each commit on one core: 128 s for 308,257 commits). The
    /// evidence depends only on which commits are read, not in what order, so the parts may be
    /// any partition of them: `rev-list`'s commits at even places are boundaries, and a part is
    /// what its boundary reaches and no later one does (the first: HEAD). Four parts a core,
    /// each taken by the next free core: newer commits cost git more (bigger trees to diff),
    /// and two halves on two cores took 60 and 87 s.
    /// Below `splittingFrom` commits it is read in one part: splitting costs a `rev-list`.
    static func wholeLogs(head: String, in folder: String, splittingFrom: Int = 20_000) -> [String]? {
        let parts = Parallel.workers == 1 ? 1 : min(Parallel.workers * 4, 16)
        guard parts > 1, let list = git(["rev-list", head], in: folder), case let commits = list.split(separator: "\n"),
            commits.count >= max(splittingFrom, parts)
        else { return git(logArguments(head), in: folder).map { [$0] } }
        let tips = [head] + (1..<parts).map { String(commits[commits.count * $0 / parts]) }
        let ranges = tips.indices.map { index in [tips[index]] + tips[(index + 1)...].map { "^" + $0 } }
        let logs = Parallel.map(ranges, batch: 1) { range in git(logArguments(range), in: folder) }
        return logs.contains { $0 == nil } ? nil : logs.compactMap { $0 }
    }

    /// `git log` as the evidence reads it, of `range` (a commit: its whole history).
    /// `--root` and `--no-relative` whatever the user's configuration (`log.showRoot=false` hid
    /// the first commit's files, `diff.relative` wrote paths the prefix no longer matched).
    /// `--full-history` keeps the commits of a side branch whose changes a merge leaves out or
    /// main has too, which git's default simplification drops from a whole log but not from
    /// `OLD..HEAD`; `--no-merges`: a merge's own diff is never evidence, whatever `log.diffMerges`.
    static func logArguments(_ range: String) -> [String] { logArguments([range]) }

    /// The same, of the commits `revisions` (commits, `^`excluded ones, `A..B`) name.
    static func logArguments(_ revisions: [String]) -> [String] {
        ["log", "--reverse", "--full-history", "--no-merges", "--root", "--no-relative", "--no-renames", "--diff-filter=AM",
            "--format=%x1e%ae%x1f%ct", "--name-only"] + revisions + ["--", "."]
    }

    /// The log of the commits `head` reaches and `old` doesn't, when `old` is an ancestor of
    /// `head`; nil otherwise.
    static func newCommits(from old: String, to head: String, in folder: String) -> String? {
        guard GitProcess.run(["--no-replace-objects", "merge-base", "--is-ancestor", old, head], in: folder)?.succeeded == true
        else { return nil }
        return git(logArguments("\(old)..\(head)"), in: folder)
    }

    /// Parses `git log --format=%x1e%ae%x1f%ct --name-only` output; paths are relative to the
    /// repository's top, `prefix` is the content directory's place in it. Every commit is kept
    /// with its time, so each round can be tallied with the evidence that existed at its cutoff.
    static func parse(log: String, prefix: String, maintainers: Set<String>) -> IdentityEvidence {
        var evidence = IdentityEvidence(maintainers: Set(maintainers.map { $0.lowercased() }))
        fold(log: log, prefix: prefix, into: &evidence)
        return evidence
    }

    /// Adds the commits of `log` to `evidence`, each in its place in commit order; returns how
    /// many commits the log lists.
    @discardableResult
    static func fold(log: String, prefix: String, into evidence: inout IdentityEvidence) -> Int {
        var commits = 0
        for record in log.split(separator: "\u{1e}") {
            var lines = record.split(separator: "\n")
            guard let header = lines.first else { continue }
            lines.removeFirst()
            let fields = header.split(separator: "\u{1f}")
            guard fields.count == 2, let seconds = Int64(fields[1]) else { continue }
            commits += 1
            let commit = IdentityEvidence.Commit(identity: fields[0].lowercased(), time: Timestamp(secondsSinceEpoch: seconds))
            for line in lines {
                guard line.hasPrefix(prefix) else { continue }
                let parts = line.dropFirst(prefix.count).split(separator: "/")
                if parts.count == 1, parts[0] == "prolific.yml" {
                    // Whoever commits prolific.yml runs the game: a maintainer from then on.
                    evidence.recordConfigCommit(commit)
                } else if parts.count == 2, parts[0] == "users", parts[1].hasSuffix(".md"),
                    let handle = Handle(parts[1].dropLast(3))
                {
                    IdentityEvidence.insert(commit, into: &evidence.profileCommits[handle, default: []])
                } else if parts.count == 6, parts[0] == "projects", parts[2] == "rounds", parts[4] == "votes",
                    parts[5].hasSuffix(".yml"), let slug = Slug(parts[1]), let number = RoundNumber(folderName: parts[3]),
                    let voter = Handle(parts[5].dropLast(4))
                {
                    let round = IdentityEvidence.key(slug, number)
                    IdentityEvidence.insert(commit, into: &evidence.ballotCommits[round, default: [:]][voter, default: []])
                }
            }
        }
        return commits
    }

    /// Runs git in `folder`; nil when git is missing or fails (not a repository). Replace refs
    /// are ignored: they are local to a clone, and would let evidence differ between a whole
    /// read and a kept one.
    static func git(_ arguments: [String], in folder: String) -> String? {
        guard let result = GitProcess.run(["--no-replace-objects"] + arguments, in: folder), result.succeeded else { return nil }
        return result.text
    }
}
