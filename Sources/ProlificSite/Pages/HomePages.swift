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
        // The first page's chart, for its inputs and its values: worked out once.
        let chart = ActivityChart.of(site.listed, until: site.now, id: "activity").svg
        var jobs = Pagination.pages(of: inProgress, size: Pagination<Project>.pageSize).map { page in
            let context = PageContext(
                site: site.config, now: site.now, path: SitePath.home(page: page.number),
                title: page.number == 1 ? site.config.title : "Stories in progress, page \(page.number)",
                description: "\(site.config.title): stories written together, one round at a time.", section: .stories,
                showsMoment: page.number == 1)
            return PageJob("index", context, inputs: { inputs(page, tags: allTags, chart: chart, cards: cards) }) {
                [
                    "isFirstPage": page.number == 1,
                    "hasProjects": !site.listed.isEmpty,
                    "hasInProgress": !page.items.isEmpty,
                    "inProgressLabel": Display.count(inProgress.count, "story", plural: "stories") + " in progress",
                    "inProgress": page.items.map(cards.card),
                    "pagination": page.values { SitePath.home(page: $0) },
                    // The completed stories, the chart and the tags are the first page's
                    // (docs/templates.md): later pages are kept by inputs without them.
                    "hasCompleted": page.number == 1 && !completed.isEmpty,
                    "completed": page.number == 1 ? completed.prefix(Self.completedOnHome).map(cards.card) : [],
                    "hasMoreCompleted": completed.count > Self.completedOnHome,
                    "completedURL": SitePath.completed(),
                    "completedLabel": "All " + Display.count(completed.count, "completed story", plural: "completed stories"),
                    "activitySVG": page.number == 1 ? chart : "",
                    "hasTags": page.number == 1 && !tags.isEmpty,
                    "tags": page.number == 1 ? tags : [],
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
                let inputs = { () -> PageInputs? in
                    var inputs = cards.cardsInputs(page)
                    inputs?.add(completed.count)
                    return inputs
                }
                return PageJob("list", context, inputs: inputs) {
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

    /// What a page of stories in progress is a function of, apart from its context and the
    /// binary: its cards (`ProjectPages.cardsInputs`), how many stories are in progress and
    /// completed, and on the first page the completed stories' cards, the activity chart of
    /// every listed story (worked out: it is a function of all of them and of the moment) and
    /// the tags with their counts. nil when a project has no key.
    func inputs(
        _ page: Pagination<Project>, tags: [(key: String, name: String, projects: [Project])], chart: String,
        cards: ProjectPages
    ) -> PageInputs? {
        guard var inputs = cards.cardsInputs(page) else { return nil }
        inputs.add(site.listed.isEmpty)
        inputs.add(site.inProgress.count)
        inputs.add(site.completed.count)
        guard page.number == 1 else { return inputs }
        let completed = site.completed.prefix(Self.completedOnHome)
        inputs.list(completed.count)
        for project in completed {
            guard cards.addCardInputs(project, to: &inputs) else { return nil }
        }
        inputs.add(chart)
        inputs.list(tags.count)
        for tag in tags {
            inputs.add(tag.key)
            inputs.add(tag.name)
            inputs.add(tag.projects.count)
        }
        return inputs
    }
}
