import Foundation
import ProlificCore

/// Content files as they were at given commits, read from git and parsed with the same readers
/// as the working tree's; each file of each commit is read once.
///
/// Values carry the path the file has in the working tree, so positions in messages read the same
/// as `check`'s (they point into the file as it was at that commit).
struct RevisionFiles {
    let git: GitRepository
    let layout: ContentLayout
    /// The content directory's place in the repository (`Content/`, or empty at the top).
    let prefix: String
    /// Bytes by `<commit>:<path inside the content directory>`; nil when there was no such file.
    private var cache: [String: Data?] = [:]

    init(git: GitRepository, layout: ContentLayout, prefix: String) {
        self.git = git
        self.layout = layout
        self.prefix = prefix
    }

    /// Reads each `(commit, path)` not read yet with one git call; false if git failed.
    mutating func prefetch(_ wanted: [(commit: String, path: String)]) -> Bool {
        var keys: [String] = []
        var seen: Set<String> = []
        for (commit, path) in wanted {
            let key = "\(commit):\(path)"
            if cache[key] == nil, seen.insert(key).inserted { keys.append(key) }
        }
        guard let blobs = git.blobs(keys.map { key in
            let colon = key.firstIndex(of: ":") ?? key.endIndex
            return "\(key[..<colon]):\(prefix)\(key[key.index(after: colon)...])"
        }) else { return false }
        for (key, blob) in zip(keys, blobs) { cache[key] = .some(blob) }
        return true
    }

    /// The bytes of `path` at `commit`; nil when it had no such file (or there is no commit: the
    /// parent of a repository's first commit).
    mutating func data(_ path: String, at commit: String?) -> Data? {
        guard let commit else { return nil }
        let key = "\(commit):\(path)"
        if cache[key] == nil { _ = prefetch([(commit, path)]) }
        return cache[key] ?? nil
    }

    mutating func exists(_ path: String, at commit: String?) -> Bool { data(path, at: commit) != nil }

    /// The file parsed by `parse`; nil when absent, not UTF-8 or not valid.
    private mutating func parsed<T>(_ file: ContentFile, at commit: String?, _ parse: (String, String) throws(Diagnostics) -> T) -> T? {
        guard let relative = ContentLayout.relativePath(of: file), let bytes = data(relative, at: commit),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        return try? parse(text, "\(layout.root)/\(relative)")
    }

    mutating func config(at commit: String?) -> Config? {
        parsed(.config, at: commit) { (text, path) throws(Diagnostics) in try ConfigFile.parse(text, path: path) }
    }

    mutating func profile(_ handle: Handle, at commit: String?) -> User? {
        parsed(.profile(handle), at: commit) { (text, path) throws(Diagnostics) in try UserFile.parse(text, path: path, handle: handle) }
    }

    mutating func project(_ slug: Slug, at commit: String?) -> Project? {
        parsed(.project(slug), at: commit) { (text, path) throws(Diagnostics) in try ProjectFile.parse(text, path: path, slug: slug) }
    }

    mutating func round(_ slug: Slug, _ number: RoundNumber, at commit: String?) -> Round? {
        parsed(.round(slug, number), at: commit) { (text, path) throws(Diagnostics) in
            try RoundFile.parse(text, path: path, number: number)
        }
    }

    mutating func submission(_ slug: Slug, _ number: RoundNumber, _ id: SubmissionID, at commit: String?) -> Submission? {
        parsed(.submission(slug, number, id), at: commit) { (text, path) throws(Diagnostics) in
            try SubmissionFile.parse(text, path: path, id: id)
        }
    }

    mutating func ballot(_ slug: Slug, _ number: RoundNumber, _ voter: Handle, at commit: String?) -> Ballot? {
        parsed(.ballot(slug, number, voter), at: commit) { (text, path) throws(Diagnostics) in
            try BallotFile.parse(text, path: path, voter: voter)
        }
    }

    /// Every profile that parses at `revision`.
    mutating func profiles(at revision: String) -> [User] {
        let names = git.names(in: "\(prefix)users", at: revision) ?? []
        let handles = names.compactMap { name in name.hasSuffix(".md") ? Handle(name.dropLast(3)) : nil }
        _ = prefetch(handles.compactMap { ContentLayout.relativePath(of: .profile($0)).map { (revision, $0) } })
        return handles.compactMap { profile($0, at: revision) }
    }

    /// A file as it was before `commit` (at `parent`), or, when it didn't exist then, as `commit`
    /// made it: a profile or round created in the same commit as the entry that needs it.
    mutating func beforeOrMade<T>(
        _ file: ContentFile, parent: String?, commit: String, _ read: (inout RevisionFiles, String?) -> T?
    ) -> T? {
        guard let relative = ContentLayout.relativePath(of: file) else { return nil }
        return read(&self, exists(relative, at: parent) ? parent : commit)
    }
}
