import Foundation
import ProlificCore

/// Each project's page (the story so far, or the finished story), and the project cards other
/// pages list.
struct ProjectPages {
    let site: SiteModel

    /// Every built project's page, each recording the key of its round pages
    /// (`SiteBuilder.keptGroups`) when it has one.
    func jobs(recordingRoundGroups groups: [Slug: [OutputFile.Record]]) -> [PageJob] {
        site.built.map { project in
            var job = job(project)
            job.alsoRecorded = groups[project.slug] ?? []
            return job
        }
    }

    /// The page of `project`, the story so far or the finished story.
    func job(_ project: Project) -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.project(project.slug), title: project.title,
            description: "\(project.title), a story written together on \(site.config.title).",
            noindex: project.visibility != .listed, section: .stories)
        return PageJob("project", context, inputs: { inputs(project) }) { page(project) }
    }

    /// What `page(_:)` is a function of, apart from the page's context and the binary: the
    /// project's files (`SiteModel.projectKeys`), the name of every player it may show (its
    /// owner and authors) or their having none, which of its tags have a page, libcmark's
    /// version, and the moment as far as the page shows it: the week and what of it has passed
    /// (its activity chart), and an open round's time left and progress. nil without a key for
    /// the project's files, or when a text has images or `data:` links (their addresses depend
    /// on media files elsewhere).
    func inputs(_ project: Project) -> PageInputs? {
        guard let files = site.projectKeys[project.slug], !site.hasImages(project) else { return nil }
        var inputs = PageInputs()
        inputs.add(files)
        inputs.add(Markdown.version)
        let shown = site.participants(of: project)
        inputs.list(shown.count)
        for handle in shown {
            inputs.add(handle.rawValue)
            inputs.add(site.names[handle])
        }
        TagPages(site: site).addLinkInputs(project.tags, to: &inputs)
        // The moment, as far as the page shows it: the week, and how many of its snippets and
        // ballots came before the moment (the activity chart counts those), and an open round's
        // time left and progress as shown. With the moment itself, every open story's page was
        // made again at every build run by the clock.
        inputs.add(Int(ActivityChart.weekStart(site.now)))
        let thisWeek = ActivityChart.thisWeek(of: project, until: site.now)
        inputs.add(thisWeek.snippets)
        inputs.add(thisWeek.ballots)
        if let round = project.openRound, !site.isComplete(project) {
            inputs.add(Display.timeLeft(from: site.now, to: round.closes))
            inputs.add(progressPercent(of: round))
        } else {
            inputs.add(nil as String?)
        }
        return inputs
    }

    /// How much of an open round has passed, in whole percent, as its project's page shows it.
    func progressPercent(of round: Round) -> Int {
        Int((Schedule.progress(of: round, now: site.now) * 100).rounded(.down))
    }

    func roundsLabel(_ project: Project) -> String {
        if site.isComplete(project) { return Display.count(project.closedRoundCount, "round") }
        let current = project.openRound?.number.value ?? project.closedRoundCount
        return "round \(current) of \(project.roundLimit)"
    }

    /// A snippet as shown on the page at `path`.
    func snippet(_ s: Submission, of project: Project, in round: RoundNumber, on path: String) -> [String: Any] {
        [
            "id": s.id.rawValue, "authorName": site.name(s.author), "authorHandle": s.author.rawValue,
            "authorURL": site.userURL(s.author), "hasAuthorPage": site.hasPage(s.author), "ending": s.ending,
            "html": site.html(s.body, folder: Media.folder(of: project.slug, round: round), root: SitePath.root(of: path)),
        ]
    }

    /// The open round on its project's page: a card's values, with the time left, how much of
    /// the round has passed, the ballots and the snippets.
    func openRoundValues(_ project: Project) -> Any {
        guard let round = project.openRound, var values = cardRoundValues(project) else { return false }
        let snippets = NeutralOrder.sorted(round.submissions, in: project.slug, round: round.number)
        values["timeLeft"] = Display.timeLeft(from: site.now, to: round.closes)
        values["progressPercent"] = progressPercent(of: round)
        values["ballotsLabel"] = Display.count(round.ballotList.count, "ballot")
        values["hasSnippets"] = !snippets.isEmpty
        values["snippets"] = snippets.map { snippet($0, of: project, in: round.number, on: SitePath.project(project.slug)) }
        return values
    }

    /// A project as a card in a list.
    func card(_ project: Project) -> [String: Any] {
        [
            "url": SitePath.project(project.slug),
            "title": project.title,
            "ownerName": site.name(project.owner),
            "roundsLabel": roundsLabel(project),
            "hasTags": !project.tags.isEmpty,
            "tags": TagPages(site: site).links(project.tags),
            "excerptHTML": Self.firstParagraph(of: excerpt(project)),
            "openRound": cardRoundValues(project) ?? false,
        ]
    }

    /// Adds what `card(_:)` is a function of, apart from the binary: the project's slug and its
    /// files but its open round's ballots (`SiteModel.keysBesideBallots`: its title, tags,
    /// starter, status, rounds and snippets), its owner's name or their having none, and which
    /// of its tags have a page. libcmark's version is the caller's to add. False when the
    /// project has no key: the card can't be told by its inputs.
    func addCardInputs(_ project: Project, to inputs: inout PageInputs) -> Bool {
        guard let files = site.keysBesideBallots[project.slug] else { return false }
        inputs.add(project.slug.rawValue)
        inputs.add(files)
        inputs.add(site.names[project.owner])
        TagPages(site: site).addLinkInputs(project.tags, to: &inputs)
        return true
    }

    /// What a page of cards is a function of, apart from its context and the binary: each
    /// card's inputs (`addCardInputs`), where it is among the list's pages, and libcmark's
    /// version; nil when a project has no key.
    func cardsInputs(_ page: Pagination<Project>) -> PageInputs? {
        var inputs = PageInputs()
        inputs.add(Markdown.version)
        inputs.add(page.number)
        inputs.add(page.count)
        inputs.list(page.items.count)
        for project in page.items {
            guard addCardInputs(project, to: &inputs) else { return nil }
        }
        return inputs
    }

    /// A card's starter text as HTML: images dropped, leaving their alt text. Without images,
    /// the rendering every page shares (`SiteModel.html`).
    func excerpt(_ project: Project) -> String {
        site.cache.needsRewriting(project.starter) ? Markdown.html(project.starter) { _ in .text } : site.html(project.starter)
    }

    /// A card's open round: its number, deadline and snippet count. Not the time left or the
    /// ballots, so that a list of stories changes when a story does, not with the clock or with
    /// every ballot, and not the snippets, which no card shows.
    func cardRoundValues(_ project: Project) -> [String: Any]? {
        guard let round = project.openRound, !site.isComplete(project) else { return nil }
        return [
            "number": round.number.value,
            "closesISO": round.closes.iso8601,
            "closesDisplay": Display.time(round.closes),
            "snippetsLabel": Display.count(round.submissions.count, "snippet"),
        ]
    }

    /// The values of a project's own page. What this reads must be in `inputs(_:)`, or a
    /// rebuild keeps a stale page.
    func page(_ project: Project) -> [String: Any] {
        let story = Story(project)
        let complete = site.isComplete(project)
        let chapters = story.chapters.enumerated().map { index, chapter -> [String: Any] in
            let label = chapter.round.map { complete ? "Chapter \($0.value)" : "Round \($0.value)" } ?? "Opening"
            return [
                "anchor": chapter.round.map { "round-\($0)" } ?? "opening",
                "roundURL": chapter.round.map { SitePath.round(project.slug, $0) } ?? "",
                "label": label,
                "isStarter": chapter.round == nil,
                "credit": chapter.round == nil ? "Opening by" : "Written by",
                "authorName": site.name(chapter.author),
                "authorHandle": chapter.author.rawValue,
                "authorURL": site.userURL(chapter.author),
                "hasAuthorPage": site.hasPage(chapter.author),
                "html": site.html(
                    chapter.markdown,
                    folder: chapter.round.map { Media.folder(of: project.slug, round: $0) } ?? Media.folder(of: project.slug),
                    root: SitePath.root(of: SitePath.project(project.slug))),
            ]
        }
        var credited: [Handle] = []
        for chapter in story.chapters where !credited.contains(chapter.author) { credited.append(chapter.author) }
        let closed = project.closedRounds.reversed().map { round -> [String: Any] in
            [
                "number": round.number.value, "url": SitePath.round(project.slug, round.number),
                "winnerName": round.winningSubmission.map { site.name($0.author) } ?? "no winner",
                "snippetsLabel": Display.count(round.submissions.count, "snippet"),
            ]
        }
        return [
            "title": project.title,
            "slug": project.slug.rawValue,
            "statusLabel": complete ? "Completed story" : "Story in progress",
            "isComplete": complete,
            "ownerName": site.name(project.owner),
            "ownerURL": site.userURL(project.owner),
            "hasOwnerPage": site.hasPage(project.owner),
            "createdISO": project.created.iso8601,
            "createdDisplay": Display.date(project.created),
            "roundsLabel": roundsLabel(project),
            "hasTags": !project.tags.isEmpty,
            "tags": TagPages(site: site).links(project.tags),
            "chapters": chapters,
            "hasEpub": complete,
            "epubURL": SitePath.epub(project),
            "contributors": credited.map {
                ["name": site.name($0), "handle": $0.rawValue, "url": site.userURL($0), "hasPage": site.hasPage($0)]
            },
            "hasClosedRounds": !closed.isEmpty,
            "closedRounds": closed,
            "feedURL": SitePath.projectFeed(project.slug),
            "activitySVG": ActivityChart.of([project], until: site.now, id: "activity").svg,
            "topContributors": LeaderboardPages.topContributors(of: project, site: site),
            "hasTopContributors": project.rounds.contains { !$0.submissions.isEmpty },
            "openRound": openRoundValues(project),
        ]
    }

    /// The first `<p>…</p>` of rendered HTML, for excerpts. Searched as bytes (`strstr`; cmark
    /// writes no NUL): every project card on the home, tag and player pages asks, and a generic
    /// `firstRange(of:)` on `String` took most of a card's time.
    static func firstParagraph(of html: String) -> String {
        html.withCString { text in
            guard let open = strstr(text, "<p>"), let close = strstr(open + 3, "</p>") else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: open, count: close + 4 - open), as: UTF8.self)
        }
    }
}
