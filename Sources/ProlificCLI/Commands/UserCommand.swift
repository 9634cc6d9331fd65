import ArgumentParser
import Foundation
import ProlificCore
import ProlificStore

/// `prolific user …`: managing players.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage players.", subcommands: [UserAddCommand.self, UserShowCommand.self, UserRemoveCommand.self])
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

    @Option(
        help: ArgumentHelp(
            "A picture (PNG, JPEG, GIF, WebP or AVIF, at most 2 MiB), copied beside the profile.", valueName: "image"))
    var avatar: String? = nil

    @OptionGroup var commit: CommitOption
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            try commit.prepare(game)
            let bio = file == nil ? "" : try Terminal.readText(file: file, what: "bio")
            var picture: Game.AvatarImage? = nil
            if let avatar {
                let limit = ContentReader.maximumMediaSize
                let bytes = try Terminal.readFile(
                    avatar, option: "--avatar", limit: limit, tooBig: "images may be at most \(limit >> 20) MiB")
                picture = Game.AvatarImage(bytes: bytes, fileExtension: URL(fileURLWithPath: avatar).pathExtension)
            }
            let user = try game.addUser(handle, name: name, bio: bio, avatar: picture)
            print("Added @\(user.handle) (\(user.name)).")
            try commit.finish(game, message: "prolific: add user @\(user.handle)")
        }
    }
}

/// `prolific user show HANDLE`: a player's karma with its breakdown, and their badges.
struct UserShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a player's karma, with its breakdown, and their badges with progress.")

    @Argument(help: "The player's handle.", transform: Parse.handle)
    var handle: Handle

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var global: GlobalOptions

    struct Report: Encodable {
        var handle: String
        var name: String
        var joined: String
        var karma: Int
        var breakdown: [String: Int]
        var badges: [BadgeReport]
    }

    struct BadgeReport: Encodable {
        var id: String
        var name: String
        var count: Int
        var tier: String?
        var next: String?
        var nextAt: Int?
        var progress: Double
    }

    func run() throws {
        try Terminal.guarded {
            let reader = global.game.reader
            let content = try reader.loadValid()
            guard let user = content.users[handle] else { throw Diagnostics([.plain("unknown user '\(handle)'")]) }
            let standing = Standing(content: content, badges: content.config.badges)
            let counts = standing.counts(of: handle)
            let report = Report(
                handle: handle.rawValue, name: user.name, joined: user.joined.iso8601, karma: counts.karma.total,
                breakdown: [
                    "snippets": counts.karma.snippets, "ballots": counts.karma.ballots, "wins": counts.karma.wins,
                    "projects": counts.karma.projects,
                ],
                badges: standing.badges(of: handle).map {
                    BadgeReport(
                        id: $0.badge.id.rawValue, name: $0.badge.name, count: $0.count, tier: $0.tier?.name,
                        next: $0.next?.name, nextAt: $0.next?.threshold, progress: Tally.rounded($0.toNext))
                })
            if json {
                print(try Terminal.json(report))
                return
            }
            print("@\(handle) (\(user.name)), joined \(user.joined)")
            print("karma \(counts.karma.breakdown)")
            for badge in report.badges {
                let tier = badge.tier.map { "\($0)" } ?? "no tier yet"
                let next = badge.next.map { ", \(badge.count)/\(badge.nextAt ?? 0) to \($0)" } ?? ", top tier"
                print("  \(badge.name): \(tier) (\(badge.count)\(next))")
            }
        }
    }
}
