import ProlificCore

/// The home page (stories in progress in the explore order, paginated, with the latest completed
/// stories and every tag) and the paginated list of completed stories.
struct HomePages {
    let site: SiteModel
    /// How many completed stories the home page shows before linking to their list.
    static let completedOnHome = 6

    func jobs() -> [PageJob] {
        let cards = ProjectPages(site: site)
        let inProgress = site.inProgress
        let completed = site.completed
        let tagPages = TagPages(site: site)
        let allTags = tagPages.tags
        let tags = allTags.map { tag -> [String: Any] in
            ["name": tag.name, "url": SitePath.tag(tag.key), "count": tag.projects.count]
        }
        var jobs = Pagination.pages(of: inProgress, size: Pagination<Project>.pageSize).map { page in
            let context = PageContext(
                site: site.config, now: site.now, path: SitePath.home(page: page.number),
                title: page.number == 1 ? site.config.title : "Stories in progress, page \(page.number)",
                description: "\(site.config.title): stories written together, one round at a time.", section: .stories,
                showsMoment: page.number == 1)
            return PageJob("index", context) {
                [
                    "isFirstPage": page.number == 1,
                    "hasProjects": !site.listed.isEmpty,
                    "hasInProgress": !page.items.isEmpty,
                    "inProgressLabel": Display.count(inProgress.count, "story", plural: "stories") + " in progress",
                    "inProgress": page.items.map(cards.card),
                    "pagination": page.values { SitePath.home(page: $0) },
                    "hasCompleted": page.number == 1 && !completed.isEmpty,
                    "completed": completed.prefix(Self.completedOnHome).map(cards.card),
                    "hasMoreCompleted": completed.count > Self.completedOnHome,
                    "completedURL": SitePath.completed(),
                    "completedLabel": "All " + Display.count(completed.count, "completed story", plural: "completed stories"),
                    "activitySVG": page.number == 1 ? ActivityChart.of(site.listed, until: site.now, id: "activity").svg : "",
                    "hasTags": page.number == 1 && !tags.isEmpty,
                    "tags": tags,
                ]
            }
        }
        if completed.count > Self.completedOnHome {
            jobs += Pagination.pages(of: completed, size: Pagination<Project>.pageSize).map { page in
                let context = PageContext(
                    site: site.config, now: site.now, path: SitePath.completed(page: page.number),
                    title: page.number == 1 ? "Completed stories" : "Completed stories, page \(page.number)",
                    description: "Every completed story on \(site.config.title), most recently finished first.",
                    section: .stories)
                return PageJob("list", context) {
                    [
                        "heading": "Completed stories",
                        "countLabel": Display.count(completed.count, "story", plural: "stories"),
                        "projects": page.items.map(cards.card),
                        "pagination": page.values { SitePath.completed(page: $0) },
                    ]
                }
            }
        }
        return jobs + tagPages.jobs(allTags)
    }
}
