import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific submit PROJECT --author HANDLE`: records a snippet in the open round, prints its id.
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Record a snippet in a project's open round and print its id.")

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Option(help: "The author's handle.", transform: Parse.handle)
    var author: Handle

    @Flag(help: "Propose this snippet as the story's ending: if it wins, the project is complete.")
    var ending = false

    @Option(help: "A Markdown file with the snippet (default: standard input).")
    var file: String? = nil

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let body = try Terminal.readText(file: file, what: "snippet")
            let submission = try game.submit(to: project, by: author, ending: ending, body: body)
            print(submission.id)
            try commit.finish(game, message: "prolific: submit \(submission.id) to \(project)")
        }
    }
}
