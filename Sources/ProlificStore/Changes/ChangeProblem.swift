import ProlificCore

/// A change a commit may not make, located by file and commit, as `check --since` reports it.
public struct ChangeProblem: Hashable, Sendable {
    /// The file, as the working tree names it (`Content/users/ann.md`).
    public var path: String
    /// The key the problem is about, in the file as that commit left it.
    public var position: TextPosition?
    /// The commit's full id.
    public var commit: String
    public var authorName: String
    public var authorEmail: String
    public var rule: ChangeViolation.Rule
    public var message: String

    public init(
        path: String, position: TextPosition? = nil, commit: String, authorName: String, authorEmail: String,
        rule: ChangeViolation.Rule, message: String
    ) {
        self.path = path
        self.position = position
        self.commit = commit
        self.authorName = authorName
        self.authorEmail = authorEmail
        self.rule = rule
        self.message = message
    }

    /// The commit's id as git abbreviates it by default.
    public var shortCommit: String { String(commit.prefix(7)) }

    /// The commit's author as git shows it: `Ann Abel <ann@example.org>`.
    public var author: String { "\(authorName) <\(authorEmail)>" }

    /// As `check` prints it, in the compiler style of every other problem:
    /// `Content/users/ann.md:1:1: error: [not-owner] only @ann may … (commit abc1234 by Bo <bo@example.org>)`.
    public var diagnostic: Diagnostic {
        Diagnostic(
            path: path, position: position ?? .start, message: "[\(rule.rawValue)] \(message) (commit \(shortCommit) by \(author))")
    }
}
