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
    /// Unlisted pages ask search engines to stay away and stay out of the sitemap.
    var noindex = false
    /// The section of the site navigation this page belongs to, if any.
    var section: Section? = nil
    /// Whether the footer says when the site was built: on the front page and the calendar only.
    /// On every other page the moment would be the only change from one build to the next, so
    /// each build would render and rewrite the whole site, and every upload of it would carry
    /// every page again.
    var showsMoment = false

    /// The parts of the site the header links to.
    enum Section: String, CaseIterable {
        case stories, calendar, badges, leaderboard, players, search

        var label: String {
            switch self {
            case .stories: "Stories"
            case .calendar: "Calendar"
            case .badges: "Badges"
            case .leaderboard: "Leaderboard"
            case .players: "Players"
            case .search: "Search"
            }
        }

        var path: String {
            switch self {
            case .stories: SitePath.home
            case .calendar: SitePath.calendar
            case .badges: SitePath.badges
            case .leaderboard: SitePath.leaderboard
            case .players: SitePath.users
            case .search: SitePath.search
            }
        }
    }

    /// The 404 page is served at any missing path, so its links start from the site's path on
    /// its host (`/` or `/sub/`, from `base-url`): relative links would break, absolute ones would
    /// reach for another host when previewing.
    var root: String {
        if path == SitePath.notFound { return Self.sitePath(of: site.baseURL) }
        return SitePath.root(of: path)
    }

    /// `https://example.org/stories/` → `/stories/`.
    static func sitePath(of baseURL: String) -> String {
        guard let scheme = baseURL.range(of: "://") else { return "/" }
        let rest = baseURL[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = String(rest[slash...])
        return path.hasSuffix("/") ? path : path + "/"
    }

    var canonical: String { site.baseURL + SitePath.pretty(path) }

    func values(_ page: [String: Any]) -> [String: Any] {
        var values = page
        values["site"] = [
            "title": site.title, "baseURL": site.baseURL, "feedURL": SitePath.feed,
            "calendarURL": SitePath.calendarFeed,
        ]
        values["root"] = root
        values["canonical"] = canonical
        values["pageTitle"] = path == SitePath.home ? site.title : "\(title) · \(site.title)"
        values["description"] = description
        values["noindex"] = noindex
        values["nav"] = Section.allCases.map { section -> [String: Any] in
            ["url": section.path, "label": section.label, "isCurrent": section == self.section]
        }
        values["generated"] = showsMoment ? ["iso": now.iso8601, "display": Display.time(now)] as [String: Any] : false
        return values
    }
}
