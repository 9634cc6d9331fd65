import ProlificCore

/// The search page: a form whose script looks through `search.json`. Without JavaScript the page
/// says so and points to the lists every story and player is reachable from.
struct SearchPages {
    let site: SiteModel

    func job() -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.search, title: "Search",
            description: "Search the stories and players of \(site.config.title).", section: .search)
        return PageJob("search", context) {
            [
                "indexURL": SitePath.searchIndex, "scriptURL": "search.js",
                "storiesURL": SitePath.home, "playersURL": SitePath.users,
            ]
        }
    }
}
