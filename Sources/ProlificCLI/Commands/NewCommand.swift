import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific new …`: files for contributors who play by pull request.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a correctly named snippet or ballot file in a project's open round, to commit in a pull request.",
        subcommands: [NewSubmissionCommand.self, NewBallotCommand.self])
}

/// `prolific new submission PROJECT --author HANDLE`: the snippet file, with a placeholder to replace.
struct NewSubmissionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submission",
        abstract: "Write your snippet file in a project's open round and print its path.",
        discussion: """
            Without --file the snippet is a placeholder line to replace with your text: 'prolific check' \
            fails while it is there, so an unedited file can't be merged. The same rules as 'submit' apply: \
            the round must be open, and each author submits once per round.
            """)

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Option(help: "Your handle.", transform: Parse.handle)
    var author: Handle

    @Flag(help: "Propose this snippet as the story's ending: if it wins, the project is complete.")
    var ending = false

    @Option(help: "A Markdown file with the snippet ('-' for standard input; default: a placeholder to replace).")
    var file: String? = nil

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let body = try file.map { try Terminal.readText(file: $0, what: "snippet") }
            let submission = try game.newSubmission(to: project, by: author, ending: ending, body: body)
            print(submission.origin.path)
            if body == nil {
                Terminal.error("Replace the placeholder line with your snippet, then commit the file.")
            }
            try commit.finish(game, message: "prolific: new submission \(submission.id) to \(project)")
        }
    }
}

/// `prolific new ballot PROJECT --voter HANDLE ID...`: the ballot file, filled in.
struct NewBallotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ballot",
        abstract: "Write your ballot file in a project's open round and print its path.",
        discussion: """
            The same rules as 'vote' apply, but an existing ballot is never replaced: edit it instead. \
            Without ids, it writes nothing and lists the ids of the snippets you may approve, one a line.
            """)

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Option(help: "Your handle.", transform: Parse.handle)
    var voter: Handle

    @Argument(help: "The ids of the snippets you approve (none: list the ones you may approve).")
    var ids: [String] = []

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            if ids.isEmpty {
                // A question, not a change: the answer on standard output, what to do with it on standard error.
                let answer = try game.ballotChoices(in: project, for: voter)
                for id in answer.choices { print(id.rawValue) }
                if let existing = answer.existing {
                    Terminal.error(
                        "@\(voter) already has a ballot in round \(answer.round) of '\(project)': edit the 'for' list of \(existing).")
                } else {
                    Terminal.error(
                        "The snippets @\(voter) may approve in round \(answer.round) of '\(project)'; name one or more: "
                            + "prolific new ballot \(project) --voter \(voter) ID...")
                }
                return
            }
            try commit.prepare(game)
            let draft = try game.newBallot(in: project, by: voter, for: ids)
            print(draft.ballot.origin.path)
            try commit.finish(game, message: "prolific: new ballot of @\(voter) in round \(draft.round) of \(project)")
        }
    }
}
