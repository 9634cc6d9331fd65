import ProlificCore

/// The home page (the first stories in progress in the explore order, the latest completed
/// stories, the activity chart and every tag), the paginated list of every story in progress,
/// the most recently started first, and the paginated list of completed stories.
///
/// The home page is the explore order's front: trending and discovery places move with every
/// ballot, karma and close. The full list is in an order that doesn't move, so that paging
/// through it shows each story once, a page shows the same stories until one starts or
/// completes, and a story that completes (the oldest usually do first) changes only the pages
/// from its place on: in explore order, a `close` made every page of the list again, 164 of
/// them on the large benchmark. A story that starts comes first, and moves every page.
struct HomePages {
    let site: SiteModel
    /// How many completed stories the home page shows before linking to their list.
    static let completedOnHome = 6
    /// How many stories in progress the home page shows before linking to their list: a page's.
    static var inProgressOnHome: Int { Pagination<Project>.pageSize }

    func jobs() -> [PageJob] {
        let cards = ProjectPages(site: site)
        let inProgress = site.inProgress
        let completed = site.completed
        let tagPages = TagPages(site: site)
        let allTags = tagPages.tags
        let tags = allTags.map { tag -> [String: Any] in
            ["name": tag.name, "url": SitePath.tag(tag.key), "count": tag.projects.count]
        }
        let chart = ActivityChart.of(site.listed, until: site.now, id: "activity").svg
        let front = Pagination(number: 1, count: 1, items: inProgress.prefix(Self.inProgressOnHome))
        let inProgressLabel = Display.count(inProgress.count, "story", plural: "stories") + " in progress"
        let home = PageContext(
            site: site.config, now: site.now, path: SitePath.home, title: site.config.title,
            description: "\(site.config.title): stories written together, one round at a time.", section: .stories,
            showsMoment: true)
        var jobs = [
            PageJob("index", home, inputs: { inputs(front, tags: allTags, chart: chart, cards: cards) }) {
                [
                    // A theme copied before the home page was one page reads these two
                    // (docs/templates.md): it shows the intro, and no pagination.
                    "isFirstPage": true,
                    "pagination": false,
                    "hasProjects": !site.listed.isEmpty,
                    "hasInProgress": !front.items.isEmpty,
                    "inProgressLabel": inProgressLabel,
                    "inProgress": front.items.map(cards.card),
                    "hasMoreInProgress": inProgress.count > Self.inProgressOnHome,
                    "inProgressURL": SitePath.inProgress(),
                    "moreInProgressLabel": "All " + inProgressLabel,
                    "hasCompleted": !completed.isEmpty,
                    "completed": completed.prefix(Self.completedOnHome).map(cards.card),
                    "hasMoreCompleted": completed.count > Self.completedOnHome,
                    "completedURL": SitePath.completed(),
                    "completedLabel": "All " + Display.count(completed.count, "completed story", plural: "completed stories"),
                    "activitySVG": chart,
                    "hasTags": !tags.isEmpty,
                    "tags": tags,
                ]
            }
        ]
        if inProgress.count > Self.inProgressOnHome {
            // Only the first page counts the stories: a count on every page made each of them
            // again whenever a story started or completed.
            jobs += listJobs(
                Self.byStart(inProgress), heading: "Stories in progress",
                description: "Every story in progress on \(site.config.title), the most recently started first.",
                path: { SitePath.inProgress(page: $0) }, cards: cards
            ) { page in
                page.number == 1
                    ? Display.count(inProgress.count, "story", plural: "stories") + ", the most recently started first"
                    : "The most recently started first"
            }
        }
        if completed.count > Self.completedOnHome {
            let countLabel = Display.count(completed.count, "story", plural: "stories")
            jobs += listJobs(
                completed, heading: "Completed stories",
                description: "Every completed story on \(site.config.title), most recently finished first.",
                path: { SitePath.completed(page: $0) }, cards: cards
            ) { _ in countLabel }
        }
        return jobs + tagPages.jobs(allTags)
    }

    /// The pages of a list of stories (`list.mustache`), 12 cards a page, each page kept by its
    /// cards and the label under its heading (`countLabel(page)`), which is all it shows
    /// besides its context and pagination.
    private func listJobs(
        _ projects: [Project], heading: String, description: String, path: @escaping (Int) -> String, cards: ProjectPages,
        countLabel: (Pagination<Project>) -> String
    ) -> [PageJob] {
        Pagination.pages(of: projects, size: Pagination<Project>.pageSize).map { page in
            let context = PageContext(
                site: site.config, now: site.now, path: path(page.number),
                title: page.number == 1 ? heading : "\(heading), page \(page.number)", description: description,
                section: .stories)
            let label = countLabel(page)
            let inputs = { () -> PageInputs? in
                var inputs = cards.cardsInputs(page)
                inputs?.add(label)
                return inputs
            }
            return PageJob("list", context, inputs: inputs) {
                ["heading": heading, "countLabel": label, "projects": page.items.map(cards.card), "pagination": page.values(path)]
            }
        }
    }

    /// `projects` in the full list's order: the most recently started first, then by slug.
    /// Sorted by their keys alone: sorting the 2,000 projects of a large game themselves, each
    /// copied into the comparison and moved whole, took 11 ms of the core making the jobs.
    static func byStart(_ projects: [Project]) -> [Project] {
        let keys = projects.map { (created: $0.created, slug: $0.slug.rawValue) }
        return keys.indices.sorted { a, b in
            keys[a].created != keys[b].created ? keys[a].created > keys[b].created : keys[a].slug < keys[b].slug
        }.map { projects[$0] }
    }

    /// What the home page is a function of, apart from its context and the binary: its cards of
    /// stories in progress (`ProjectPages.cardsInputs`), how many stories are in progress and
    /// completed, the completed stories' cards, the activity chart of every listed story (worked
    /// out: it is a function of all of them and of the moment) and the tags with their counts.
    /// nil when a project has no key.
    func inputs(
        _ page: Pagination<Project>, tags: [(key: String, name: String, projects: [Project])], chart: String,
        cards: ProjectPages
    ) -> PageInputs? {
        guard var inputs = cards.cardsInputs(page) else { return nil }
        inputs.add(site.listed.isEmpty)
        inputs.add(site.inProgress.count)
        inputs.add(site.completed.count)
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
