import ProlificCore

extension ContentLayout {
    /// What the file at `relative` (a `/`-separated path inside the content directory) is, for
    /// judging a change to it; nil for names starting with `.`, which the content ignores.
    public static func file(at relative: String) -> ContentFile? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: { $0.hasPrefix(".") }) { return nil }
        func stem(_ name: Substring, _ suffix: String) -> Substring? {
            name.hasSuffix(suffix) ? name.dropLast(suffix.count) : nil
        }
        switch parts.count {
        case 1 where parts[0] == "prolific.yml":
            return .config
        case 2 where parts[0] == "users":
            if let handle = stem(parts[1], ".md").flatMap(Handle.init) { return .profile(handle) }
            if let dot = parts[1].lastIndex(of: "."), mediaExtensions.contains(parts[1][parts[1].index(after: dot)...].lowercased()),
                let handle = Handle(parts[1][..<dot])
            {
                return .avatar(handle)
            }
        case 2 where parts[0] == "reports":
            if let id = stem(parts[1], ".md").flatMap(ReportID.init) { return .report(id) }
        case 3 where parts[0] == "projects" && parts[2] == "project.md":
            if let slug = Slug(parts[1]) { return .project(slug) }
        case 5 where parts[0] == "projects" && parts[2] == "rounds" && parts[4] == "round.md":
            if let slug = Slug(parts[1]), let number = RoundNumber(folderName: parts[3]) { return .round(slug, number) }
        case 6 where parts[0] == "projects" && parts[2] == "rounds":
            guard let slug = Slug(parts[1]), let number = RoundNumber(folderName: parts[3]) else { break }
            if parts[4] == "submissions", let id = stem(parts[5], ".md").flatMap(SubmissionID.init) {
                return .submission(slug, number, id)
            }
            if parts[4] == "votes", let voter = stem(parts[5], ".yml").flatMap(Handle.init) {
                return .ballot(slug, number, voter)
            }
        default:
            break
        }
        return .other
    }

    /// The round whose folder holds `relative` (`projects/<slug>/rounds/NNNN/…`), at any depth.
    static func round(holding relative: String) -> (slug: Slug, number: RoundNumber)? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[0] == "projects", parts[2] == "rounds", let slug = Slug(parts[1]),
            let number = RoundNumber(folderName: parts[3])
        else { return nil }
        return (slug, number)
    }

    /// The path of `file` inside the content directory; nil for `.other`, which has no one path.
    static func relativePath(of file: ContentFile) -> String? {
        let layout = ContentLayout(root: ".")
        let path: String? =
            switch file {
            case .config: layout.configFile
            case .profile(let handle): layout.userFile(handle)
            case .project(let slug): layout.projectFile(slug)
            case .round(let slug, let number): layout.roundFile(slug, number)
            case .submission(let slug, let number, let id): layout.submissionFile(slug, number, id)
            case .ballot(let slug, let number, let voter): layout.ballotFile(slug, number, voter)
            case .report(let id): "./reports/\(id).md"
            case .avatar, .other: nil
            }
        return path.map { String($0.dropFirst(2)) }
    }
}
