import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific audit PROJECT [--round N]`: every vote's weight with its reasons, one line each.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Explain a round's tally: every vote's weight and the reasons for it.",
        discussion: "For an open round, shows the tally as if the round closed now (--now).")

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Option(help: "The round to explain (default: the latest).")
    var round: Int? = nil

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var global: GlobalOptions

    struct Report: Encodable {
        var project: String
        var round: Int
        var method: String
        var preview: Bool
        var cutoff: String
        var winner: String?
        var scores: [Score]
        var votes: [Vote]
    }

    struct Score: Encodable {
        var id: String
        var score: Double
    }

    struct Vote: Encodable {
        var voter: String
        var karma: Int
        var ageDays: Double
        var base: Double
        var factors: [Factor]
        var weight: Double
        var shares: [Share]
        var explanation: String
    }

    struct Factor: Encodable {
        var value: Double
        var reason: String
    }

    struct Share: Encodable {
        var id: String
        var weight: Double
        var habit: Double
        var backs: Int
        var chances: Int
        var expected: Double
        var mutual: Bool
    }

    func validate() throws {
        if let round, RoundNumber(round) == nil { throw ValidationError("--round must be from 1 to \(RoundNumber.maximum)") }
    }

    func run() throws {
        try Terminal.guarded {
            let audit = try global.game.audit(project, round: round.flatMap { RoundNumber($0) })
            let report = Report(
                project: audit.project.slug.rawValue, round: audit.round.number.value,
                method: audit.round.tally?.method ?? FairTally.method, preview: audit.isPreview,
                cutoff: audit.cutoff.iso8601, winner: audit.outcome.winner?.rawValue,
                scores: audit.outcome.record.scores.map { Score(id: $0.id.rawValue, score: $0.score) },
                votes: audit.outcome.ballots.map { b in
                    Vote(
                        voter: b.voter.rawValue, karma: b.karma.total, ageDays: Tally.rounded(b.ageDays),
                        base: Tally.rounded(b.base), factors: b.factors.map { Factor(value: Tally.rounded($0.value), reason: $0.reason) },
                        weight: Tally.rounded(b.weight),
                        shares: b.shares.map {
                            Share(
                                id: $0.id.rawValue, weight: Tally.rounded($0.weight), habit: Tally.rounded($0.habit),
                                backs: $0.record.backs, chances: $0.record.chances,
                                expected: Tally.rounded($0.record.expected), mutual: $0.mutual)
                        }, explanation: b.explanation)
                })
            if json {
                print(try Terminal.json(report))
                return
            }
            if !audit.isFair {
                print("Round \(report.round) of '\(report.project)' was decided by the plain count (\(Tally.method)): every ballot weighs 1, split over its snippets. The fair tally would weigh it as follows.")
            }
            let when = audit.isPreview ? "open; as if it closed at \(report.cutoff)" : "tallied at \(report.cutoff)"
            print("Round \(report.round) of '\(report.project)' (\(when)), \(report.votes.count) counted ballot\(report.votes.count == 1 ? "" : "s"):")
            for (rank, score) in report.scores.enumerated() {
                let mark = score.id == report.winner ? (audit.isPreview ? "  leading" : "  winner") : ""
                print("  \(rank + 1). \(score.id)  \(Tally.format(score.score))\(mark)")
            }
            if !report.votes.isEmpty { print("") }
            for vote in report.votes { print("@\(vote.voter): \(vote.explanation)") }
        }
    }
}
