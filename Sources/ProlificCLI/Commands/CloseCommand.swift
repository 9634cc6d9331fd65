import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific close PROJECT` or `prolific close --due`: tallies rounds and moves the story on.
struct CloseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close",
        abstract: "Close a project's open round now, or every round whose deadline has passed.",
        discussion: """
            Closing tallies the ballots, records the winner and the tally in round.md, and opens the next round, \
            or marks the project complete when an ending won or its last round closed. With --due, a round whose \
            deadline passed without any submission is extended by its round length instead.
            """)

    @Argument(help: "The project whose open round to close now.", transform: Parse.slug)
    var project: Slug? = nil

    @Flag(help: "Close every round whose deadline has passed.")
    var due = false

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if due && project != nil { throw ValidationError("give either a PROJECT or --due, not both") }
        if !due && project == nil { throw ValidationError("name the PROJECT to close, or use --due") }
    }

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            if let project {
                let report = try game.close(project)
                print(Self.describe(report))
                try commit.finish(game, message: Self.commitMessage([report], now: game.now))
                return
            }
            let (reports, problems) = try game.closeDue()
            for report in reports { print(Self.describe(report)) }
            let nothingDue = reports.isEmpty && problems.isEmpty
            if nothingDue { print("No round is due at \(game.now).") }
            // What closed is committed even when another project failed to: it is done either way.
            // With nothing due, "nothing to commit" would only repeat it (a close completed after a
            // crash is still committed).
            try commit.finish(game, message: Self.commitMessage(reports, now: game.now), quietIfUnchanged: nothingDue)
            if !problems.isEmpty { throw Diagnostics(problems) }
        }
    }

    /// `prolific: close round 3 of moon (winner ann-…)`, one line per project when several closed.
    static func commitMessage(_ reports: [Game.CloseReport], now: Timestamp) -> String {
        let subjects = reports.map { report in
            switch report.outcome {
            case .extended(let round):
                "extend round \(round.number) of \(report.project.slug) to \(round.closes)"
            case .closed(let round, _):
                "close round \(round.number) of \(report.project.slug) (winner \(round.winner.map(\.rawValue) ?? "none"))"
            }
        }
        if subjects.count == 1, let subject = subjects.first { return "prolific: \(subject)" }
        let body = subjects.isEmpty ? "" : "\n\n" + subjects.map { "- \($0)" }.joined(separator: "\n")
        return "prolific: close due rounds at \(now)" + body
    }

    static func describe(_ report: Game.CloseReport) -> String {
        let slug = report.project.slug
        switch report.outcome {
        case .extended(let round):
            return "Extended round \(round.number) of '\(slug)' to \(round.closes): it had no submissions."
        case .closed(let round, let next):
            let score = round.tally?.scores.first?.score ?? 0
            var text = "Closed round \(round.number) of '\(slug)': '\(round.winner.map(\.rawValue) ?? "none")' wins with \(Tally.format(score)) "
            text += "from \(round.tally?.ballots ?? 0) ballot\(round.tally?.ballots == 1 ? "" : "s")."
            if let next {
                text += " Round \(next.number) is open until \(next.closes)."
            } else {
                text += " The story is complete."
            }
            return text
        }
    }
}
