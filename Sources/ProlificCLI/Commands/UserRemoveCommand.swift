import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific user remove HANDLE`: the profile goes, the player's work stays.
struct UserRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a player: their profile goes, their snippets stay.",
        discussion: """
            Deletes users/HANDLE.md (and the picture 'user add --avatar' put beside it) and withdraws the \
            player's ballots in open rounds. Their snippets stay in the stories, attributed to "a former \
            contributor"; closed rounds keep their ballots, so every recorded tally still checks. The handle \
            is listed under 'former' in prolific.yml and can't be taken again.
            """)

    @Argument(help: "The player's handle.", transform: Parse.handle)
    var handle: Handle

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let removed = try game.removeUser(handle)
            let ballots = removed.withdrawn.count
            print(
                "Removed @\(handle)"
                    + (ballots == 0 ? "" : "; withdrew \(ballots) ballot\(ballots == 1 ? "" : "s") in open rounds") + ".")
            try commit.finish(game, message: "prolific: remove user @\(handle)")
        }
    }
}
