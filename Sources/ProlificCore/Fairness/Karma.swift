/// A player's karma: points for taking part, computed from the content alone.
///
/// Only closed rounds count, so karma as of a moment never changes afterwards: a ballot replaced
/// in an open round, or a snippet still in play, can't move a past tally.
public struct Karma: Hashable, Sendable {
    /// Snippets submitted to rounds that have closed.
    public var snippets = 0
    /// Ballots cast in rounds that have closed.
    public var ballots = 0
    /// Rounds won.
    public var wins = 0
    /// Projects started.
    public var projects = 0

    public init(snippets: Int = 0, ballots: Int = 0, wins: Int = 0, projects: Int = 0) {
        self.snippets = snippets
        self.ballots = ballots
        self.wins = wins
        self.projects = projects
    }

    /// Points for each kind of engagement: writing counts more than voting, winning more still.
    public static let pointsPerSnippet = 2
    public static let pointsPerBallot = 1
    public static let pointsPerWin = 5
    public static let pointsPerProject = 3

    /// Adds another part's karma (of other rounds and projects) to this one.
    public static func += (karma: inout Karma, other: Karma) {
        karma.snippets += other.snippets
        karma.ballots += other.ballots
        karma.wins += other.wins
        karma.projects += other.projects
    }

    public var total: Int {
        snippets * Self.pointsPerSnippet + ballots * Self.pointsPerBallot + wins * Self.pointsPerWin
            + projects * Self.pointsPerProject
    }

    /// `12 (3 snippets, 2 ballots, 1 win)`.
    public var breakdown: String {
        var parts: [String] = []
        func add(_ n: Int, _ noun: String) { if n > 0 { parts.append("\(n) \(noun)\(n == 1 ? "" : "s")") } }
        add(snippets, "snippet")
        add(ballots, "ballot")
        add(wins, "win")
        add(projects, "project")
        return parts.isEmpty ? "0" : "\(total) (\(parts.joined(separator: ", ")))"
    }
}
