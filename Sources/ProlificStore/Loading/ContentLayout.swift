import ProlificCore

/// Where each file of a content directory lives. The paths are part of the content format's contract.
///
/// ```
/// prolific.yml
/// users/<handle>.md
/// projects/<slug>/project.md
/// projects/<slug>/rounds/0001/round.md
/// projects/<slug>/rounds/0001/submissions/<id>.md
/// projects/<slug>/rounds/0001/votes/<voter>.yml
/// reports/<reporter>-<yyyymmddhhmmss>.md
/// ```
public struct ContentLayout: Sendable {
    /// The content directory as the user named it; every path shown to the user starts with it.
    public let root: String

    public init(root: String) {
        let root = FileSystem.trimmingTrailingSlashes(root)
        self.root = root.isEmpty ? "." : root
    }

    /// The content directory with every link and `.`/`..` resolved (`FileSystem.realPath`), or
    /// `root` when it can't be: what the caches inside it are keyed by, so that `Content`,
    /// `./Content` and an absolute path to it share them. Only what is shown to the user uses
    /// `root`.
    public var resolvedRoot: String { FileSystem.realPath(root) ?? root }

    public var configFile: String { "\(root)/prolific.yml" }
    public var usersFolder: String { "\(root)/users" }
    public var projectsFolder: String { "\(root)/projects" }
    public var reportsFolder: String { "\(root)/reports" }
    public func reportFile(_ id: ReportID) -> String { "\(reportsFolder)/\(id).md" }

    public func userFile(_ handle: Handle) -> String { "\(usersFolder)/\(handle).md" }
    public func projectFolder(_ slug: Slug) -> String { "\(projectsFolder)/\(slug)" }
    public func projectFile(_ slug: Slug) -> String { "\(projectFolder(slug))/project.md" }
    public func roundsFolder(_ slug: Slug) -> String { "\(projectFolder(slug))/rounds" }
    public func roundFolder(_ slug: Slug, _ number: RoundNumber) -> String {
        Self.roundFolder(in: roundsFolder(slug), number)
    }
    /// Round `number`'s folder in a project's rounds folder (`roundsFolder(_:)`), which a
    /// caller spelling every round's folder spells once.
    public static func roundFolder(in roundsFolder: String, _ number: RoundNumber) -> String {
        roundsFolder + "/" + number.folderName
    }
    public func roundFile(_ slug: Slug, _ number: RoundNumber) -> String { "\(roundFolder(slug, number))/round.md" }
    public func submissionsFolder(_ slug: Slug, _ number: RoundNumber) -> String {
        "\(roundFolder(slug, number))/submissions"
    }
    public func submissionFile(_ slug: Slug, _ number: RoundNumber, _ id: SubmissionID) -> String {
        "\(submissionsFolder(slug, number))/\(id).md"
    }
    public func votesFolder(_ slug: Slug, _ number: RoundNumber) -> String { "\(roundFolder(slug, number))/votes" }
    public func ballotFile(_ slug: Slug, _ number: RoundNumber, _ voter: Handle) -> String {
        "\(votesFolder(slug, number))/\(voter).yml"
    }

    /// Files that may sit beside content without being content: images for Markdown and avatars.
    static let mediaExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "avif"]

    static func isIgnored(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        guard let dot = name.lastIndex(of: ".") else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
