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
    /// be (`kept: true`, as `build` and `close` read it; `check` reads the whole history).
    ///
    /// A whole read runs one `git log --name-only` over the history, and git diffs every commit's
    /// tree against its parent's: 88 s for a history shaped like the large benchmark (302,292
    /// commits), 7.8 s for medium's 60,021. The evidence is read in `git log`'s order and its
    /// lists keep it (`firstCommit` and `ballotCommit` read them in that order), so the kept
    /// evidence is only added to when that order is certain: the last HEAD is an ancestor of
    /// HEAD and no commit since is a merge. Then the walk from HEAD passes one by one through
    /// the new commits down to the last HEAD and goes on as the last read did, and the whole log
    /// is the last one followed by the new commits' (`git log OLD..HEAD`). Anything else (a
    /// merge, a rewritten history, another binary) reads the whole history again.
    public static func read(layout: ContentLayout, maintainers: Set<String>, kept: Bool = false) -> IdentityEvidence {
        guard let prefix = git(["rev-parse", "--show-prefix"], in: layout.root)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        else { return IdentityEvidence() }
        var evidence = IdentityEvidence(maintainers: Set(maintainers.map { $0.lowercased() }))
        // A shallow clone's oldest commits stand for the history behind them, which a fetch may
        // later fill in behind the same commit names: no evidence is kept from one.
        let head = kept && !isShallow(layout.root) ? git(["rev-parse", "--verify", "--quiet", "HEAD"], in: layout.root)?
            .trimmingCharacters(in: .whitespacesAndNewlines) : nil
        let saved = head == nil ? nil : EvidenceCache.load(layout, prefix: prefix)
        if let head, let saved {
            if saved.head == head {
                saved.copy(into: &evidence)
                return evidence
            }
            if let since = newCommits(from: saved.head, to: head, in: layout.root) {
                saved.copy(into: &evidence)
                fold(log: since, prefix: prefix, into: &evidence)
                EvidenceCache(head: head, evidence: evidence).save(layout, prefix: prefix)
                return evidence
            }
        }
        // Up to the HEAD read above, not whatever HEAD is by now: the cache says where it ends.
        guard let log = git(logArguments(head), in: layout.root) else { return IdentityEvidence() }
        fold(log: log, prefix: prefix, into: &evidence)
        if let head { EvidenceCache(head: head, evidence: evidence).save(layout, prefix: prefix) }
        return evidence
    }

    /// `git log` as the evidence reads it, of `range` (a commit: its whole history; nil: HEAD's).
    /// `--root` and `--no-relative` whatever the user's configuration (`log.showRoot=false` hid
    /// the first commit's files, `diff.relative` wrote paths the prefix no longer matched).
    static func logArguments(_ range: String? = nil) -> [String] {
        ["log", "--reverse", "--root", "--no-relative", "--no-renames", "--diff-filter=AM", "--format=%x1e%ae%x1f%ct",
            "--name-only"] + (range.map { [$0] } ?? []) + ["--", "."]
    }

    static func isShallow(_ folder: String) -> Bool {
        git(["rev-parse", "--is-shallow-repository"], in: folder)?.trimmingCharacters(in: .whitespacesAndNewlines) != "false"
    }

    /// The log of the commits after `old` up to `head`, when `old` is an ancestor of `head` and
    /// none of them is a merge; nil otherwise.
    static func newCommits(from old: String, to head: String, in folder: String) -> String? {
        guard GitProcess.run(["--no-replace-objects", "merge-base", "--is-ancestor", old, head], in: folder)?.succeeded == true,
            let merges = git(["rev-list", "--min-parents=2", "--count", "\(old)..\(head)"], in: folder),
            merges.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
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

    /// Adds the commits of `log`, in its order, to `evidence`.
    static func fold(log: String, prefix: String, into evidence: inout IdentityEvidence) {
        for record in log.split(separator: "\u{1e}") {
            var lines = record.split(separator: "\n")
            guard let header = lines.first else { continue }
            lines.removeFirst()
            let fields = header.split(separator: "\u{1f}")
            guard fields.count == 2, let seconds = Int64(fields[1]) else { continue }
            let commit = IdentityEvidence.Commit(identity: fields[0].lowercased(), time: Timestamp(secondsSinceEpoch: seconds))
            for line in lines {
                guard line.hasPrefix(prefix) else { continue }
                let parts = line.dropFirst(prefix.count).split(separator: "/")
                if parts.count == 1, parts[0] == "prolific.yml" {
                    // Whoever commits prolific.yml runs the game: a maintainer from then on.
                    if evidence.configCommitters[commit.identity] == nil {
                        evidence.configCommitters[commit.identity] = commit.time
                    }
                } else if parts.count == 2, parts[0] == "users", parts[1].hasSuffix(".md"),
                    let handle = Handle(parts[1].dropLast(3))
                {
                    evidence.profileCommits[handle, default: []].append(commit)
                } else if parts.count == 6, parts[0] == "projects", parts[2] == "rounds", parts[4] == "votes",
                    parts[5].hasSuffix(".yml"), let slug = Slug(parts[1]), let number = RoundNumber(folderName: parts[3]),
                    let voter = Handle(parts[5].dropLast(4))
                {
                    evidence.ballotCommits[IdentityEvidence.key(slug, number), default: [:]][voter, default: []].append(commit)
                }
            }
        }
    }

    /// Runs git in `folder`; nil when git is missing or fails (not a repository). Replace refs
    /// are ignored: they are local to a clone, and would let evidence differ between a whole
    /// read and a kept one.
    static func git(_ arguments: [String], in folder: String) -> String? {
        guard let result = GitProcess.run(["--no-replace-objects"] + arguments, in: folder), result.succeeded else { return nil }
        return result.text
    }
}
