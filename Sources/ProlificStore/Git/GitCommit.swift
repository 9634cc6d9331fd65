import Foundation
import ProlificCore

/// `--commit`: commits exactly the files an action changed, when the content is in a git repository.
///
/// Only the action's own paths are staged and committed (`git commit -- PATHS`), so whatever else
/// the maintainer has staged or edited stays out of the commit. Readiness is checked before the
/// action, so a `--commit` that can't commit changes nothing; if git still fails afterwards, the
/// content change stays made and the message says so rather than undoing a valid action.
public enum GitCommit {
    /// Refuses unless the content directory `root` is inside a git work tree and git knows who commits.
    public static func checkReady(root: String) throws(Diagnostics) {
        guard let inside = GitProcess.run(literalPaths: true, ["rev-parse", "--is-inside-work-tree"], in: root), inside.succeeded,
            inside.text.trimmingCharacters(in: .whitespacesAndNewlines) == "true"
        else {
            throw Diagnostics([
                .plain(
                    "--commit: '\(root)' is not in a git repository; run 'git init' in the game's folder, "
                        + "'\(gameFolder(of: root))', or leave out --commit")
            ])
        }
        guard let identity = GitProcess.run(literalPaths: true, ["var", "GIT_COMMITTER_IDENT"], in: root), identity.succeeded else {
            throw Diagnostics([
                .plain(
                    "--commit: git does not know who commits; set it with 'git config user.name NAME' and 'git config user.email EMAIL'")
            ])
        }
    }

    /// Stages `paths` (files or folders under `root`; removed ones as removals) and commits them
    /// alone with `message`. Returns the new commit's short hash, or nil if they match the last commit.
    public static func commit(_ paths: [String], root: String, message: String) throws(Diagnostics) -> String? {
        var relative: [String] = []
        for path in paths {
            let inside = relativePath(path, root: root)
            // A path that is gone and was never committed has nothing to record.
            if FileSystem.exists(path) || GitProcess.run(literalPaths: true, ["ls-files", "--error-unmatch", "--", inside], in: root)?.succeeded == true {
                relative.append(inside)
            }
        }
        guard !relative.isEmpty else { return nil }
        try run(["add", "--all", "--"] + relative, in: root)
        if GitProcess.run(literalPaths: true, ["diff", "--cached", "--quiet", "--"] + relative, in: root)?.status == 0 { return nil }
        try run(["commit", "--quiet", "--message", message, "--"] + relative, in: root)
        return try run(["rev-parse", "--short", "HEAD"], in: root).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The folder holding the content directory `root` (and `Templates/` beside it): the one
    /// `prolific init` made, which is the game's repository.
    static func gameFolder(of root: String) -> String {
        let root = ContentLayout(root: root).root
        if root == "." { return ".." }
        guard let slash = root.lastIndex(of: "/") else { return "." }
        return slash == root.startIndex ? "/" : String(root[..<slash])
    }

    /// `path` as git sees it from `root`: the actions name every path as `<root>/…`.
    static func relativePath(_ path: String, root: String) -> String {
        let layoutRoot = ContentLayout(root: root).root
        if layoutRoot == "." { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        return path.hasPrefix(layoutRoot + "/") ? String(path.dropFirst(layoutRoot.count + 1)) : path
    }

    @discardableResult
    private static func run(_ arguments: [String], in root: String) throws(Diagnostics) -> String {
        let command = "git \(arguments.first ?? "")"
        guard let result = GitProcess.run(literalPaths: true, arguments, in: root) else {
            throw Diagnostics([.plain("--commit: the change was made but not committed: cannot run git")])
        }
        guard result.succeeded else {
            let why = result.errors.split(separator: "\n").prefix(3).joined(separator: "; ")
            throw Diagnostics([
                .plain("--commit: the change was made but not committed: '\(command)' failed: \(why.isEmpty ? "exit \(result.status)" : why)")
            ])
        }
        return result.text
    }
}
