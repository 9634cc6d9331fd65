import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command line with a bad argument, and what the error must say (nil: it must succeed).
struct BadArgument: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var saying: String?
    var input = ""
    /// Whether `--content Content --now …` are added.
    var withDefaults = true
    var prepare: @Sendable (HostileCase.Folder) throws -> Void = { _ in }

    var testDescription: String { name }
}

extension BadArgument {
    /// Handles, slugs and ids no command may take: traversal, absolute paths, look-alike and
    /// fullwidth letters, bidirectional overrides, invisible characters, case, length, nothing.
    static let names: [(name: String, value: String)] = [
        ("'..'", ".."), ("a traversal", "../../etc/passwd"), ("an absolute path", "/etc/passwd"), ("a slash", "a/b"),
        ("empty", ""), ("capitals", "Ann"), ("a Cyrillic look-alike", "\u{0430}nn"),
        ("fullwidth letters", "\u{FF41}\u{FF4E}\u{FF4E}"),
        ("a right-to-left override", "ann\u{202E}"), ("a zero-width space", "an\u{200B}n"), ("a combining accent", "ann\u{0301}"),
        ("a line break", "ann\nbo"), ("a leading dash (taken for an option)", "-ann"),
        ("10000 characters", String(repeating: "a", count: 10_000)),
        ("a space", "ann bo"), ("a dot", "ann.md"),
    ]

    static let all: [BadArgument] = identifiers + times + spans + numbers + texts + folders + files

    /// Each bad name in each place a handle, a slug or an id goes; in the fast run, each name in
    /// three of those places, different ones from name to name.
    static let identifiers: [BadArgument] = names.enumerated().flatMap { index, entry -> [BadArgument] in
        let places = places(entry.name, entry.value)
        guard !HostileGame.stress else { return places }
        return (0..<3).map { places[(index * 3 + $0) % places.count] }
    }

    static func places(_ name: String, _ value: String) -> [BadArgument] {
        // A value starting with '-' is taken for an option: argument-parser refuses it its own way.
        let option = value.hasPrefix("-") ? "Error: " : nil
        let handle = option ?? "is not a handle"
        let slug = option ?? "is not a project slug"
        let id = option ?? "is not a submission id"
        return [
            BadArgument(name: "user add: handle \(name)", arguments: ["user", "add", value, "--name", "X"], saying: handle),
            BadArgument(name: "user show: handle \(name)", arguments: ["user", "show", value], saying: handle),
            BadArgument(name: "user remove: handle \(name)", arguments: ["user", "remove", value], saying: handle),
            BadArgument(name: "submit: slug \(name)", arguments: ["submit", value, "--author", "cy"], saying: slug, input: "x"),
            BadArgument(
                name: "submit: author \(name)", arguments: ["submit", "moon", "--author", value], saying: handle, input: "x"),
            BadArgument(
                name: "vote: voter \(name)", arguments: ["vote", "moon", "--voter", value, "ann-20260103030000"], saying: handle),
            BadArgument(
                name: "vote: id \(name)", arguments: ["vote", "moon", "--voter", "cy", value],
                saying: value.isEmpty ? "is not a submission" : value.hasPrefix("-") ? "Error: " : id),
            BadArgument(
                name: "new ballot: id \(name)", arguments: ["new", "ballot", "moon", "--voter", "cy", value],
                saying: value.isEmpty ? "is not a submission" : value.hasPrefix("-") ? "Error: " : id),
            BadArgument(
                name: "project new: slug \(name)", arguments: ["project", "new", value, "--title", "T", "--owner", "ann"],
                saying: slug, input: "x"),
            BadArgument(
                name: "project new: owner \(name)", arguments: ["project", "new", "sun", "--title", "T", "--owner", value],
                saying: handle, input: "x"),
            BadArgument(name: "follow: project \(name)", arguments: ["follow", "cy", "--project", value], saying: slug),
            BadArgument(name: "follow: user \(name)", arguments: ["follow", "cy", "--user", value], saying: handle),
            BadArgument(name: "close: slug \(name)", arguments: ["close", value], saying: slug),
            BadArgument(name: "audit: slug \(name)", arguments: ["audit", value], saying: slug),
            BadArgument(name: "status: slug \(name)", arguments: ["status", value], saying: slug),
            BadArgument(
                name: "moderate hide: id \(name)", arguments: ["moderate", "hide", "moon", value, "--by", "k", "--reason", "r"],
                saying: id),
            BadArgument(
                name: "moderate dismiss: report \(name)", arguments: ["moderate", "dismiss", value],
                saying: option ?? "is not a report id"),
        ]
    }

    /// `--now` that isn't a moment in UTC.
    static let times: [BadArgument] = [
        "yesterday", "", "2026-02-30T00:00:00Z", "2026-01-01T25:00:00Z", "2026-01-01T00:00:60Z", "2026-13-01T00:00:00Z",
        "99999-01-01T00:00:00Z", "2026-01-01T00:00:00+02:00", "2026-01-01T00:00:00.5Z", "2026-01-01 00:00:00Z",
        "\u{FF12}026-01-01T00:00:00Z", "9223372036854775807", "2026-01-01T00:00:00Z\n",
    ].map { value in
        BadArgument(
            name: "--now '\(HostileCase.visible(value))'", arguments: ["status", "--content", "Content", "--now", value],
            saying: value.isEmpty ? "--now" : "is not an ISO 8601 time", withDefaults: false)
    }

    /// Round lengths that aren't durations.
    static let spans: [BadArgument] = [
        "0d", "-1d", "7x", "", "d", "1.5d", "99999999999999999999d", "9223372036854775807m", "1d 2h", "\u{FF17}d",
    ]
    .map { value in
        BadArgument(
            name: "--round-length '\(value)'",
            arguments: ["project", "new", "sun", "--title", "Sun", "--owner", "ann", "--round-length", value],
            saying: "--round-length",
            input: "x")
    }

    /// Whole numbers out of range or not numbers.
    static let numbers: [BadArgument] = [
        BadArgument(
            name: "--rounds 0", arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--rounds", "0"],
            saying: "--rounds must be from 1", input: "x"),
        BadArgument(
            name: "--rounds -1", arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--rounds=-1"],
            saying: "--rounds", input: "x"),
        BadArgument(
            name: "--rounds past Int",
            arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--rounds", "99999999999999999999"],
            saying: "--rounds", input: "x"),
        BadArgument(
            name: "--rounds 10000", arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--rounds", "10000"],
            saying: "--rounds must be from 1", input: "x"),
        BadArgument(name: "audit --round 0", arguments: ["audit", "moon", "--round", "0"], saying: "round"),
        BadArgument(name: "audit --round 99999", arguments: ["audit", "moon", "--round", "99999"], saying: "round"),
        BadArgument(name: "audit --round abc", arguments: ["audit", "moon", "--round", "abc"], saying: "--round"),
        BadArgument(
            name: "audit --round past Int", arguments: ["audit", "moon", "--round", "99999999999999999999"], saying: "--round"),
        BadArgument(name: "serve --port 70000", arguments: ["serve", "--port", "70000"], saying: "--port"),
    ]

    /// Texts a command takes that are too long, not one line, or empty.
    static let texts: [BadArgument] = [
        BadArgument(
            name: "user add: a name of 10000 characters",
            arguments: ["user", "add", "dee", "--name", String(repeating: "N", count: 10_000)], saying: "at most 100"),
        BadArgument(
            name: "user add: a name with a line break", arguments: ["user", "add", "dee", "--name", "Dee\nEve"],
            saying: "one line"),
        BadArgument(
            name: "user add: a name with a terminal escape", arguments: ["user", "add", "dee", "--name", "\u{1B}[2JDee"],
            saying: "one line"),
        BadArgument(
            name: "user add: an empty name", arguments: ["user", "add", "dee", "--name", ""], saying: "must not be empty"),
        BadArgument(
            name: "project new: a title of 10000 characters",
            arguments: ["project", "new", "sun", "--title", String(repeating: "T", count: 10_000), "--owner", "ann"],
            saying: "at most 200", input: "x"),
        BadArgument(
            name: "project new: a tag with a line break",
            arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--tag", "a\nb"], saying: "one line",
            input: "x"),
        BadArgument(
            name: "project new: 21 tags",
            arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann"] + (0...20).flatMap { ["--tag", "t\($0)"] },
            saying: "at most 20 tags", input: "x"),
        BadArgument(
            name: "project new: an empty starter", arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann"],
            saying: "the starter text is empty", input: " \n"),
        BadArgument(
            name: "submit: a snippet with a NUL", arguments: ["submit", "moon", "--author", "cy"], saying: "NUL", input: "a\u{0}b"
        ),
        BadArgument(
            name: "submit: a snippet over 64 KiB", arguments: ["submit", "moon", "--author", "cy"], saying: "at most 65536",
            input: String(repeating: "s", count: 70_000)),
        BadArgument(
            name: "moderate hide: a reason with a line break",
            arguments: ["moderate", "hide", "moon", "ann-20260103030000", "--by", "k", "--reason", "a\nb"], saying: "one line"),
        BadArgument(
            name: "moderate hide: an empty --by",
            arguments: ["moderate", "hide", "moon", "ann-20260103030000", "--by", "", "--reason", "r"],
            saying: "must not be empty"),
        BadArgument(
            name: "init: a base URL that runs script", arguments: ["init", "other", "--base-url", "javascript:alert(1)"],
            saying: "--base-url", withDefaults: false),
        BadArgument(name: "init: into the game again", arguments: ["init", "."], saying: "already exists", withDefaults: false),
        BadArgument(
            name: "check --since an option", arguments: ["check", "--since=--output=../outside/pwned"], saying: "is not a commit",
            prepare: { folder in
                try Shell.run(["git", "init", "-q", "."], in: folder.game, environment: Shell.gitEnvironment)
                try Shell.run(["git", "add", "-A"], in: folder.game, environment: Shell.gitEnvironment)
                try Shell.run(["git", "commit", "-qm", "game"], in: folder.game, environment: Shell.gitEnvironment)
            }),
        BadArgument(
            name: "check --forge-login with a slash", arguments: ["check", "--since", "HEAD", "--forge-login", "../x"],
            saying: "--forge-login"),
    ]

    /// `--content`, `--out` and `--templates` that are the wrong folder.
    static let folders: [BadArgument] = [
        BadArgument(
            name: "--content a file", arguments: ["check", "--content", "Content/prolific.yml"], saying: "no prolific.yml here",
            withDefaults: false),
        BadArgument(
            name: "--content missing", arguments: ["submit", "moon", "--author", "cy", "--content", "nowhere"],
            saying: "no prolific.yml here", input: "x", withDefaults: false),
        BadArgument(
            name: "--content empty", arguments: ["status", "--content", ""], saying: "no prolific.yml here", withDefaults: false),
        BadArgument(
            name: "--content /", arguments: ["close", "--due", "--content", "/"], saying: "no prolific.yml here",
            withDefaults: false),
        BadArgument(
            name: "--content a symbolic link to the content (accepted: the user named it)",
            arguments: ["check", "--content", "Linked", "--now", HostileGame.now],
            saying: nil, withDefaults: false,
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0.url("Linked").path, withDestinationPath: "Content") }
        ),
        BadArgument(
            name: "build --out the content", arguments: ["build", "--out", "Content"], saying: "is the content directory"),
        BadArgument(
            name: "build --out the content, spelled another way", arguments: ["build", "--out", "./Content/../Content/"],
            saying: "is the content directory"),
        BadArgument(
            name: "build --out inside the content", arguments: ["build", "--out", "Content/site"],
            saying: "is inside the content directory"),
        BadArgument(
            name: "build --out a content folder", arguments: ["build", "--out", "Content/users"],
            saying: "is inside the content directory"),
        BadArgument(
            name: "build --out the game folder", arguments: ["build", "--out", "."], saying: "holds the content directory"),
        BadArgument(name: "build --out the root", arguments: ["build", "--out", "/"], saying: "holds the content directory"),
        BadArgument(
            name: "build --out a link to the content", arguments: ["build", "--out", "Linked"],
            saying: "is the content directory",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0.url("Linked").path, withDestinationPath: "Content") }
        ),
        BadArgument(
            name: "build --out the templates", arguments: ["build", "--out", "Templates"], saying: "is the templates folder",
            prepare: { try FileManager.default.createDirectory(at: $0.url("Templates"), withIntermediateDirectories: true) }),
        BadArgument(
            name: "build --templates missing", arguments: ["build", "--out", "../site", "--templates", "nowhere"],
            saying: "nowhere"),
        BadArgument(
            name: "serve --out the content", arguments: ["serve", "--out", "Content", "--port", "0"],
            saying: "is the content directory"),
        BadArgument(
            name: "build --out a link to nothing", arguments: ["build", "--out", "Gone"],
            saying: "is a symbolic link to nothing",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0.url("Gone").path, withDestinationPath: "Nowhere") }
        ),
        BadArgument(
            name: "serve --out a link to a file", arguments: ["serve", "--out", "Linked", "--port", "0"],
            saying: "is a symbolic link to a file",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0.url("Linked").path, withDestinationPath: "Content/prolific.yml") }
        ),
    ]

    /// `--file` and `--avatar` that aren't the file they should be.
    static let files: [BadArgument] = [
        BadArgument(
            name: "--file a folder", arguments: ["submit", "moon", "--author", "cy", "--file", "Content"],
            saying: "Is a directory"),
        BadArgument(
            name: "--file missing", arguments: ["submit", "moon", "--author", "cy", "--file", "nope.md"], saying: "No such file"),
        BadArgument(
            name: "--file /dev/zero", arguments: ["submit", "moon", "--author", "cy", "--file", "/dev/zero"],
            saying: "is more than 4 MiB"),
        BadArgument(
            name: "--file huge", arguments: ["submit", "moon", "--author", "cy", "--file", "../huge.md"],
            saying: "is more than 4 MiB",
            prepare: { folder in
                _ = FileManager.default.createFile(atPath: folder.root.appendingPathComponent("huge.md").path, contents: nil)
                let handle = try FileHandle(forWritingTo: folder.root.appendingPathComponent("huge.md"))
                try handle.truncate(atOffset: HostileGame.stress ? 8 << 30 : 64 << 20)
                try handle.close()
            }),
        BadArgument(
            name: "--file binary",
            arguments: ["project", "new", "sun", "--title", "S", "--owner", "ann", "--file", "../binary.md"],
            saying: "is not valid UTF-8",
            prepare: {
                try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }).write(
                    to: $0.root.appendingPathComponent("binary.md"))
            }),
        BadArgument(
            name: "--file empty", arguments: ["submit", "moon", "--author", "cy", "--file", "/dev/null"],
            saying: "the snippet is empty"),
        BadArgument(
            name: "standard input endless", arguments: ["user", "add", "dee", "--name", "Dee", "--file", "-"],
            saying: "is more than 4 MiB", input: String(repeating: "x", count: (4 << 20) + 10)),
        BadArgument(
            name: "--avatar /dev/zero", arguments: ["user", "add", "dee", "--name", "Dee", "--avatar", "/dev/zero"],
            saying: "images may be at most 2 MiB"),
        BadArgument(
            name: "--avatar a folder", arguments: ["user", "add", "dee", "--name", "Dee", "--avatar", "Content"],
            saying: "Is a directory"),
        BadArgument(
            name: "--avatar SVG named PNG", arguments: ["user", "add", "dee", "--name", "Dee", "--avatar", "../evil.png"],
            saying: "avatar",
            prepare: { try Data("<svg onload='alert(1)'/>".utf8).write(to: $0.root.appendingPathComponent("evil.png")) }),
    ]
}
