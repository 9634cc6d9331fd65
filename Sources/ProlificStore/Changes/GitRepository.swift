import Foundation
import ProlificCore

/// Runs git in the repository that holds a content directory, for the pull-request checks.
///
/// Only plumbing with fixed output formats: NUL-separated paths, no colour, no mailmap, no
/// signatures, so the user's configuration can't change what is parsed. Every failure is nil:
/// the caller knows what it asked for and says so in its own words.
struct GitRepository {
    /// A folder inside the repository (the content directory); paths given to git are relative to it.
    let folder: String

    /// One commit of a range: its id, parents, author and committer time.
    struct Commit: Hashable {
        var id: String
        var parents: [String]
        var authorName: String
        var authorEmail: String
        var time: Timestamp
    }

    /// The content directory's place in the repository (`Content/`, or empty at the top).
    func prefix() -> String? {
        text(["rev-parse", "--show-prefix"])?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The full id of the commit `revision` names.
    func commitID(_ revision: String) -> String? {
        let id = text(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"])?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return id?.isEmpty == false ? id : nil
    }

    /// The commits reachable from HEAD but not from `base`, parents before children.
    func commits(since base: String) -> [Commit]? {
        guard
            let log = text([
                "-c", "log.showSignature=false", "log", "--no-color", "--reverse", "--topo-order",
                "--format=%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%ct", "\(base)..HEAD", "--",
            ])
        else { return nil }
        return log.split(separator: "\u{1e}").compactMap { record in
            let fields = record.trimmingCharacters(in: .newlines).split(separator: "\u{1f}", omittingEmptySubsequences: false)
            guard fields.count == 5, let seconds = Int64(fields[4]) else { return nil }
            return Commit(
                id: String(fields[0]), parents: fields[1].split(separator: " ").map(String.init), authorName: String(fields[2]),
                authorEmail: String(fields[3]), time: Timestamp(secondsSinceEpoch: seconds))
        }
    }

    /// The authors' emails of the commits up to `revision` that touched `path`.
    func authors(of path: String, upTo revision: String) -> [String]? {
        text(["log", "--no-color", "--format=%ae", revision, "--", path])?.split(separator: "\n").map(String.init)
    }

    /// The paths (from the repository's top) a commit changed, each with its change.
    ///
    /// A commit with one parent (or none) is compared with it, renames as a removal and an
    /// addition. A merge is compared with its first parent, but only in the paths it changed from
    /// every parent: the changes it brings in are judged in the commits that made them, and what
    /// is left is what the merge itself did (a conflict's resolution, or anything slipped in).
    func changes(of commit: Commit) -> [(path: String, kind: ChangeKind)]? {
        let arguments =
            commit.parents.count > 1
            ? ["diff-tree", "--no-commit-id", "-r", "-z", "-c", "--name-status", commit.id]
            : ["diff-tree", "--no-commit-id", "-r", "-z", "--no-renames", "--root", "--name-status", commit.id]
        return run(arguments).map(Self.nameStatus)
    }

    /// The paths (from the repository's top) a pull request from HEAD into `base` changes as a
    /// whole: from where HEAD branched off `base` (their merge base; `base` itself when they share
    /// no history) to HEAD, as `git diff base...HEAD` shows them, renames as a removal and an addition.
    func changes(fromMergeBaseWith base: String) -> [(path: String, kind: ChangeKind)]? {
        let mergeBase = text(["merge-base", "--end-of-options", base, "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines)
        let from = mergeBase.flatMap { $0.isEmpty ? nil : $0 } ?? base
        return run(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, "HEAD", "--"]).map(Self.nameStatus)
    }

    /// Parses `--name-status -z` output: a status (one letter, or one per parent for a merge) and
    /// a path, each ended by NUL.
    static func nameStatus(_ data: Data) -> [(path: String, kind: ChangeKind)] {
        let fields = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var result: [(path: String, kind: ChangeKind)] = []
        var index = 0
        while index + 1 < fields.count {
            let kind: ChangeKind =
                switch fields[index].first {
                case "A": .added
                case "D": .deleted
                default: .modified
                }
            result.append((fields[index + 1], kind))
            index += 2
        }
        return result
    }

    /// The names of the entries of the folder `path` (from the repository's top) at `revision`;
    /// nil when it has no such folder.
    ///
    /// `--full-tree`: git runs in the content directory, and from a subdirectory ls-tree lists only
    /// the entries under that subdirectory's path, even of a tree named from the top.
    func names(in path: String, at revision: String) -> [String]? {
        let tree = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let data = run(["ls-tree", "--full-tree", "-z", "--name-only", "\(revision):\(tree)"]) else { return nil }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The contents of each `<revision>:<path>` object (paths from the repository's top), read
    /// with one `cat-file --batch`; nil for one that is missing or not a file.
    func blobs(_ names: [String]) -> [Data?]? {
        guard !names.isEmpty else { return [] }
        let input = Data(names.map { $0 + "\n" }.joined().utf8)
        guard let output = run(["cat-file", "--batch"], input: input) else { return nil }
        var result: [Data?] = []
        var index = output.startIndex
        while result.count < names.count {
            guard let newline = output[index...].firstIndex(of: 10) else { return nil }
            let header = String(decoding: output[index..<newline], as: UTF8.self).split(separator: " ")
            index = output.index(after: newline)
            guard header.count == 3, let size = Int(header[2]) else {
                result.append(nil)  // "<name> missing" or "ambiguous"
                continue
            }
            guard output.distance(from: index, to: output.endIndex) >= size + 1 else { return nil }
            let end = output.index(index, offsetBy: size)
            result.append(header[1] == "blob" ? Data(output[index..<end]) : nil)
            index = output.index(after: end)
        }
        return result
    }

    func text(_ arguments: [String]) -> String? {
        run(arguments).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs git with `input` on standard input; nil when git is missing or fails.
    func run(_ arguments: [String], input: Data? = nil) -> Data? {
        guard let result = GitProcess.run(["-c", "core.quotePath=false"] + arguments, in: folder, input: input),
            result.succeeded
        else { return nil }
        return result.output
    }
}
