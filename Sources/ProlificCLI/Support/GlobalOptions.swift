import ArgumentParser
import Foundation
import ProlificCore
import ProlificStore

/// The options every command takes.
package struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The content directory.", valueName: "dir"))
    package var content: String = "Content"

    @Option(
        name: .long,
        help: ArgumentHelp("Act as if it were this moment (ISO 8601 UTC, like 2026-11-22T13:00:00Z).", valueName: "time"),
        transform: Parse.timestamp)
    package var now: Timestamp? = nil

    package init() {}

    /// `--now`, or the clock, read once so a command sees one consistent moment.
    var moment: Timestamp {
        now ?? Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    var game: Game { Game(content: content, now: moment) }
}

/// Turns argument text into validated values, with messages that say what was expected.
enum Parse {
    static func timestamp(_ text: String) throws -> Timestamp {
        guard let value = Timestamp(iso8601: text) else {
            throw ValidationError("'\(text)' is not \(Timestamp.rule)")
        }
        return value
    }

    static func handle(_ text: String) throws -> Handle {
        guard let value = Handle(text) else { throw ValidationError("'\(text)' is not a handle: \(Handle.rule)") }
        return value
    }

    static func slug(_ text: String) throws -> Slug {
        guard let value = Slug(text) else { throw ValidationError("'\(text)' is not a project slug: \(Slug.rule)") }
        return value
    }

    static func span(_ text: String) throws -> TimeSpan {
        guard let value = TimeSpan(text) else { throw ValidationError("'\(text)' is not \(TimeSpan.rule)") }
        return value
    }
}
