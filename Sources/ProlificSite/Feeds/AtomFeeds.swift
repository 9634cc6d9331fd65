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
    ///
    /// Its projects are named by their places in an array of the site's (`SiteModel.built` or
    /// `listed`, shared, not copied): 7,000 feeds on the large benchmark each holding copies of
    /// their projects retained every string and list of each, and released them again.
    struct Plan {
        var path: String
        var page: String
        var title: String
        var subtitle: String
        /// The site's array the feed's projects are in; events name projects by index into it.
        var projects: [Project]
        /// The indices in `projects` of those the feed draws on, ascending.
        var members: [Int]
        var shows: Shown
        /// Each of `projects`' files but its open round's ballots (`SiteModel.keysBesideBallots`),
        /// nil where it has no key or a text with images: worked out once for all feeds, where
        /// 7,000 feeds looked up two tables for each project they draw on.
        var keys: [String?]

        /// Which of its projects' events a feed shows.
        enum Shown {
            /// A project's feed: all of them.
            case all
            /// The site's: stories started, rounds closed and stories completed.
            case news
            /// A player's: the stories they started (indices in `projects`), their snippets and
            /// the rounds they won.
            case player(Handle, started: [Int])
        }
    }

    /// Every feed as a file to make, for the builder to make in batches on every core: each
    /// rendered or kept by its own inputs (`feed(_:memory:)`) or, where what it draws on is as
    /// the last build recorded (`FeedsKeys`), kept as it is once its file is found intact,
    /// without a plan or an input worked out. The site's feed records the keys for the next
    /// build.
    ///
    /// After a ballot or a player's profile edit no feed changes, and working out 7,000 feeds'
    /// plans and inputs to find so was 7 % of a large rebuild's `perf` samples. After a `close`
    /// or a merged pull request, one story's files change: its feed and, for a listed story, the
    /// site's and those of the players it credits are made by their own inputs, and the rest are
    /// kept (working out every feed's inputs was 7 % of a rebuild after a `close`).
    func files(memory: PageMemory?) -> [() -> OutputFile] {
        let parts = Parts(site: site)
        let keys = FeedsKeys(site: site, parts: parts, memory: memory)
        // The site's feed carries the keys, whether made or kept.
        func recording(_ make: @escaping () -> OutputFile) -> () -> OutputFile {
            {
                var file = make()
                file.alsoRecorded += keys.records
                return file
            }
        }
        guard let memory, let changed = keys.changed else {
            return plans(parts).map { plan in
                let make = { feed(plan, memory: memory) }
                return plan.path == SitePath.feed ? recording(make) : make
            }
        }
        // The players the changed stories credit, and whether the site's feed shows one of them.
        var credited: Set<Handle> = []
        var newsChanged = false
        for p in changed where site.isListed(site.built[p].slug) {
            newsChanged = true
            credited.formUnion(site.participants(of: site.built[p]))
        }
        // A feed with no story goes by its own inputs, the moment among them; one that draws on
        // a changed story too; any other is the last build's file while that is intact, else
        // made by its own inputs too.
        func kept(_ path: String, unless drawsOnAChange: Bool, else plan: @escaping () -> Plan) -> () -> OutputFile {
            drawsOnAChange
                ? { feed(plan(), memory: memory) }
                : { memory.keptAsRecorded(path) ?? feed(plan(), memory: memory) }
        }
        var files = site.built.indices.map { p in
            kept(SitePath.projectFeed(site.built[p].slug), unless: changed.contains(p)) { projectPlan(p, parts) }
        }
        files.append(recording(kept(SitePath.feed, unless: newsChanged || site.listed.isEmpty) { sitePlan(parts) }))
        let empty = Set(keys.emptyPlayers)
        files += site.users.indices.map { u in
            kept(SitePath.userFeed(site.users[u].handle), unless: empty.contains(u) || credited.contains(site.users[u].handle)) {
                playerPlan(site.users[u], parts)
            }
        }
        return files
    }

    /// What the plans share, worked out once: each project's key in the order of `site.built`
    /// and of `site.listed`, and the listed stories each player started.
    struct Parts {
        var builtKeys: [String?]
        var listedKeys: [String?]
        var started: [Handle: [Int]]

        init(site: SiteModel) {
            func keys(_ projects: [Project]) -> [String?] {
                projects.indices.map { site.withImages.contains(projects[$0].slug) ? nil : site.keysBesideBallots[projects[$0].slug] }
            }
            (builtKeys, listedKeys) = (keys(site.built), keys(site.listed))
            started = [:]
            let listed = site.listed
            for index in listed.indices { started[listed[index].owner, default: []].append(index) }
        }
    }

    /// Every feed, with the projects it draws on; `feed(_:memory:)` renders each (SiteBuilder
    /// does, in batches it writes as they come), working out its events only when it does.
    func plans() -> [Plan] { plans(Parts(site: site)) }

    private func plans(_ parts: Parts) -> [Plan] {
        var plans = site.built.indices.map { projectPlan($0, parts) }
        plans.append(sitePlan(parts))
        // On every core: 5,000 players' plans, their titles spelt out and their projects
        // sorted, kept one core busy while the other waited for the feeds.
        plans += Parallel.map(site.users, batch: 64) { playerPlan($0, parts) }
        return plans
    }

    /// The feed of the project at `p` in `site.built`.
    private func projectPlan(_ p: Int, _ parts: Parts) -> Plan {
        // Read in place: a copy of the project would retain all it holds.
        let slug = site.built[p].slug
        return Plan(
            path: SitePath.projectFeed(slug), page: SitePath.project(slug),
            title: "\(site.built[p].title) · \(site.config.title)",
            subtitle: "Snippets submitted, rounds closed and the story’s end.", projects: site.built, members: [p],
            shows: .all, keys: parts.builtKeys)
    }

    /// The site's feed.
    private func sitePlan(_ parts: Parts) -> Plan {
        Plan(
            path: SitePath.feed, page: SitePath.home, title: site.config.title,
            subtitle: "Stories started, rounds closed and stories completed.", projects: site.listed,
            members: Array(site.listed.indices), shows: .news, keys: parts.listedKeys)
    }

    /// A player's feed: their events are in the listed projects they started or wrote in.
    private func playerPlan(_ user: User, _ parts: Parts) -> Plan {
        let mine = parts.started[user.handle] ?? []
        // Two ascending lists merged, each project once: a set of them, grown a snippet at a
        // time and hashed, took most of the plans' time.
        var members: [Int] = []
        for project in (mine + site.projectsWritten(by: user.handle)).sorted() where project != members.last {
            members.append(project)
        }
        return Plan(
            path: SitePath.userFeed(user.handle), page: SitePath.user(user.handle),
            title: "\(user.name) · \(site.config.title)", subtitle: "Snippets, wins and stories by \(user.name).",
            projects: site.listed, members: members, shows: .player(user.handle, started: mine), keys: parts.listedKeys)
    }

    /// The events a feed shows. A player's are found from their snippets' places
    /// (`SiteModel.snippetsByAuthor`), not by going through every round of their projects.
    func events(_ plan: Plan) -> [SiteEvent] {
        let projects = plan.projects
        switch plan.shows {
        case .all: return plan.members.flatMap { SiteEvent.events(of: $0, in: projects, site: site) }
        case .news: return plan.members.flatMap { SiteEvent.events(of: $0, in: projects, site: site, snippets: false) }
        case .player(let handle, let started):
            var events = started.map { SiteEvent(kind: .started, project: $0, in: projects, at: projects[$0].created) }
            // Snippets' places index `SiteModel.listed`, the plan's `projects`.
            for place in site.snippetsByAuthor[handle] ?? [] {
                let (p, r, s) = (place.project, place.round, place.submission)
                events.append(
                    SiteEvent(
                        kind: .submitted(round: r, snippet: s), project: p, in: projects,
                        at: projects[p].rounds[r].submissions[s].submitted))
                if let closed = projects[p].rounds[r].closed,
                    projects[p].rounds[r].winner == projects[p].rounds[r].submissions[s].id
                {
                    events.append(SiteEvent(kind: .roundClosed(round: r), project: p, in: projects, at: closed))
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
        return events.indices.sorted { SiteEvent.newestFirst(events[$0], events[$1], in: plan.projects) }
            .prefix(Self.limit).map { events[$0] }
    }

    /// The feed, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact. Feeds use no template, so their fingerprint
    /// leaves the theme out: a theme's change leaves them as they are.
    func feed(_ plan: Plan, memory: PageMemory?) -> OutputFile {
        guard let inputs = inputs(plan) else { return feed(plan, entries: entries(plan)) }
        let fingerprint = PageFingerprint.of(template: "feed.xml", inputs: inputs, theme: [])
        if let kept = memory?.kept(plan.path, fingerprint) { return kept }
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
        inputs.add(site.config.title)
        inputs.add(site.config.baseURL)
        inputs.add(plan.path)
        inputs.add(plan.page)
        inputs.add(plan.title)
        inputs.add(plan.subtitle)
        inputs.add(Markdown.version)
        inputs.add(plan.members.isEmpty ? site.now.iso8601 : nil)
        var credited: Set<Handle> = []
        var creditedInOrder: [Handle]? = nil
        inputs.list(plan.members.count)
        // Read in place, by index: a copy of a project would retain all it holds.
        let projects = plan.projects
        for p in plan.members {
            guard let files = plan.keys[p] else { return nil }
            inputs.add(files)
            switch plan.shows {
            case .all where plan.members.count == 1:
                // A project's feed: its participants, found once for its page too, come sorted.
                creditedInOrder = site.participants(of: projects[p])
            case .all:
                credited.formUnion(site.participants(of: projects[p]))
            case .news:
                credited.insert(projects[p].owner)
                for r in projects[p].rounds.indices {
                    if let winner = projects[p].rounds[r].winnerAuthor { credited.insert(winner) }
                }
            case .player(let handle, _):
                // The player alone, however many stories: no set to hash them into.
                creditedInOrder = [handle]
            }
        }
        let names = creditedInOrder ?? credited.sorted()
        inputs.list(names.count)
        for handle in names {
            inputs.add(handle.rawValue)
            inputs.add(site.names[handle])
        }
        return inputs
    }

    func feed(_ plan: Plan, entries: [SiteEvent]) -> OutputFile {
        let updated = entries.first?.at ?? site.now
        // Written as bytes, straight into the file: each snippet's HTML is copied once.
        var xml: [UInt8] = []
        xml.reserveCapacity(1024 + entries.count * 2048)
        xml += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>".utf8
        XML.append(escaped: plan.title, to: &xml)
        xml += "</title>\n<subtitle>".utf8
        XML.append(escaped: plan.subtitle, to: &xml)
        xml += "</subtitle>\n<id>".utf8
        XML.append(escaped: absolute(plan.path), to: &xml)
        xml += "</id>\n<link rel=\"self\" type=\"application/atom+xml\" href=\"".utf8
        XML.append(escaped: absolute(plan.path), to: &xml)
        xml += "\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"".utf8
        XML.append(escaped: absolute(plan.page), to: &xml)
        xml += "\"/>\n<updated>\(updated.iso8601)</updated>\n<generator>Prolific</generator>\n".utf8
        for event in entries { entry(event, of: plan.projects, into: &xml) }
        xml += "</feed>\n".utf8
        return OutputFile(path: plan.path, contents: xml)
    }

    /// Appends the entry for `event` (of one of `projects`) to `xml`.
    /// What this reads must be in `inputs(_:)`, or a rebuild keeps a stale feed.
    func entry(_ event: SiteEvent, of projects: [Project], into xml: inout [UInt8]) {
        // Read in place: a copy of the project would retain every string and list it holds.
        let p = event.project
        let (slug, projectTitle, owner) = (projects[p].slug, projects[p].title, projects[p].owner)
        let projectURL = absolute(SitePath.project(slug))
        let title: String, link: String, id: String, author: Handle, html: String
        switch event.kind {
        case .started:
            title = "New story: \(projectTitle)"
            (link, id, author) = (projectURL, projectURL + "#started", owner)
            html = site.html(projects[p].starter, folder: Media.folder(of: slug), root: site.config.baseURL)
        case .submitted(let r, let s):
            let number = projects[p].rounds[r].number
            let writer = projects[p].rounds[r].submissions[s].author
            title = "\(site.name(writer)) wrote a snippet for round \(number.value) of \(projectTitle)"
            let page = projects[p].rounds[r].isOpen ? projectURL : absolute(SitePath.round(slug, number))
            let anchor = "#" + projects[p].rounds[r].submissions[s].id.rawValue
            (link, id, author) = (page + anchor, projectURL + anchor, writer)
            html = site.html(
                projects[p].rounds[r].submissions[s].body, folder: Media.folder(of: slug, round: number),
                root: site.config.baseURL)
        case .roundClosed(let r):
            let number = projects[p].rounds[r].number
            let winner = projects[p].rounds[r].winningSubmission
            title = winner.map { "Round \(number.value) of \(projectTitle): \(site.name($0.author)) won" }
                ?? "Round \(number.value) of \(projectTitle) closed"
            link = absolute(SitePath.round(slug, number))
            // An entry's id outlives the page's address: a closed round's is the address its page
            // had until round pages became files, so readers don't see the entry as new again.
            id = absolute(SitePath.roundsGroup(slug) + number.folderName + "/")
            author = winner?.author ?? owner
            html = winner.map {
                site.html($0.body, folder: Media.folder(of: slug, round: number), root: site.config.baseURL)
            } ?? "<p>The round closed without a winner.</p>"
        case .completed:
            title = "Completed: \(projectTitle)"
            (link, id, author) = (projectURL, projectURL + "#completed", owner)
            html = "<p>\(XML.escape(projectTitle)) is complete after \(Display.count(projects[p].closedRoundCount, "round")).</p>"
        }
        let at = event.at.iso8601
        xml += "<entry>\n<title>".utf8
        XML.append(escaped: title, to: &xml)
        xml += "</title>\n<link rel=\"alternate\" type=\"text/html\" href=\"".utf8
        XML.append(escaped: link, to: &xml)
        xml += "\"/>\n<id>".utf8
        XML.append(escaped: id, to: &xml)
        xml += "</id>\n<published>\(at)</published>\n<updated>\(at)</updated>\n<author><name>".utf8
        XML.append(escaped: site.name(author), to: &xml)
        xml += "</name>".utf8
        if site.hasPage(author) {
            xml += "<uri>".utf8
            XML.append(escaped: absolute(SitePath.user(author)), to: &xml)
            xml += "</uri>".utf8
        }
        xml += "</author>\n<content type=\"html\">".utf8
        XML.append(content: html, to: &xml)
        xml += "</content>\n</entry>\n".utf8
    }
}
