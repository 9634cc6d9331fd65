import ProlificCore

/// One file of the built site.
public struct OutputFile: Sendable, Hashable {
    /// Its path inside the site, such as `projects/moon/index.html`.
    public var path: String
    public var contents: [UInt8]

    public init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }

    init(path: String, text: String) {
        self.init(path: path, contents: Array(text.utf8))
    }
}

/// Renders loaded content into the files of a static site. Pure apart from cmark: the same content,
/// theme and `now` give the same bytes.
public struct SiteBuilder {
    let content: Content
    let theme: Theme
    let now: Timestamp
    /// What git says about who committed what, for re-running the fair tally of each round.
    let evidence: IdentityEvidence

    public init(content: Content, theme: Theme, now: Timestamp, evidence: IdentityEvidence = IdentityEvidence()) {
        self.content = content
        self.theme = theme
        self.now = now
        self.evidence = evidence
    }

    /// The images, by path inside the content directory, that the site carries at the same path:
    /// those of profiles and of projects that are built. The caller copies them.
    public var mediaToCopy: [String] {
        let built = content.projects.filter { $0.visibility != .draft }
        return Media(files: content.media).copied(built: built)
    }

    /// Every file of the site, in path order. `progress` hears `(pages done, pages in all)`.
    public func build(progress: ((Int, Int) -> Void)? = nil) throws(Diagnostics) -> [OutputFile] {
        let site = SiteModel(content: content, now: now, evidence: evidence, html: Markdown.html)
        var jobs: [PageJob] = []
        jobs += HomePages(site: site).jobs()
        jobs += ProjectPages(site: site).jobs()
        jobs += RoundPages(site: site).jobs()
        jobs += UserPages(site: site).jobs()
        jobs.append(BadgePages(site: site).job())
        jobs.append(LeaderboardPages(site: site).job())
        jobs.append(CalendarPages(site: site).job())
        jobs.append(SearchPages(site: site).job())
        jobs.append(
            PageJob(
                "404",
                PageContext(
                    site: content.config, now: now, path: SitePath.notFound, title: "Page not found",
                    description: "This page isn’t part of the story."), values: { [:] }))

        var files: [OutputFile] = []
        files.reserveCapacity(jobs.count * 2)
        // Batches on every core; progress is told between batches, from this thread.
        let batch = 512
        for start in stride(from: 0, to: jobs.count, by: batch) {
            let slice = Array(jobs[start..<min(jobs.count, start + batch)])
            files += try Parallel.map(slice) { (job: PageJob) throws(Diagnostics) in
                OutputFile(path: job.context.path, contents: try theme.render(job.template, job.context.values(job.values())))
            }
            progress?(start + slice.count, jobs.count)
        }
        files.append(SiteMap.file(pages: jobs.filter(\.isListed).map(\.context.path), baseURL: content.config.baseURL))
        files.append(SiteMap.robots(baseURL: content.config.baseURL))
        files += try AtomFeeds(site: site).files()
        files.append(ICalendar(site: site).file())
        files.append(SearchIndex(site: site).file())
        files += try EpubBooks(site: site).files()
        files += try Parallel.map(site.users) { (user: User) throws(Diagnostics) in BadgeCard(site: site, user: user).file() }
        for file in theme.staticFiles {
            files.append(OutputFile(path: file.path, contents: file.contents))
        }
        return files.sorted { $0.path < $1.path }
    }
}
