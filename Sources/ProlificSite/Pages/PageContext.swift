import Foundation
import ProlificCore

/// The values every page receives, whatever its kind.
///
/// `root` is the relative path from the page to the site's root (`../../`), so links work from a
/// sub-path and from disk; `canonical` is the only absolute URL.
struct PageContext {
    var site: Config
    var now: Timestamp
    /// The page's path inside the site, such as `projects/moon/index.html`.
    var path: String
    var title: String
    var description: String

    /// The 404 page is served at any missing path, so its links start from the site's path on
    /// its host (`/` or `/sub/`, from `base-url`): relative links would break, absolute ones would
    /// reach for another host when previewing.
    var root: String {
        if path == Self.notFound { return Self.sitePath(of: site.baseURL) }
        return String(repeating: "../", count: path.split(separator: "/").count - 1)
    }

    /// `https://example.org/stories/` → `/stories/`.
    static func sitePath(of baseURL: String) -> String {
        guard let scheme = baseURL.range(of: "://") else { return "/" }
        let rest = baseURL[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = String(rest[slash...])
        return path.hasSuffix("/") ? path : path + "/"
    }

    static let notFound = "404.html"

    var canonical: String {
        let trimmed = path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
        return site.baseURL + trimmed
    }

    func values(_ page: [String: Any]) -> [String: Any] {
        var values = page
        values["site"] = ["title": site.title, "baseURL": site.baseURL]
        values["root"] = root
        values["canonical"] = canonical
        values["pageTitle"] = path == "index.html" ? site.title : "\(title) · \(site.title)"
        values["description"] = description
        values["generated"] = ["iso": now.iso8601, "display": Display.time(now)]
        return values
    }
}
