import ProlificCore

/// Atom feeds (RFC 4287), the static site's way to follow and be notified: the whole site (stories
/// started, rounds closed, stories completed), each project (the same, plus every snippet
/// submitted) and each player (their snippets, wins and stories).
///
/// Links and ids are absolute, from `base-url`; an entry's id is the address of what it announces,
/// so it never changes between builds. Only listed projects reach the site's and players' feeds.
struct AtomFeeds {
    let site: SiteModel
    /// Entries per feed; older ones drop off. Readers poll a feed often and keep what they have
    /// seen, so a feed needs only what is new since the last poll: 20 entries are weeks of a busy
    /// project (WordPress and jekyll-feed keep 10). Each entry carries the whole snippet.
    static let limit = 20

    /// One feed to write: where, its titles, and the projects whose events it shows.
    struct Plan {
        var path: String
        var page: String
        var title: String
        var subtitle: String
        /// In the order the site builds them.
        var projects: [Project]
        var shows: Shown

        /// Which of its projects' events a feed shows.
        enum Shown {
            /// A project's feed: all of them.
            case all
            /// The site's: stories started, rounds closed and stories completed.
            case news
            /// A player's: the stories they started (by index in `SiteModel.listed`), their
            /// snippets and the rounds they won.
            case player(Handle, started: [Int])
        }
    }

    /// Every feed, with the projects it draws on; `feed(_:memory:)` renders each (SiteBuilder
    /// does, in batches it writes as they come), working out its events only when it does.
    func plans() -> [Plan] {
        var plans: [Plan] = []
        for project in site.built {
            plans.append(
                Plan(
                    path: SitePath.projectFeed(project.slug), page: SitePath.project(project.slug),
                    title: "\(project.title) · \(site.config.title)",
                    subtitle: "Snippets submitted, rounds closed and the story’s end.", projects: [project], shows: .all))
        }
        plans.append(
            Plan(
                path: SitePath.feed, page: SitePath.home, title: site.config.title,
                subtitle: "Stories started, rounds closed and stories completed.", projects: site.listed, shows: .news))
        // A player's events are in the listed projects they started or wrote in.
        var started: [Handle: [Int]] = [:]
        for (index, project) in site.listed.enumerated() { started[project.owner, default: []].append(index) }
        for user in site.users {
            let mine = started[user.handle] ?? []
            var theirs = Set(mine)
            for place in site.snippetsByAuthor[user.handle] ?? [] { theirs.insert(place.project) }
            plans.append(
                Plan(
                    path: SitePath.userFeed(user.handle), page: SitePath.user(user.handle),
                    title: "\(user.name) · \(site.config.title)", subtitle: "Snippets, wins and stories by \(user.name).",
                    projects: theirs.sorted().map { site.listed[$0] }, shows: .player(user.handle, started: mine)))
        }
        return plans
    }

    /// The events a feed shows. A player's are found from their snippets' places
    /// (`SiteModel.snippetsByAuthor`), not by going through every round of their projects.
    func events(_ plan: Plan) -> [SiteEvent] {
        switch plan.shows {
        case .all: return plan.projects.flatMap { SiteEvent.events(of: $0, site: site) }
        case .news: return plan.projects.flatMap { SiteEvent.events(of: $0, site: site, snippets: false) }
        case .player(let handle, let started):
            var events = started.map { site.listed[$0] }.map { SiteEvent(kind: .started, project: $0, at: $0.created) }
            for place in site.snippetsByAuthor[handle] ?? [] {
                let project = site.listed[place.project]
                let round = project.rounds[place.round]
                let snippet = round.submissions[place.submission]
                events.append(SiteEvent(kind: .submitted(round, snippet), project: project, at: snippet.submitted))
                if let closed = round.closed, round.winner == snippet.id {
                    events.append(SiteEvent(kind: .roundClosed(round), project: project, at: closed))
                }
            }
            return events
        }
    }

    func absolute(_ path: String) -> String { site.config.baseURL + SitePath.pretty(path) }

    /// The events a feed shows: its newest `limit`.
    func entries(_ plan: Plan) -> [SiteEvent] {
        // Sorting indices moves integers, not events.
        let events = events(plan)
        return events.indices.sorted { SiteEvent.newestFirst(events[$0], events[$1]) }.prefix(Self.limit)
            .map { events[$0] }
    }

    /// The feed, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact. Feeds use no template, so their fingerprint
    /// leaves the theme out: a theme's change leaves them as they are.
    func feed(_ plan: Plan, memory: PageMemory?) -> OutputFile {
        guard let inputs = inputs(plan) else { return feed(plan, entries: entries(plan)) }
        let fingerprint = PageFingerprint.of(template: "feed.xml", inputs: inputs, theme: [])
        if memory?.keeps(plan.path, fingerprint) == true { return OutputFile.kept(plan.path, fingerprint: fingerprint) }
        var file = feed(plan, entries: entries(plan))
        file.fingerprint = fingerprint
        return file
    }

    /// What a feed is a function of, apart from the binary: the site's title and address, the
    /// feed's own, libcmark's version, the files of each project it draws on
    /// (`SiteModel.keysBesideBallots`: its events are made of them), the names of the players its
    /// entries may credit, and the moment when it has no project (it is then its `updated`).
    /// Worked out without the feed's events, so a feed that is kept costs none. nil when a
    /// project has no key or a text with images or `data:` links (their addresses depend on
    /// media files elsewhere): the feed is then written out, and the writer compares its bytes.
    func inputs(_ plan: Plan) -> PageInputs? {
        var inputs = PageInputs()
        for part in [site.config.title, site.config.baseURL, plan.path, plan.page, plan.title, plan.subtitle] {
            inputs.add(part)
        }
        inputs.add(Markdown.version)
        inputs.add(plan.projects.isEmpty ? site.now.iso8601 : nil)
        var credited: Set<Handle> = []
        inputs.list(plan.projects.count)
        for project in plan.projects {
            guard let files = site.keysBesideBallots[project.slug], !site.hasImages(project) else { return nil }
            inputs.add(files)
            switch plan.shows {
            case .all:
                credited.insert(project.owner)
                for round in project.rounds { for s in round.submissions { credited.insert(s.author) } }
            case .news:
                credited.insert(project.owner)
                for round in project.rounds { if let winner = round.winningSubmission { credited.insert(winner.author) } }
            case .player(let handle, _):
                credited.insert(handle)
            }
        }
        inputs.list(credited.count)
        for handle in credited.sorted() {
            inputs.add(handle.rawValue)
            inputs.add(site.names[handle])
        }
        return inputs
    }

    func feed(_ plan: Plan, entries: [SiteEvent]) -> OutputFile {
        let (path, page, title, subtitle) = (plan.path, plan.page, plan.title, plan.subtitle)
        let updated = entries.first?.at ?? site.now
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>\(XML.escape(title))</title>
            <subtitle>\(XML.escape(subtitle))</subtitle>
            <id>\(XML.escape(absolute(path)))</id>
            <link rel="self" type="application/atom+xml" href="\(XML.escape(absolute(path)))"/>
            <link rel="alternate" type="text/html" href="\(XML.escape(absolute(page)))"/>
            <updated>\(updated.iso8601)</updated>
            <generator>Prolific</generator>

            """
        for event in entries { xml += entry(event) }
        xml += "</feed>\n"
        return OutputFile(path: path, text: xml)
    }

    /// What this reads must be in `inputs(_:)`, or a rebuild keeps a stale feed.
    func entry(_ event: SiteEvent) -> String {
        let project = event.project
        let projectURL = absolute(SitePath.project(project.slug))
        let title: String, link: String, id: String, author: Handle, html: String
        switch event.kind {
        case .started:
            title = "New story: \(project.title)"
            (link, id, author) = (projectURL, projectURL + "#started", project.owner)
            html = site.html(project.starter, folder: Media.folder(of: project.slug), root: site.config.baseURL)
        case .submitted(let round, let s):
            title = "\(site.name(s.author)) wrote a snippet for round \(round.number.value) of \(project.title)"
            let page = round.isOpen ? projectURL : absolute(SitePath.round(project.slug, round.number))
            let anchor = "#" + s.id.rawValue
            (link, id, author) = (page + anchor, projectURL + anchor, s.author)
            html = site.html(s.body, folder: Media.folder(of: project.slug, round: round.number), root: site.config.baseURL)
        case .roundClosed(let round):
            let winner = round.winningSubmission
            title = winner.map { "Round \(round.number.value) of \(project.title): \(site.name($0.author)) won" }
                ?? "Round \(round.number.value) of \(project.title) closed"
            link = absolute(SitePath.round(project.slug, round.number))
            (id, author) = (link, winner?.author ?? project.owner)
            html = winner.map {
                site.html($0.body, folder: Media.folder(of: project.slug, round: round.number), root: site.config.baseURL)
            } ?? "<p>The round closed without a winner.</p>"
        case .completed:
            title = "Completed: \(project.title)"
            (link, id, author) = (projectURL, projectURL + "#completed", project.owner)
            html = "<p>\(XML.escape(project.title)) is complete after \(Display.count(project.closedRounds.count, "round")).</p>"
        }
        let at = event.at.iso8601
        return """
            <entry>
            <title>\(XML.escape(title))</title>
            <link rel="alternate" type="text/html" href="\(XML.escape(link))"/>
            <id>\(XML.escape(id))</id>
            <published>\(at)</published>
            <updated>\(at)</updated>
            <author><name>\(XML.escape(site.name(author)))</name>\(site.hasPage(author) ? "<uri>\(XML.escape(absolute(SitePath.user(author))))</uri>" : "")</author>
            <content type="html">\(XML.content(html))</content>
            </entry>

            """
    }
}
