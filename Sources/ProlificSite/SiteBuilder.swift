import ProlificCore

/// One file of the built site.
public struct OutputFile: Sendable, Hashable {
    /// Its path inside the site, such as `projects/moon/index.html`.
    public var path: String
    public var contents: [UInt8]
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

    public func build() throws(Diagnostics) -> [OutputFile] {
        let pages = ProjectPages(content: content, now: now, html: Markdown.html)
        var files: [OutputFile] = []
        let complete = content.projects.filter(pages.isComplete)
        let standing = Standing(content: content, badges: content.config.badges)
        let inProgress = Explore.order(
            content.projects.filter { !pages.isComplete($0) }, users: content.users,
            karma: standing.counts.mapValues(\.karma), now: now)
        let home = PageContext(
            site: content.config, now: now, path: "index.html", title: content.config.title,
            description: "\(content.config.title): stories written together, one round at a time.")
        files.append(
            try render(
                "index", home,
                [
                    "hasProjects": !content.projects.isEmpty,
                    "hasInProgress": !inProgress.isEmpty,
                    "inProgress": inProgress.map(pages.card),
                    "hasCompleted": !complete.isEmpty,
                    "completed": complete.map(pages.card),
                ]))
        var replayed: [String: TallyTimeline.Replayed] = [:]
        for result in TallyTimeline(content: content, evidence: evidence).replayExplained() {
            replayed[IdentityEvidence.key(result.slug, result.round.number)] = result
        }
        let rounds = RoundPages(pages: pages)
        for project in content.projects {
            for round in project.rounds where !round.isOpen {
                let context = PageContext(
                    site: content.config, now: now, path: RoundPages.path(of: project, round.number),
                    title: "Round \(round.number) · \(project.title)",
                    description: "Round \(round.number) of \(project.title): the winning snippet, the alternate takes and the tally.")
                let values = rounds.page(round, of: project, replayed: replayed[IdentityEvidence.key(project.slug, round.number)])
                files.append(try render("round", context, values))
            }
            let context = PageContext(
                site: content.config, now: now, path: ProjectPages.path(of: project), title: project.title,
                description: "\(project.title), a story written together on \(content.config.title).")
            files.append(try render("project", context, pages.page(project)))
        }
        files.append(
            try render(
                "404",
                PageContext(
                    site: content.config, now: now, path: PageContext.notFound, title: "Page not found",
                    description: "This page isn't part of the story."), [:]))
        files.append(SiteMap.file(pages: files.map(\.path), baseURL: content.config.baseURL))
        files.append(SiteMap.robots(baseURL: content.config.baseURL))
        for file in theme.staticFiles {
            files.append(OutputFile(path: file.path, contents: file.contents))
        }
        return files.sorted { $0.path < $1.path }
    }

    private func render(_ template: String, _ context: PageContext, _ values: [String: Any]) throws(Diagnostics)
        -> OutputFile
    {
        let text = try theme.render(template, context.values(values))
        return OutputFile(path: context.path, contents: Array(text.utf8))
    }
}
