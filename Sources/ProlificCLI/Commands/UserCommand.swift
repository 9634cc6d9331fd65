import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific user …`: managing players.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage players.", subcommands: [UserAddCommand.self])
}

/// `prolific user add HANDLE --name NAME`: a new profile, joined now.
struct UserAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a player.")

    @Argument(help: "The player's handle: lower-case letters, digits and '-'.", transform: Parse.handle)
    var handle: Handle

    @Option(help: "The player's display name.")
    var name: String

    @Option(help: "A Markdown file with the player's bio ('-' for standard input).")
    var file: String? = nil

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let bio = file == nil ? "" : try Terminal.readText(file: file, what: "bio")
            let user = try global.game.addUser(handle, name: name, bio: bio)
            print("Added @\(user.handle) (\(user.name)).")
        }
    }
}
