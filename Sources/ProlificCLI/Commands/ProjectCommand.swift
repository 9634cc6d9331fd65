import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific project …`: starting stories.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Manage projects.", subcommands: [ProjectNewCommand.self])
}

/// `prolific project new SLUG --title TITLE --owner HANDLE`: a project with its starter text; opens round 1.
struct ProjectNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a project from its starter text and open round 1.")

    @Argument(help: "The project's slug: lower-case letters, digits and '-'.", transform: Parse.slug)
    var slug: Slug

    @Option(help: "The story's title.")
    var title: String

    @Option(help: "The handle of the player who starts it.", transform: Parse.handle)
    var owner: Handle

    @Option(help: "The most rounds the project runs (default: from prolific.yml).")
    var rounds: Int? = nil

    @Option(name: .customLong("round-length"), help: "How long each round lasts, like 7d or 36h (default: from prolific.yml).", transform: Parse.span)
    var roundLength: TimeSpan? = nil

    @Option(name: .customLong("tag"), help: "A tag; repeat for several.")
    var tags: [String] = []

    @Option(help: "A Markdown file with the starter text (default: standard input).")
    var file: String? = nil

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let starter = try Terminal.readText(file: file, what: "starter text")
            let project = try game.newProject(
                .init(
                    slug: slug, title: title, owner: owner, rounds: rounds, roundLength: roundLength, tags: tags,
                    starter: starter))
            if let round = project.openRound {
                print("Started '\(project.slug)'. Round \(round.number) is open until \(round.closes).")
            }
            try commit.finish(game, message: "prolific: start project \(project.slug)")
        }
    }
}
