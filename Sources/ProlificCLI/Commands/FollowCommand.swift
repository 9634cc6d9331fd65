import ArgumentParser
import ProlificCore
import ProlificStore

/// What `follow` and `unfollow` act on: exactly one of `--project` or `--user`.
struct FollowTargetOptions: ParsableArguments {
    @Argument(help: "The handle of the player whose profile changes.", transform: Parse.handle)
    var handle: Handle

    @Option(help: "A project to follow, by its slug.", transform: Parse.slug)
    var project: Slug? = nil

    @Option(help: ArgumentHelp("A player to follow, by their handle.", valueName: "handle"), transform: Parse.handle)
    var user: Handle? = nil

    func validate() throws {
        if project != nil && user != nil { throw ValidationError("give either --project or --user, not both") }
        if project == nil && user == nil { throw ValidationError("name what to follow: --project SLUG or --user HANDLE") }
    }

    var target: Following.Target {
        if let project { return .project(project) }
        return .user(user ?? handle)
    }
}

/// `prolific follow HANDLE --project SLUG | --user HANDLE`: adds a favourite to a profile.
struct FollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Add a project or a player to the follows of a player's profile.")

    @OptionGroup var options: FollowTargetOptions
    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let receipt = try game.follow(options.target, by: options.handle)
            print(
                receipt.changed
                    ? "@\(options.handle) now follows \(options.target)."
                    : "@\(options.handle) already follows \(options.target); nothing changed.")
            try commit.finish(game, message: "prolific: @\(options.handle) follows \(options.target)")
        }
    }
}

/// `prolific unfollow HANDLE --project SLUG | --user HANDLE`: removes a favourite from a profile.
struct UnfollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfollow", abstract: "Remove a project or a player from the follows of a player's profile.")

    @OptionGroup var options: FollowTargetOptions
    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let receipt = try game.unfollow(options.target, by: options.handle)
            print(
                receipt.changed
                    ? "@\(options.handle) no longer follows \(options.target)."
                    : "@\(options.handle) does not follow \(options.target); nothing changed.")
            try commit.finish(game, message: "prolific: @\(options.handle) unfollows \(options.target)")
        }
    }
}
