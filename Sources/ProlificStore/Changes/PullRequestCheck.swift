import ProlificCore

/// `prolific check --since REV`: what each commit since `REV` changed in the content directory,
/// judged by `ChangeRules` against the files as they were at that commit.
///
/// Commits are taken parents first (`git log --reverse --topo-order REV..HEAD`); a commit is
/// compared with its first parent (a merge only in the paths it changed from every parent). Then
/// the pull request as a whole (`git diff REV...HEAD`) is held to the rounds as they are on `REV`:
/// nothing a player changed may be in a round closed there. Who
/// made a commit is its author email; maintainers are the `maintainers` of prolific.yml as of
/// `REV` and whoever committed prolific.yml up to `REV`, so a pull request can't promote its own
/// author. Files outside the content directory, and names starting with `.`, are not judged.
public struct PullRequestCheck: Sendable {
    public let layout: ContentLayout

    public init(layout: ContentLayout) {
        self.layout = layout
    }

    public struct Report: Sendable {
        /// The full id of the revision the commits are counted from.
        public var base: String
        /// How many commits were judged.
        public var commits: Int
        /// Every change not allowed, in commit order, then by path; then those of the pull request
        /// as a whole (in rounds closed on the base).
        public var problems: [ChangeProblem]
    }

    /// Judges every commit since `revision`. `forgeLogin`, when given, is the forge account that
    /// opened the pull request: players' files must then come from it too (see `ChangeRules`).
    public func run(since revision: String, forgeLogin: String? = nil) throws(Diagnostics) -> Report {
        let git = GitRepository(folder: layout.root)
        guard let prefix = git.prefix() else {
            throw Diagnostics([
                .plain("'\(layout.root)' is not in a git repository; --since judges the commits since a revision, so it needs one")
            ])
        }
        guard let base = git.commitID(revision) else {
            throw Diagnostics([
                .plain("'\(revision)' is not a commit of the repository; --since takes a revision such as origin/main or a commit id")
            ])
        }
        guard let commits = git.commits(since: base) else { throw Self.gitFailed("list the commits since '\(revision)'") }
        var files = RevisionFiles(git: git, layout: layout, prefix: prefix)
        var trust = Trust(base: base, forgeLogin: forgeLogin)
        trust.maintainers = Set(
            ((files.config(at: base)?.maintainers ?? []) + (git.authors(of: "prolific.yml", upTo: base) ?? [])).map { $0.lowercased() })
        var problems: [ChangeProblem] = []
        // The latest player's (not a maintainer's) commit that changed each path, and every path changed.
        var byPlayer: [String: GitRepository.Commit] = [:]
        var changedInRange: Set<String> = []
        for commit in commits {
            guard let changed = git.changes(of: commit) else { throw Self.gitFailed("read the changes of commit \(commit.id)") }
            let changes = changed.compactMap { change -> Change? in
                guard change.path.hasPrefix(prefix) else { return nil }
                let relative = String(change.path.dropFirst(prefix.count))
                return ContentLayout.file(at: relative).map { Change(relative: relative, file: $0, kind: change.kind) }
            }
            guard !changes.isEmpty else { continue }
            let trusted = trust.isMaintainer(commit.authorEmail, files: &files)
            let author = ChangeAuthor(email: commit.authorEmail, forgeLogin: forgeLogin, isMaintainer: trusted, time: commit.time)
            changedInRange.formUnion(changes.map(\.relative))
            if author.isMaintainer { continue }
            for change in changes { byPlayer[change.relative] = commit }
            guard files.prefetch(Self.needs(changes, parent: commit.parents.first, commit: commit.id)) else {
                throw Self.gitFailed("read the files of commit \(commit.id)")
            }
            // A maintainer's email judged as a player's says why: the forge binding is missing.
            let unbound = trust.unbound(commit.authorEmail, trusted: trusted).map { "; \($0)" } ?? ""
            for change in changes.sorted(by: { $0.relative < $1.relative }) {
                for violation in judge(change, in: commit, by: author, maintainers: trust.maintainers, files: &files) {
                    problems.append(
                        ChangeProblem(
                            path: "\(layout.root)/\(change.relative)", position: violation.position, commit: commit.id,
                            authorName: commit.authorName, authorEmail: commit.authorEmail, rule: violation.rule,
                            message: violation.message + unbound))
                }
            }
        }

        // The pull request as a whole, against the base: nothing in a round closed there.
        guard let overall = git.changes(fromMergeBaseWith: base) else { throw Self.gitFailed("compare HEAD with '\(revision)'") }
        let flagged = Set(problems.filter { $0.rule == .closedRound }.map(\.path))
        for change in overall where change.path.hasPrefix(prefix) {
            let relative = String(change.path.dropFirst(prefix.count))
            let path = "\(layout.root)/\(relative)"
            guard ContentLayout.file(at: relative) != nil, !flagged.contains(path),
                let (slug, number) = ContentLayout.round(holding: relative)
            else { continue }
            // A path no commit of the range changed by itself (a merge's doing) is the last commit's.
            var commit = byPlayer[relative]
            if commit == nil, !changedInRange.contains(relative), let last = commits.last,
                !trust.isMaintainer(last.authorEmail, files: &files)
            {
                commit = last
            }
            guard let commit else { continue }
            let unbound = trust.unbound(commit.authorEmail, trusted: false).map { "; \($0)" } ?? ""
            for violation in ChangeRules.roundOnBase(slug, number, files.round(slug, number, at: base), base: revision) {
                problems.append(
                    ChangeProblem(
                        path: path, position: violation.position, commit: commit.id, authorName: commit.authorName,
                        authorEmail: commit.authorEmail, rule: violation.rule, message: violation.message + unbound))
            }
        }
        return Report(base: base, commits: commits.count, problems: problems)
    }

    /// One file a commit added, changed or removed.
    struct Change {
        var relative: String
        var file: ContentFile
        var kind: ChangeKind
    }

    /// Applies the rule for the change's kind of file, with the values it needs.
    func judge(
        _ change: Change, in commit: GitRepository.Commit, by author: ChangeAuthor, maintainers: Set<String>, files: inout RevisionFiles
    ) -> [ChangeViolation] {
        let parent = commit.parents.first
        let before = change.kind == .added ? nil : parent
        let after: String? = change.kind == .deleted ? nil : commit.id
        func owner(_ handle: Handle) -> User? {
            files.beforeOrMade(.profile(handle), parent: parent, commit: commit.id) { $0.profile(handle, at: $1) }
        }
        func round(_ slug: Slug, _ number: RoundNumber) -> Round? {
            files.beforeOrMade(.round(slug, number), parent: parent, commit: commit.id) { $0.round(slug, number, at: $1) }
        }
        switch change.file {
        case .config, .round, .other:
            return ChangeRules.maintainersOnly(change.file, change.kind, by: author)
        case .profile(let handle):
            let (old, new) = (files.profile(handle, at: before), files.profile(handle, at: after))
            // The other profiles are read only when the commit adds an email to this one.
            let others = ChangeRules.addedEmails(before: old, after: new).isEmpty ? [] : files.profiles(at: commit.id)
            return ChangeRules.profile(handle, change.kind, before: old, after: new, by: author)
                + ChangeRules.emails(of: handle, before: old, after: new, maintainers: maintainers, others: others, by: author)
        case .avatar(let handle):
            return ChangeRules.avatar(handle, change.kind, profile: owner(handle), by: author)
        case .report(let id):
            return ChangeRules.report(id, change.kind, by: author)
        case .project(let slug):
            let old = files.project(slug, at: before)
            let profile = old.flatMap { files.profile($0.owner, at: parent) }
            return ChangeRules.project(slug, change.kind, before: old, after: files.project(slug, at: after), profile: profile, by: author)
        case .submission(let slug, let number, let id):
            return ChangeRules.submission(
                id, in: slug, number, change.kind, after: files.submission(slug, number, id, at: after), round: round(slug, number),
                profile: owner(id.author), by: author)
        case .ballot(let slug, let number, let voter):
            return ChangeRules.ballot(
                voter, in: slug, number, change.kind, after: files.ballot(slug, number, voter, at: after), round: round(slug, number),
                profile: owner(voter), by: author)
        }
    }

    /// Every file the rules may read for `changes`, before and after the commit, to read them at once.
    static func needs(_ changes: [Change], parent: String?, commit: String) -> [(commit: String, path: String)] {
        var paths: [String] = []
        for change in changes {
            paths.append(change.relative)
            switch change.file {
            case .submission(let slug, let number, let id):
                paths += [ContentLayout.relativePath(of: .round(slug, number)), ContentLayout.relativePath(of: .profile(id.author))]
                    .compactMap { $0 }
            case .ballot(let slug, let number, let voter):
                paths += [ContentLayout.relativePath(of: .round(slug, number)), ContentLayout.relativePath(of: .profile(voter))]
                    .compactMap { $0 }
            case .avatar(let handle):
                paths += [ContentLayout.relativePath(of: .profile(handle))].compactMap { $0 }
            default:
                break
            }
        }
        return paths.flatMap { path in [parent.map { ($0, path) }, (commit, path)].compactMap { $0 } }
    }

    static func gitFailed(_ what: String) -> Diagnostics {
        Diagnostics([.plain("git could not \(what)")])
    }
}
