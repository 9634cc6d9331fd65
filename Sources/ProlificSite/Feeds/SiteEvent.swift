import ProlificCore

/// Something that happened on the site: an entry of the Atom feeds.
///
/// It names its project, round and snippet by their places, not by copies of them: a feed sorts
/// every event of its projects to keep the newest 20, and copying a project or a round for each
/// one retained all their strings and lists, tens of thousands of times per build.
struct SiteEvent {
    enum Kind {
        /// `round` indexes the project's `rounds`, `snippet` that round's `submissions`.
        case started, roundClosed(round: Int), completed, submitted(round: Int, snippet: Int)
    }

    var kind: Kind
    /// The index of its project in the feed's `projects` (`AtomFeeds.Plan`).
    var project: Int
    var at: Timestamp
    /// Orders a project's events that share a moment: started, then round by round its
    /// snippets and its close, then completed.
    var rank: Int

    init(kind: Kind, project: Int, in projects: [Project], at: Timestamp) {
        self.kind = kind
        self.project = project
        self.at = at
        rank =
            switch kind {
            case .started: 0
            case .submitted(let round, _): 1 + projects[project].rounds[round].number.value * 3
            case .roundClosed(let round): 2 + projects[project].rounds[round].number.value * 3
            case .completed: Int.max
            }
    }

    /// Newest first; ties in a fixed order so feeds are deterministic.
    static func newestFirst(_ a: SiteEvent, _ b: SiteEvent, in projects: [Project]) -> Bool {
        if a.at != b.at { return a.at > b.at }
        if a.project != b.project, projects[a.project].slug != projects[b.project].slug {
            return projects[a.project].slug < projects[b.project].slug
        }
        return a.rank > b.rank
    }

    /// The events of `projects[index]`: started, each snippet, each closed round, completed.
    /// With `snippets: false`, all but snippets.
    static func events(of index: Int, in projects: [Project], site: SiteModel, snippets: Bool = true) -> [SiteEvent] {
        let project = projects[index]
        var events = [SiteEvent(kind: .started, project: index, in: projects, at: project.created)]
        for r in project.rounds.indices {
            if snippets {
                for s in project.rounds[r].submissions.indices {
                    events.append(
                        SiteEvent(
                            kind: .submitted(round: r, snippet: s), project: index, in: projects,
                            at: project.rounds[r].submissions[s].submitted))
                }
            }
            if let closed = project.rounds[r].closed {
                events.append(SiteEvent(kind: .roundClosed(round: r), project: index, in: projects, at: closed))
            }
        }
        if site.isComplete(project) {
            events.append(SiteEvent(kind: .completed, project: index, in: projects, at: SiteModel.finished(project)))
        }
        return events
    }
}
