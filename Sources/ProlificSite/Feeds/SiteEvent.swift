import ProlificCore

/// Something that happened on the site: an entry of the Atom feeds.
struct SiteEvent {
    enum Kind {
        case started, roundClosed(Round), completed, submitted(Round, Submission)
    }

    var kind: Kind
    var project: Project
    var at: Timestamp

    /// Newest first; ties in a fixed order so feeds are deterministic.
    static func newestFirst(_ a: SiteEvent, _ b: SiteEvent) -> Bool {
        if a.at != b.at { return a.at > b.at }
        if a.project.slug != b.project.slug { return a.project.slug < b.project.slug }
        return a.rank > b.rank
    }

    private var rank: Int {
        switch kind {
        case .started: 0
        case .submitted(let round, _): 1 + round.number.value * 3
        case .roundClosed(let round): 2 + round.number.value * 3
        case .completed: Int.max
        }
    }

    /// Whose feed the event belongs in, besides the site's and the project's.
    var player: Handle? {
        switch kind {
        case .started: project.owner
        case .submitted(_, let s): s.author
        case .roundClosed(let round): round.winningSubmission?.author
        case .completed: nil
        }
    }

    var isSnippet: Bool {
        if case .submitted = kind { return true }
        return false
    }

    /// A project's events: started, each snippet, each closed round, completed.
    static func events(of project: Project, site: SiteModel) -> [SiteEvent] {
        var events = [SiteEvent(kind: .started, project: project, at: project.created)]
        for round in project.rounds {
            for s in round.submissions { events.append(SiteEvent(kind: .submitted(round, s), project: project, at: s.submitted)) }
            if let closed = round.closed { events.append(SiteEvent(kind: .roundClosed(round), project: project, at: closed)) }
        }
        if site.isComplete(project) {
            events.append(SiteEvent(kind: .completed, project: project, at: site.finished(project)))
        }
        return events
    }
}
