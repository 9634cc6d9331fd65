import ProlificCore
import ProlificStore

/// One input of `FuzzContent`: a first line with the file's path in the content directory, then
/// the file's text.
///
/// ```
/// projects/moon/rounds/0003/votes/ann.yml
/// voter: ann
/// cast: 2026-11-04T10:00:00Z
/// for: [bo-20261102101500]
/// ```
///
/// The path is classified by `ContentLayout.file(at:)`, the rules `check --since` uses, so the
/// seed corpus is real files under their real names and a path's identity (the handle of
/// `users/ann.md`) reaches the parser as it would from `ContentReader`. A first line that is no
/// content file's path still chooses a kind by its first byte, with a fixed identity, so no input
/// is wasted on the header alone.
struct ContentInput {
    enum Kind {
        case config
        case user(Handle)
        case project(Slug)
        case round(RoundNumber)
        case submission(SubmissionID)
        case ballot(Handle)
        case report(ReportID)
    }

    var kind: Kind
    var path: String
    var text: String

    /// Nil when the file's text is not UTF-8: `ContentReader` refuses such a file before parsing.
    init?(_ bytes: [UInt8]) {
        let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        guard let text = String(validating: bytes[min(end + 1, bytes.count)...], as: UTF8.self) else { return nil }
        let header = String(decoding: bytes[..<end], as: UTF8.self)
        self.text = text
        if let kind = Self.kind(of: header) {
            (self.kind, path) = (kind, header)
        } else {
            (self.kind, path) = Self.fallbacks[Int(bytes.first ?? 0) % Self.fallbacks.count]
        }
    }

    /// The kind and identity a content file's path gives it; nil for anything the reader doesn't parse.
    static func kind(of path: String) -> Kind? {
        switch ContentLayout.file(at: path) {
        case .config: .config
        case .profile(let handle): .user(handle)
        case .project(let slug): .project(slug)
        case .round(_, let number): .round(number)
        case .submission(_, _, let id): .submission(id)
        case .ballot(_, _, let voter): .ballot(voter)
        case .report(let id): .report(id)
        case .avatar, .other, nil: nil
        }
    }

    /// One file of each kind, for a first line that names none.
    static let fallbacks: [(Kind, String)] = [
        "prolific.yml", "users/ann.md", "projects/moon/project.md", "projects/moon/rounds/0001/round.md",
        "projects/moon/rounds/0001/submissions/ann-20261102101500.md", "projects/moon/rounds/0001/votes/ann.yml",
        "reports/dana-20261104120000.md",
    ].compactMap { path in kind(of: path).map { ($0, path) } }
}
