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

    /// One feed to write.
    struct Plan {
        var path: String
        var page: String
        var title: String
        var subtitle: String
        var events: [SiteEvent]
    }

    /// Every feed with its events, worked out in one pass over the projects; `feed(_:)` renders
    /// each (SiteBuilder does, in batches it writes as they come).
    func plans() -> [Plan] {
        var plans: [Plan] = []
        var siteEvents: [SiteEvent] = []
        var byPlayer: [Handle: [SiteEvent]] = [:]
        for project in site.built {
            let events = SiteEvent.events(of: project, site: site)
            plans.append(
                Plan(
                    path: SitePath.projectFeed(project.slug), page: SitePath.project(project.slug),
                    title: "\(project.title) · \(site.config.title)",
                    subtitle: "Snippets submitted, rounds closed and the story’s end.", events: events))
            guard project.visibility == .listed else { continue }
            for event in events {
                if !event.isSnippet { siteEvents.append(event) }
                if let player = event.player { byPlayer[player, default: []].append(event) }
            }
        }
        plans.append(
            Plan(
                path: SitePath.feed, page: SitePath.home, title: site.config.title,
                subtitle: "Stories started, rounds closed and stories completed.", events: siteEvents))
        for user in site.users {
            plans.append(
                Plan(
                    path: SitePath.userFeed(user.handle), page: SitePath.user(user.handle),
                    title: "\(user.name) · \(site.config.title)", subtitle: "Snippets, wins and stories by \(user.name).",
                    events: byPlayer[user.handle] ?? []))
        }
        return plans
    }

    func absolute(_ path: String) -> String { site.config.baseURL + SitePath.pretty(path) }

    /// The events a feed shows: its newest `limit`.
    func entries(_ plan: Plan) -> [SiteEvent] {
        // Sorting indices moves integers, not events.
        let events = plan.events
        return events.indices.sorted { SiteEvent.newestFirst(events[$0], events[$1]) }.prefix(Self.limit)
            .map { events[$0] }
    }

    /// The feed, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact. Feeds use no template, so their fingerprint
    /// leaves the theme out: a theme's change leaves them as they are.
    func feed(_ plan: Plan, memory: PageMemory?) -> OutputFile {
        let entries = entries(plan)
        guard let inputs = inputs(plan, entries: entries) else { return feed(plan, entries: entries) }
        let fingerprint = PageFingerprint.of(template: "feed.xml", inputs: inputs, theme: [])
        if memory?.keeps(plan.path, fingerprint) == true { return OutputFile.kept(plan.path, fingerprint: fingerprint) }
        var file = feed(plan, entries: entries)
        file.fingerprint = fingerprint
        return file
    }

    /// What a feed is a function of, apart from the binary: the site's title and address, the
    /// feed's own, its moment, and for each entry its project's files (`SiteModel.projectKeys`),
    /// what it announces and the names of the players it credits. nil when an entry's project
    /// has no key, or its text has images or `data:` links (their addresses depend on media
    /// files elsewhere): the feed is then written out, and the writer compares its bytes.
    func inputs(_ plan: Plan, entries: [SiteEvent]) -> PageInputs? {
        var inputs = PageInputs()
        for part in [site.config.title, site.config.baseURL, plan.path, plan.page, plan.title, plan.subtitle] {
            inputs.add(part)
        }
        inputs.add((entries.first?.at ?? site.now).iso8601)
        inputs.add(Markdown.version)
        inputs.list(entries.count)
        for event in entries {
            let project = event.project
            guard let files = site.projectKeys[project.slug] else { return nil }
            inputs.add(files)
            inputs.add(event.at.iso8601)
            var credited = [project.owner], text: String? = nil
            switch event.kind {
            case .started:
                inputs.add("started")
                text = project.starter
            case .submitted(let round, let s):
                inputs.add("submitted")
                inputs.add(round.number.value)
                inputs.add(s.id.rawValue)
                credited.append(s.author)
                text = s.body
            case .roundClosed(let round):
                inputs.add("closed")
                inputs.add(round.number.value)
                if let winner = round.winningSubmission {
                    credited.append(winner.author)
                    text = winner.body
                }
            case .completed:
                inputs.add("completed")
            }
            if let text, site.cache.needsRewriting(text) { return nil }
            inputs.list(credited.count)
            for handle in credited {
                inputs.add(handle.rawValue)
                inputs.add(site.names[handle])
            }
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

    /// What this reads must be in `inputs(_:entries:)`, or a rebuild keeps a stale feed.
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
