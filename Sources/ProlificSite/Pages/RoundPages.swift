import ProlificCore

/// The values of a closed round's page: its winner, every other snippet as an alternate take,
/// and the tally with every vote's weight explained.
struct RoundPages {
    let pages: ProjectPages

    static func path(of project: Project, _ number: RoundNumber) -> String {
        "projects/\(project.slug)/rounds/\(number.folderName)/index.html"
    }

    func page(_ round: Round, of project: Project, replayed: TallyTimeline.Replayed?) -> [String: Any] {
        let scores = round.tally?.scores ?? []
        let order = scores.map(\.id)
        let ranked = round.submissions.sorted { a, b in
            (order.firstIndex(of: a.id) ?? Int.max, a.id) < (order.firstIndex(of: b.id) ?? Int.max, b.id)
        }
        func snippet(_ s: Submission) -> [String: Any] {
            [
                "id": s.id.rawValue, "authorName": pages.authorName(s.author), "authorHandle": s.author.rawValue,
                "ending": s.ending, "html": pages.html(s.body),
            ]
        }
        let winner: Any = round.winningSubmission.map(snippet) ?? false
        let alternates = ranked.filter { $0.id != round.winner }.map(snippet)
        let votes = (replayed?.explained?.ballots ?? []).map { ballot -> [String: Any] in
            ["voter": ballot.voter.rawValue, "explanation": ballot.explanation]
        }
        let method = round.tally?.method ?? FairTally.method
        let closed = round.closed ?? round.closes
        return [
            "projectTitle": project.title,
            "projectURL": "../../index.html",
            "number": round.number.value,
            "closedISO": closed.iso8601,
            "closedDisplay": Display.time(closed),
            "snippetsLabel": Display.count(round.submissions.count, "snippet"),
            "ballotsLabel": Display.count(round.tally?.ballots ?? round.ballots.count, "counted ballot"),
            "winner": winner,
            "hasAlternates": !alternates.isEmpty,
            "alternates": alternates,
            "methodNote": method == Tally.method
                ? "Counted plainly (\(method)): every ballot weighs 1, split equally over the snippets it names."
                : "Counted with the fair tally (\(method)): each vote weighs by its voter's karma and account age, split over the snippets it names, and damped for habits and groups that back each other.",
            "scores": scores.map { score -> [String: Any] in
                [
                    "id": score.id.rawValue, "authorName": pages.authorName(score.id.author),
                    "score": Tally.format(score.score), "isWinner": score.id == round.winner,
                ]
            },
            "hasVotes": !votes.isEmpty,
            "votes": votes,
        ]
    }
}
