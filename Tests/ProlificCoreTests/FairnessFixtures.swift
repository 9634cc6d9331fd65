@testable import ProlificCore

/// Builders for the fair tally's tests: snippets with chosen text, histories with chosen karma.
extension Make {
    /// A snippet whose body is `body` rather than the default "Text by <author>.".
    static func snippet(
        _ author: String, at submitted: String, body: String, round: Int = 1, slug: String = "moon"
    ) -> Submission {
        var submission = submission(author, at: submitted, round: round, slug: slug)
        submission.body = body
        return submission
    }

    /// A history in which each handle has `projects` projects started: karma `3 × projects` and no habits.
    static func history(projects: [String: Int]) -> VotingHistory {
        var history = VotingHistory()
        for (name, count) in projects.sorted(by: { $0.key < $1.key }) {
            for _ in 0..<count { history.recordProject(owner: handle(name)) }
        }
        return history
    }

    /// A closed past round of project `slug` (a week long, the `index`-th from 2026-01-01) in which
    /// each of `authors` has one snippet and each voter in `votes` approves the snippets of the
    /// authors listed for them. For building histories.
    static func pastRound(
        _ index: Int, authors: [String], votes: [String: [String]], winner: String? = nil, slug: String = "past"
    ) -> Round {
        let opened = Timestamp(secondsSinceEpoch: time("2026-01-01T00:00:00Z").secondsSinceEpoch + Int64(index) * 7 * 86_400)
        func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSinceEpoch: opened.secondsSinceEpoch + seconds) }
        var ids: [String: SubmissionID] = [:]
        let submissions = authors.enumerated().map { k, author in
            let id = SubmissionID(author: handle(author), time: at(Int64(k + 1) * 60))
            ids[author] = id
            return Submission(
                id: id, author: handle(author), submitted: id.time, body: "Text by \(author) in round \(index).",
                origin: Origin(path: ""))
        }
        let ballots = votes.keys.sorted().map { voter in
            Ballot(voter: handle(voter), cast: at(3_600), choices: votes[voter]!.map { ids[$0]! }, origin: Origin(path: ""))
        }
        return Round(
            number: number(index + 1), opened: opened, closes: at(7 * 86_400), closed: at(7 * 86_400),
            winner: winner.map { ids[$0]! }, submissions: submissions, ballots: ballots,
            origin: Origin(path: "Content/projects/\(slug)/rounds/\(number(index + 1).folderName)/round.md"))
    }

    /// A history of `count` past rounds like `pastRound(_:authors:votes:)`.
    static func history(rounds count: Int, authors: [String], votes: [String: [String]]) -> VotingHistory {
        var history = VotingHistory()
        for index in 0..<count { history.record(pastRound(index, authors: authors, votes: votes)) }
        return history
    }

    /// `time` moved by `seconds`.
    static func time(_ text: String, plus seconds: Int64) -> Timestamp {
        Timestamp(secondsSinceEpoch: time(text).secondsSinceEpoch + seconds)
    }
}

/// Two doubles equal up to floating-point noise.
func nearly(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}
