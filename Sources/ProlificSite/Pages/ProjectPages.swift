import ProlificCore

/// The values of the home page's project cards and of each project's page.
struct ProjectPages {
    let content: Content
    let now: Timestamp
    let html: (String) -> String

    func authorName(_ handle: Handle) -> String {
        content.users[handle]?.name ?? handle.rawValue
    }

    static func path(of project: Project) -> String { "projects/\(project.slug)/index.html" }

    func isComplete(_ project: Project) -> Bool {
        project.status == .complete || Closing.isComplete(project)
    }

    func roundsLabel(_ project: Project) -> String {
        if isComplete(project) { return Display.count(project.closedRounds.count, "round") }
        let current = project.openRound?.number.value ?? project.closedRounds.count
        return "round \(current) of \(project.roundLimit)"
    }

    func openRoundValues(_ project: Project) -> Any {
        guard let round = project.openRound, !isComplete(project) else { return false }
        let snippets = NeutralOrder.sorted(round.submissions, in: project.slug, round: round.number)
        return [
            "number": round.number.value,
            "closesISO": round.closes.iso8601,
            "closesDisplay": Display.time(round.closes),
            "timeLeft": Display.timeLeft(from: now, to: round.closes),
            "progressPercent": Int((Schedule.progress(of: round, now: now) * 100).rounded(.down)),
            "snippetsLabel": Display.count(round.submissions.count, "snippet"),
            "ballotsLabel": Display.count(round.ballots.count, "ballot"),
            "hasSnippets": !snippets.isEmpty,
            "snippets": snippets.map { s -> [String: Any] in
                [
                    "id": s.id.rawValue, "authorName": authorName(s.author), "authorHandle": s.author.rawValue,
                    "ending": s.ending, "html": html(s.body),
                ]
            },
        ] as [String: Any]
    }

    /// A project as a card on the home page.
    func card(_ project: Project) -> [String: Any] {
        [
            "url": Self.path(of: project),
            "title": project.title,
            "ownerName": authorName(project.owner),
            "roundsLabel": roundsLabel(project),
            "hasTags": !project.tags.isEmpty,
            "tags": project.tags,
            "excerptHTML": Self.firstParagraph(of: html(project.starter)),
            "openRound": openRoundValues(project),
        ]
    }

    /// The values of a project's own page.
    func page(_ project: Project) -> [String: Any] {
        let story = Story(project)
        let chapters = story.chapters.enumerated().map { index, chapter -> [String: Any] in
            let label = chapter.round.map { "Round \($0)" } ?? "Opening"
            return [
                "anchor": chapter.round.map { "round-\($0)" } ?? "opening",
                "roundURL": chapter.round.map { "rounds/\($0.folderName)/index.html" } ?? "",
                "label": label,
                "isStarter": chapter.round == nil,
                "credit": chapter.round == nil ? "Opening by" : "Written by",
                "authorName": authorName(chapter.author),
                "authorHandle": chapter.author.rawValue,
                "html": html(chapter.markdown),
            ]
        }
        return [
            "title": project.title,
            "slug": project.slug.rawValue,
            "statusLabel": isComplete(project) ? "Completed story" : "Story in progress",
            "isComplete": isComplete(project),
            "ownerName": authorName(project.owner),
            "createdISO": project.created.iso8601,
            "createdDisplay": Display.date(project.created),
            "roundsLabel": roundsLabel(project),
            "hasTags": !project.tags.isEmpty,
            "tags": project.tags,
            "chapters": chapters,
            "openRound": openRoundValues(project),
        ]
    }

    /// The first `<p>…</p>` of rendered HTML, for excerpts.
    static func firstParagraph(of html: String) -> String {
        guard let start = html.range(of: "<p>"), let end = html.range(of: "</p>", range: start.upperBound..<html.endIndex)
        else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }
}

extension String {
    fileprivate func range(of needle: String, range: Range<Index>? = nil) -> Range<Index>? {
        let scope = range ?? startIndex..<endIndex
        var i = scope.lowerBound
        while i < scope.upperBound {
            if self[i...].hasPrefix(needle) {
                let end = index(i, offsetBy: needle.count)
                return i..<end
            }
            i = index(after: i)
        }
        return nil
    }
}
