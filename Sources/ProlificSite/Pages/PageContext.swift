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

    var root: String {
        String(repeating: "../", count: path.split(separator: "/").count - 1)
    }

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
