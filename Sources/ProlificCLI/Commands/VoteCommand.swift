import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific vote PROJECT --voter HANDLE ID...`: records a ballot, replacing the voter's earlier one.
struct VoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote",
        abstract: "Record a player's ballot in a project's open round.",
        discussion: "A ballot approves one or more snippets; its weight is split equally among them. Voting again replaces the earlier ballot.")

    @Argument(help: "The project's slug.", transform: Parse.slug)
    var project: Slug

    @Option(help: "The voter's handle.", transform: Parse.handle)
    var voter: Handle

    @Argument(help: "The ids of the snippets the voter approves.")
    var ids: [String] = []

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one submission id to vote for") }
    }

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let receipt = try game.vote(in: project, by: voter, for: ids)
            let choices = receipt.ballot.choices.map(\.rawValue).joined(separator: ", ")
            print(
                "Recorded @\(voter)'s ballot in round \(receipt.round) of '\(project)' for \(choices)"
                    + (receipt.replaced ? " (replacing the earlier one)." : "."))
            try commit.finish(game, message: "prolific: vote of @\(voter) in round \(receipt.round) of \(project)")
        }
    }
}
