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

    /// A project's events: started, each snippet, each closed round, completed. With
    /// `snippets: false`, all but snippets.
    static func events(of project: Project, site: SiteModel, snippets: Bool = true) -> [SiteEvent] {
        var events = [SiteEvent(kind: .started, project: project, at: project.created)]
        for round in project.rounds {
            if snippets {
                for s in round.submissions { events.append(SiteEvent(kind: .submitted(round, s), project: project, at: s.submitted)) }
            }
            if let closed = round.closed { events.append(SiteEvent(kind: .roundClosed(round), project: project, at: closed)) }
        }
        if site.isComplete(project) {
            events.append(SiteEvent(kind: .completed, project: project, at: site.finished(project)))
        }
        return events
    }
}
