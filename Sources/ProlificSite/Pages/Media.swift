import ProlificCore

/// Images beside the content: copied into the site at the same path they have in the content
/// directory, so an image written next to a snippet keeps working from every page that shows it.
///
/// Images on other hosts are never loaded (the site makes no request to another host): they
/// become a link. An image that isn't there, or points outside the content, leaves its alt text.
struct Media {
    /// The images that exist, by path inside the content directory.
    let files: Set<String>

    /// The folder, inside the content directory, that relative images in a project's starter text
    /// are resolved against.
    static func folder(of project: Slug) -> String { "projects/\(project)" }

    static func folder(of project: Slug, round: RoundNumber) -> String {
        "projects/\(project)/rounds/\(round.folderName)/submissions"
    }

    static let usersFolder = "users"

    /// What to do with an image written as `url` in a file in `folder`, on a page whose way back
    /// to the site's root is `root` (`../../`, or the absolute base URL in feeds).
    func image(_ url: String, folder: String, root: String) -> Markdown.Image {
        let lower = url.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return .link(url) }
        guard !url.isEmpty, !url.hasPrefix("/"), !url.contains(":"), !url.contains("\\") else { return .text }
        let path = url.prefix { $0 != "?" && $0 != "#" }
        guard let resolved = Self.resolve(String(path), in: folder), files.contains(resolved) else { return .text }
        return .source(root + resolved)
    }

    /// `../map.png` in `projects/moon/rounds/0001/submissions` → `projects/moon/rounds/0001/map.png`;
    /// nil when it climbs out of the content directory.
    static func resolve(_ relative: String, in folder: String) -> String? {
        var parts = folder.split(separator: "/").map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// The images the site copies: those of profiles and of projects that are built.
    func copied(built: [Project]) -> [String] {
        let folders = Set(built.map { "projects/\($0.slug)/" })
        return files.filter { path in
            path.hasPrefix("users/") || folders.contains { path.hasPrefix($0) }
        }.sorted()
    }
}
