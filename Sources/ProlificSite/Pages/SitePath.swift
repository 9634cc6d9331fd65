import ProlificCore

/// Where each page and file lives inside the site. Every internal link is one of these, relative
/// to the site's root; templates put `{{root}}` in front so links work from any page, from a
/// sub-path and from disk.
enum SitePath {
    static let home = "index.html"
    static let notFound = "404.html"
    static let users = "users/index.html"
    static let badges = "badges/index.html"
    static let leaderboard = "leaderboard/index.html"
    static let calendar = "calendar/index.html"
    static let calendarFeed = "calendar.ics"
    static let feed = "feed.xml"
    static let search = "search/index.html"
    static let searchIndex = "search.json"
    /// Where the key of the search index's run of entries number `run` is recorded among the
    /// pages' fingerprints (`SearchIndex.file(memory:)`): under the index's own path, which is a
    /// file, so it names none.
    static func searchIndexRun(_ run: Int) -> String { "search.json/\(run)" }

    /// Page `n` (from 1) of the list of every story in progress, the most recently started first.
    static func inProgress(page: Int = 1) -> String {
        page <= 1 ? "in-progress/index.html" : "in-progress/page/\(page)/index.html"
    }

    static func tag(_ slug: String, page: Int = 1) -> String {
        page <= 1 ? "tags/\(slug)/index.html" : "tags/\(slug)/page/\(page)/index.html"
    }

    static func project(_ slug: Slug) -> String { "projects/\(slug)/index.html" }
    /// Where the key of a project's round pages is recorded among the pages' fingerprints
    /// (`SiteBuilder.keptGroups`): a folder's path, which names no file.
    static func roundsGroup(_ slug: Slug) -> String { "projects/\(slug)/rounds/" }
    /// Where the shortcut to that key is recorded (`SiteBuilder.roundPagesShortcut`), naming
    /// no file either.
    static func roundsShortcut(_ slug: Slug) -> String { "projects/\(slug)/rounds/shortcut/" }
    static func projectFeed(_ slug: Slug) -> String { "projects/\(slug)/feed.xml" }
    /// Where what the feeds draw on is recorded (`FeedsKeys`), and each built project's part of
    /// it after it: under the site's feed, a file, so they name no file either.
    static let feedsKey = "feed.xml/every/"
    static func epub(_ project: Project) -> String { "projects/\(project.slug)/\(project.slug).epub" }

    /// A closed round's page is a file of its own, `rounds/0003.html`, not a folder holding an
    /// `index.html`: every link in the site names its file anyway, and a large game's 18,000
    /// rounds then make 18,000 fewer folders (making folders was 4 % of a large build's CPU).
    static func round(_ slug: Slug, _ number: RoundNumber) -> String {
        "projects/\(slug)/rounds/\(number.folderName).html"
    }

    /// Page `n` (from 1) of the players' list. Later pages are files beside the profiles'
    /// folders, `users/page-2.html`: a handle has no `.`, so no profile's folder has that name,
    /// where `users/page/2/` would be the folder of a player named `page`.
    static func users(page: Int) -> String { page <= 1 ? users : "users/page-\(page).html" }

    static func user(_ handle: Handle) -> String { "users/\(handle)/index.html" }
    static func userFeed(_ handle: Handle) -> String { "users/\(handle)/feed.xml" }
    static func userCard(_ handle: Handle) -> String { "users/\(handle)/card.svg" }

    /// The relative way from a page back to the site's root: `projects/moon/index.html` → `../../`.
    static func root(of path: String) -> String {
        // The number of non-empty parts between slashes, as `split(separator:)` counts them,
        // without making them: every snippet on every page asks.
        var parts = 0
        var inPart = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                inPart = false
            } else if !inPart {
                inPart = true
                parts += 1
            }
        }
        return String(repeating: "../", count: max(0, parts - 1))
    }

    /// `projects/moon/index.html` → `projects/moon/`, the form absolute URLs take.
    static func pretty(_ path: String) -> String {
        path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
    }
}

extension SitePath {
    /// Page `n` of the list of completed stories.
    static func completed(page: Int = 1) -> String {
        page <= 1 ? "completed/index.html" : "completed/page/\(page)/index.html"
    }
}
