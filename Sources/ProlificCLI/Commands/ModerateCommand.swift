import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific moderate …`: hiding snippets and settling readers' reports.
struct ModerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderate", abstract: "Hide or unhide snippets, and dismiss readers' reports.",
        discussion: """
            A hidden snippet is not shown on the site, can't be voted for and can't win; round.md keeps \
            who hid it, when and why, and 'prolific status' lists it. Readers report snippets with files \
            in reports/; 'status' lists those not settled yet.
            """,
        subcommands: [HideCommand.self, UnhideCommand.self, DismissCommand.self])
}

/// `prolific moderate hide PROJECT ID --by NAME --reason TEXT`.
struct HideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide", abstract: "Hide a snippet: off the site, out of the vote and the tally.",
        discussion: "In a closed round only an alternate take can be hidden: a winner is part of the story.")

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Argument(help: "The snippet's id.", transform: Parse.snippet)
    var id: SubmissionID

    @Option(help: "Who hides it: your handle or name, kept with the entry.")
    var by: String

    @Option(help: "Why, in one line, kept with the entry and shown by 'status'.")
    var reason: String

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let round = try game.hide(id, in: project, by: by, reason: reason)
            print("Hid '\(id)' in round \(round.number) of '\(project)'.")
            try commit.finish(game, message: "prolific: hide \(id) in \(project)\n\n\(reason)")
        }
    }
}

/// `prolific moderate unhide PROJECT ID`.
struct UnhideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide", abstract: "Show a hidden snippet again.",
        discussion: "A snippet hidden before its round closed stays hidden: the recorded tally left it out.")

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Argument(help: "The snippet's id.", transform: Parse.snippet)
    var id: SubmissionID

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let round = try game.unhide(id, in: project)
            print("'\(id)' is shown again in round \(round.number) of '\(project)'.")
            try commit.finish(game, message: "prolific: unhide \(id) in \(project)")
        }
    }
}

/// `prolific moderate dismiss REPORT`.
struct DismissCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss", abstract: "Dismiss a reader's report that needs no action: its file is deleted.",
        discussion: "Hiding the snippet settles its reports without this; git keeps every report's history.")

    @Argument(help: "The report's id: its file name in reports/ without '.md'.", transform: Parse.report)
    var report: ReportID

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            try game.dismiss(report)
            print("Dismissed report '\(report)'.")
            try commit.finish(game, message: "prolific: dismiss report \(report)")
        }
    }
}

extension Parse {
    static func snippet(_ text: String) throws -> SubmissionID {
        guard let value = SubmissionID(text) else { throw ValidationError("'\(text)' is not a submission id: \(SubmissionID.rule)") }
        return value
    }

    static func report(_ text: String) throws -> ReportID {
        guard let value = ReportID(text) else { throw ValidationError("'\(text)' is not a report id: \(ReportID.rule)") }
        return value
    }
}
