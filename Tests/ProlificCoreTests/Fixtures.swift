@testable import ProlificCore

/// Builders for model values, so each test spells out only what it is about.
///
/// They force-unwrap literals that are valid by construction; a typo here fails every test loudly.
enum Make {
    static func time(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    static func handle(_ text: String) -> Handle { Handle(text)! }
    static func slug(_ text: String) -> Slug { Slug(text)! }
    static func span(_ text: String) -> TimeSpan { TimeSpan(text)! }
    static func number(_ value: Int) -> RoundNumber { RoundNumber(value)! }

    static func id(_ author: String, _ time: String) -> SubmissionID {
        SubmissionID(author: handle(author), time: Make.time(time))
    }

    static func user(
        _ name: String, joined: String = "2026-10-01T00:00:00Z", follows: User.Follows = User.Follows(),
        positions: Positions = [:]
    ) -> User {
        User(
            handle: handle(name), name: name.prefix(1).uppercased() + name.dropFirst(), joined: time(joined), follows: follows,
            origin: Origin(path: "Content/users/\(name).md", positions: positions))
    }

    static func users(_ names: String...) -> [Handle: User] {
        Dictionary(uniqueKeysWithValues: names.map { (handle($0), user($0)) })
    }

    static let submissionPositions: Positions = [
        "author": TextPosition(line: 2, column: 9), "submitted": TextPosition(line: 3, column: 12),
    ]

    static func submission(
        _ author: String, at submitted: String, ending: Bool = false, round: Int = 1, slug: String = "moon"
    ) -> Submission {
        let id = id(author, submitted)
        return Submission(
            id: id, author: handle(author), submitted: time(submitted), ending: ending, body: "Text by \(author).",
            origin: Origin(
                path: "Content/projects/\(slug)/rounds/\(number(round).folderName)/submissions/\(id).md",
                positions: submissionPositions))
    }

    static func ballot(
        _ voter: String, at cast: String, for choices: [SubmissionID], round: Int = 1, slug: String = "moon"
    ) -> Ballot {
        // As the file would be written: voter on line 1, cast on 2, for on 3, one item per line after.
        var positions: Positions = [
            "voter": TextPosition(line: 1, column: 8), "cast": TextPosition(line: 2, column: 7),
            "for": TextPosition(line: 4, column: 3),
        ]
        for i in choices.indices { positions["for.\(i)"] = TextPosition(line: 4 + i, column: 3) }
        return Ballot(
            voter: handle(voter), cast: time(cast), choices: choices,
            origin: Origin(
                path: "Content/projects/\(slug)/rounds/\(number(round).folderName)/votes/\(voter).yml",
                positions: positions))
    }

    static let roundPositions: Positions = [
        "opened": TextPosition(line: 2, column: 9), "closes": TextPosition(line: 3, column: 9),
        "closed": TextPosition(line: 4, column: 9), "winner": TextPosition(line: 5, column: 9),
        "tally": TextPosition(line: 7, column: 3),
    ]

    static func round(
        _ number: Int, opened: String, closes: String, closed: String? = nil,
        submissions: [Submission] = [], ballots: [Ballot] = [], slug: String = "moon"
    ) -> Round {
        Round(
            number: Make.number(number), opened: time(opened), closes: time(closes), closed: closed.map(time),
            submissions: submissions, ballots: ballots,
            origin: Origin(
                path: "Content/projects/\(slug)/rounds/\(Make.number(number).folderName)/round.md",
                positions: roundPositions))
    }

    /// A closed round whose winner and tally are what the count gives.
    static func closedRound(
        _ number: Int, opened: String, closes: String, closed: String,
        submissions: [Submission], ballots: [Ballot] = [], slug: String = "moon"
    ) -> Round {
        var round = round(
            number, opened: opened, closes: closes, closed: closed, submissions: submissions, ballots: ballots,
            slug: slug)
        let outcome = Tally.count(round)
        round.winner = outcome.winner
        round.tally = outcome.record
        return round
    }

    static let projectPositions: Positions = [
        "title": TextPosition(line: 2, column: 8), "owner": TextPosition(line: 3, column: 8),
        "status": TextPosition(line: 8, column: 9),
    ]

    static func project(
        _ slug: String = "moon", owner: String = "ann", created: String = "2026-11-01T00:00:00Z",
        roundLimit: Int = 3, roundLength: String = "7d", status: Project.Status = .open, rounds: [Round] = []
    ) -> Project {
        Project(
            slug: Make.slug(slug), title: "The story of \(slug)", owner: handle(owner), created: time(created),
            roundLimit: roundLimit, roundLength: span(roundLength), status: status, starter: "Once upon a time.",
            rounds: rounds,
            origin: Origin(path: "Content/projects/\(slug)/project.md", positions: projectPositions))
    }

    static func content(users: [User], projects: [Project]) -> Content {
        Content(
            config: Config.defaults(), users: Dictionary(uniqueKeysWithValues: users.map { ($0.handle, $0) }),
            projects: projects)
    }
}
