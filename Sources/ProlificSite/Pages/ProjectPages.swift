import Foundation
import ProlificCore

/// Each project's page (the story so far, or the finished story), and the project cards other
/// pages list.
struct ProjectPages {
    let site: SiteModel

    /// Every built project's page but those of the projects in `kept`, whose pages are kept
    /// as a group (`SiteBuilder.keptGroups`).
    func jobs(skipping kept: Set<Slug> = []) -> [PageJob] {
        site.built.compactMap { kept.contains($0.slug) ? nil : job($0) }
    }

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
    /// version, and the moment as far as the page shows it: the week (its activity chart), and
    /// the moment itself while a round is open (time left, progress) or activity falls in the
    /// week. nil without a key for the project's files, or when a text has images or `data:`
    /// links (their addresses depend on media files elsewhere).
    ///
    /// It holds what the project's closed rounds' pages are made of as well (their inputs, but
    /// the context each page has of its own: `RoundPages.inputs`), so that while this page's
    /// fingerprint stays the same a rebuild keeps those pages with it, without working out
    /// anything for them (`SiteBuilder.keptGroups`): the names of every player they may show and
    /// each round's replay. A rebuild after a ballot keeps 20,000 round pages of the large
    /// benchmark that way. This page is rendered again the rarer times only a round page changed.
    func inputs(_ project: Project) -> PageInputs? {
        guard let files = site.projectKeys[project.slug], let besideBallots = site.keysBesideBallots[project.slug],
            !site.hasImages(project)
        else { return nil }
        var inputs = PageInputs()
        inputs.add(files)
        inputs.add(besideBallots)
        inputs.add(Markdown.version)
        // The players it may show, with their names, round by round in the project's order
        // (a name twice costs less than a set and a sort), with each closed round's replay.
        inputs.add(project.owner.rawValue)
        inputs.add(site.names[project.owner])
        let rounds = RoundPages(site: site)
        inputs.list(project.rounds.count)
        for r in project.rounds.indices {
            inputs.add(project.rounds[r].number.value)
            inputs.add(project.rounds[r].isOpen)
            if project.rounds[r].isOpen {
                inputs.list(project.rounds[r].submissions.count)
                for s in project.rounds[r].submissions.indices {
                    let author = project.rounds[r].submissions[s].author
                    inputs.add(author.rawValue)
                    inputs.add(site.names[author])
                }
            } else {
                rounds.addReplay(of: project.rounds[r], in: project, to: &inputs)
                rounds.addShownPlayers(of: project.rounds[r], in: project, to: &inputs)
            }
        }
        inputs.list(project.tags.count)
        for tag in project.tags { inputs.add(site.listedTagKeys.contains(TagPages.key(tag))) }
        let week = ActivityChart.weekStart(site.now)
        inputs.add(Int(week))
        let isOpen = project.openRound != nil && !site.isComplete(project)
        let activeThisWeek = project.rounds.contains { round in
            round.submissions.contains { $0.submitted.secondsSinceEpoch >= week }
                || round.ballots.contains { $0.cast.secondsSinceEpoch >= week }
        }
        inputs.add(isOpen || activeThisWeek ? site.now.iso8601 : nil)
        return inputs
    }

    func roundsLabel(_ project: Project) -> String {
        if site.isComplete(project) { return Display.count(project.closedRounds.count, "round") }
        let current = project.openRound?.number.value ?? project.closedRounds.count
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
        values["progressPercent"] = Int((Schedule.progress(of: round, now: site.now) * 100).rounded(.down))
        values["ballotsLabel"] = Display.count(round.ballots.count, "ballot")
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
