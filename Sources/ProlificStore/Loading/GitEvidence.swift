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
    public static func read(layout: ContentLayout, maintainers: Set<String>) -> IdentityEvidence {
        guard let prefix = git(["rev-parse", "--show-prefix"], in: layout.root)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        else { return IdentityEvidence() }
        guard let log = git(
            ["log", "--reverse", "--no-renames", "--diff-filter=AM", "--format=%x1e%ae%x1f%ct", "--name-only", "--", "."],
            in: layout.root)
        else { return IdentityEvidence() }
        return parse(log: log, prefix: prefix, maintainers: maintainers)
    }

    /// Parses `git log --format=%x1e%ae%x1f%ct --name-only` output; paths are relative to the
    /// repository's top, `prefix` is the content directory's place in it. Every commit is kept
    /// with its time, so each round can be tallied with the evidence that existed at its cutoff.
    static func parse(log: String, prefix: String, maintainers: Set<String>) -> IdentityEvidence {
        var evidence = IdentityEvidence(maintainers: Set(maintainers.map { $0.lowercased() }))
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
        return evidence
    }

    /// Runs git in `folder`; nil when git is missing or fails (not a repository).
    static func git(_ arguments: [String], in folder: String) -> String? {
        guard let result = GitProcess.run(arguments, in: folder), result.succeeded else { return nil }
        return result.text
    }
}
