import ProlificCore

/// The upcoming round deadlines: every listed story's open round that closes after `now`.
struct Deadline {
    var project: Project
    var round: Round

    var closes: Timestamp { round.closes }

    static func upcoming(in site: SiteModel) -> [Deadline] {
        site.listed.compactMap { project -> Deadline? in
            guard !site.isComplete(project), let round = project.openRound, round.closes > site.now else { return nil }
            return Deadline(project: project, round: round)
        }.sorted { a, b in (a.closes, a.project.slug) < (b.closes, b.project.slug) }
    }
}
