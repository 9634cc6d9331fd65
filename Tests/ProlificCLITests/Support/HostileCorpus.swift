import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command of the hostile corpus: `prolific ARGUMENTS --content Content --now …`, run in the
/// game folder. `build`'s `--out` is a fresh folder outside the case's tree.
struct HostileRun: Sendable, CustomStringConvertible {
    var arguments: [String]
    var description: String { arguments.joined(separator: " ") }

    init(_ arguments: String...) { self.arguments = arguments }
    init(arguments: [String]) { self.arguments = arguments }

    static let site = "<site>"
    static let check = HostileRun("check")
    static let build = HostileRun("build", "--out", site)
    static let status = HostileRun("status")
    static let statusMoon = HostileRun("status", "moon")
    static let audit = HostileRun("audit", "moon")
    static let showAnn = HostileRun("user", "show", "ann")
    static let addDee = HostileRun("user", "add", "dee", "--name", "Dee")
    static let removeAnn = HostileRun("user", "remove", "ann")
    static let removeCy = HostileRun("user", "remove", "cy")
    static let newProject = HostileRun("project", "new", "sun", "--title", "Sun", "--owner", "ann", "--file", "../starter.md")
    static let submitAnn = HostileRun("submit", "moon", "--author", "ann", "--file", "../snippet.md")
    static let submitCy = HostileRun("submit", "moon", "--author", "cy", "--file", "../snippet.md")
    static let voteAnn = HostileRun("vote", "moon", "--voter", "ann", "ann-20260103030000")
    static let voteCy = HostileRun("vote", "moon", "--voter", "cy", "ann-20260103030000")
    static let newSubmissionAnn = HostileRun("new", "submission", "moon", "--author", "ann")
    static let newSubmissionCy = HostileRun("new", "submission", "moon", "--author", "cy")
    static let newBallotAnn = HostileRun("new", "ballot", "moon", "--voter", "ann")
    static let newBallotCy = HostileRun("new", "ballot", "moon", "--voter", "cy", "ann-20260103030000")
    static let followAnn = HostileRun("follow", "ann", "--project", "moon")
    static let unfollowAnn = HostileRun("unfollow", "ann", "--project", "moon")
    static let followCy = HostileRun("follow", "cy", "--project", "moon")
    static let unfollowBo = HostileRun("unfollow", "bo", "--project", "moon")
    static let close = HostileRun("close", "moon")
    static let closeDue = HostileRun("close", "--due")
    static let hide = HostileRun("moderate", "hide", "moon", "ann-20260103030000", "--by", "keeper", "--reason", "spam")
    static let unhide = HostileRun("moderate", "unhide", "moon", "cy-20260101011000")
    static let dismiss = HostileRun("moderate", "dismiss", "dee-20260103050000")

    /// Everything that reads the whole content.
    static let whole: [HostileRun] = [check, build, audit, showAnn]
    /// The commands that read the project with every round file and the open round's entries.
    static let project: [HostileRun] = [
        check, build, audit, status, statusMoon, submitCy, voteCy, newSubmissionCy, newBallotCy, close, closeDue, hide,
        unhide,
    ]
    /// The same but `close --due`, which reads of a project whose round is not due only its
    /// project.md and its latest round's round.md (`ContentReader.glance`): not the files beside
    /// them, nor the closed rounds, nor the open round's snippets and ballots.
    static let projectAtAGlance: [HostileRun] = project.filter { $0.description != "close --due" }
    /// Commands that read only what the closed rounds hold: everything, or moderation.
    static let closedRound: [HostileRun] = whole + [hide, unhide]
}

/// One hostile change to the played game, and what each command must do with it.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// What each refusal names: the path, from the game folder, of the file or folder made bad.
    var names: String
    /// Must refuse: exit ≠ 0, a `path:line:column: error:` line naming `names`, the tree unchanged.
    var refusedBy: [HostileRun]
    /// Must succeed: a harmless change (`build` then makes the same site as of the untouched
    /// game), and nothing outside the content changes.
    var acceptedBy: [HostileRun] = []
    var change: @Sendable (Folder) throws -> Void

    var testDescription: String { name }
}

/// A kind of content file and what reads it: the cases are made for each.
struct HostileFileKind: Sendable {
    var name: String
    var path: String
    /// Commands that read the file (each also works on the untouched game).
    var readers: [HostileRun]
    /// A required top-level key, and a value of the wrong type for it.
    var key: String
    var wrongValue: String
    /// Commands that read the file and must still work after a harmless change (BOM, CRLF).
    var tolerant: [HostileRun]
    /// A closed round's entry: any change of its bytes is tampering, which `check` reports.
    var sealed = false
    /// The folder that holds the file, linked away as a whole, and what reads through it.
    var folder: String?
    var folderReaders: [HostileRun] = []
    /// Wrong names for a copy of the file beside it, and what lists that folder.
    var oddNames: [String] = []
    var oddReaders: [HostileRun] = []
    /// Changes of one key's value: a case name, the key, and the lines that replace its line.
    var values: [(name: String, key: String, lines: String)] = []

    var markdown: Bool { path.hasSuffix(".md") }
}

extension HostileCase {
    static let stress = HostileGame.stress

    /// The whole corpus.
    static let all: [HostileCase] = HostileFileKind.all.flatMap(cases(for:)) + special

    static func cases(for kind: HostileFileKind) -> [HostileCase] {
        let path = kind.path
        func refused(
            _ name: String, names: String? = nil, by readers: [HostileRun]? = nil,
            _ change: @escaping @Sendable (Folder) throws -> Void
        ) -> HostileCase {
            HostileCase(name: "\(kind.name): \(name)", names: names ?? path, refusedBy: readers ?? kind.readers, change: change)
        }
        func harmless(_ name: String, _ change: @escaping @Sendable (Folder) throws -> Void) -> HostileCase {
            kind.sealed
                ? HostileCase(
                    name: "\(kind.name): \(name)", names: path, refusedBy: [.check], acceptedBy: [.build], change: change)
                : HostileCase(
                    name: "\(kind.name): \(name)", names: path, refusedBy: [], acceptedBy: kind.tolerant, change: change)
        }
        let key = kind.key
        let long = stress ? (4 << 20) - 4096 : 1 << 20
        let nesting = stress ? 1 << 20 : 10_000
        var cases = [
            refused("truncated in the middle of a key") { folder in
                let text = String(decoding: try folder.bytes(path), as: UTF8.self)
                let cut =
                    try text.range(of: folder.line(path, key: key)).map {
                        text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                    } ?? 0
                try folder.edit(path) { $0 = Array($0.prefix(cut + key.utf8.count / 2)) }
            },
            refused("malformed YAML") { try $0.insertYAML(path, "broken: [unclosed, list") },
            refused("wrong type") { try $0.replaceLine(path, key: key, with: "\(key): \(kind.wrongValue)") },
            refused("missing key") { try $0.replaceLine(path, key: key, with: nil) },
            refused("duplicate key") { folder in
                let line = try folder.line(path, key: key)
                try folder.replaceLine(path, key: key, with: line + "\n" + line)
            },
            refused("unknown key") { try $0.insertYAML(path, "titel: a typo") },
            refused("not a mapping") { try $0.replaceYAML(path, with: "- a list\n- not keys") },
            refused("empty file") { try $0.write([], to: path) },
            refused("invalid UTF-8") {
                try $0.insertYAML(path, "note: caf\u{FFFD}") { $0.replacing([0xEF, 0xBF, 0xBD], with: [0xC3, 0x28]) }
            },
            refused("NUL byte") { try $0.insertYAML(path, "note: a\u{1}b") { $0.replacing([0x01], with: [0x00]) } },
            refused("terminal escapes and a right-to-left override in a value") {
                try $0.replaceLine(path, key: key, with: "\(key): \"\\e]0;pwned\\a\\e[2J\\e[31mred\u{202E}txt.exe\"")
            },
            refused("over the size limit") { try $0.extend(path, to: stress ? 8 << 30 : (4 << 20) + 1) },
            refused("a very long line") { try $0.insertYAML(path, "long: " + String(repeating: "x", count: long)) },
            refused("deeply nested flow YAML") { try $0.insertYAML(path, "deep: " + String(repeating: "[", count: nesting)) },
            refused("deeply nested block YAML") { folder in
                let depth = stress ? 20_000 : 1_100
                try folder.insertYAML(path, (0..<depth).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n"))
            },
            refused("alias bomb as a value") { try $0.insertYAML(path, Self.aliasBomb(levels: stress ? 40 : 20, asKey: false)) },
            refused("alias bomb as a key") { try $0.insertYAML(path, Self.aliasBomb(levels: stress ? 40 : 20, asKey: true)) },
            refused("merge key") { try $0.insertYAML(path, "base: &base {a: 1}\nmerged:\n  <<: *base") },
            refused("symbolic link to a copy outside") { try $0.moveOutsideAndLink(path) },
            refused("symbolic link to /etc/passwd") { try $0.replaceWithLink(path, to: "/etc/passwd") },
            refused("dangling symbolic link") { try $0.replaceWithLink(path, to: "../nowhere/at/all") },
            refused("symbolic link loop") { folder in try folder.replaceWithLink(path, to: (path as NSString).lastPathComponent)
            },
            refused("folder instead of the file") { try $0.replaceWithFolder(path) },
            refused("named pipe instead of the file") { try $0.replaceWithPipe(path) },
            harmless("byte-order mark") { try $0.edit(path) { $0 = [0xEF, 0xBB, 0xBF] + $0 } },
            harmless("CRLF line ends") { try $0.edit(path) { $0 = $0.replacing([0x0A], with: [0x0D, 0x0A]) } },
            harmless("CR line ends") { try $0.edit(path) { $0 = $0.replacing([0x0A], with: [0x0D]) } },
            harmless("byte-order mark and CRLF") {
                try $0.edit(path) { $0 = [0xEF, 0xBB, 0xBF] + $0.replacing([0x0A], with: [0x0D, 0x0A]) }
            },
        ]
        if kind.markdown {
            cases += [
                refused("front matter not closed") {
                    try $0.editText(path) { text in
                        var lines = text.components(separatedBy: "\n")
                        if let fence = lines.indices.dropFirst().first(where: { lines[$0] == "---" }) { lines.remove(at: fence) }
                        return lines.joined(separator: "\n")
                    }
                },
                refused("no front matter") { try $0.editText(path) { String($0.dropFirst(4)) } },
            ]
        } else {
            cases.append(refused("two YAML documents") { try $0.editText(path) { $0 + "---\nvoter: eve\n" } })
        }
        for value in kind.values {
            cases.append(refused(value.name) { try $0.replaceLine(path, key: value.key, with: value.lines) })
        }
        if let folder = kind.folder {
            cases.append(
                refused("its folder a symbolic link to a copy outside", names: folder, by: kind.folderReaders) {
                    try $0.moveOutsideAndLink(folder)
                })
        }
        for odd in kind.oddNames {
            let shown = visible("\((path as NSString).deletingLastPathComponent)/\(odd)")
            cases.append(refused("a copy named '\(shown)'", names: shown, by: kind.oddReaders) { try $0.copy(path, as: odd) })
        }
        return cases
    }

    /// `text` as diagnostics show it: control and bidirectional formatting characters as `\u{…}`.
    static func visible(_ text: String) -> String {
        var shown = ""
        for c in text.unicodeScalars {
            let hidden = c.value < 0x20 || (0x7F...0x9F).contains(c.value) || (0x202A...0x202E).contains(c.value)
            shown += hidden ? "\\u{\(String(c.value, radix: 16, uppercase: true))}" : String(c)
        }
        return shown
    }

    /// `levels` anchors, each a list of nine aliases of the one before: 9^levels nodes, in a few lines.
    static func aliasBomb(levels: Int, asKey: Bool) -> String {
        var lines = ["l0: &l0 [lol]"]
        for level in 1...levels {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        if asKey { lines += ["? *l\(levels)", ": boom", "? *l\(levels - 1)", ": boom"] }
        return lines.joined(separator: "\n")
    }
}

extension HostileFileKind {
    static let all: [HostileFileKind] = [
        HostileFileKind(
            name: "prolific.yml", path: "Content/prolific.yml",
            readers: HostileRun.whole + [
                .status, .addDee, .removeCy, .newProject, .submitCy, .voteCy, .newSubmissionCy, .newBallotCy, .followCy,
                .unfollowBo,
                .close, .closeDue, .hide, .unhide, .dismiss,
            ],
            key: "base-url", wrongValue: "[https://example.org/]", tolerant: [.check, .build, .followCy, .submitCy],
            oddNames: ["Prolific.yml", "prolific.yaml", "prolific.yml.orig", "prolific\u{2024}yml"],
            oddReaders: HostileRun.whole,
            values: [
                ("a script URL", "base-url", "base-url: javascript:alert(1)//"),
                ("default rounds out of range", "title", "title: T\ndefaults:\n  rounds: 99999999999999999999999"),
                (
                    "a former player with a path for a handle", "title",
                    "title: T\nformer:\n- {handle: ../../etc, joined: 2026-01-01, removed: 2026-01-02}"
                ),
            ]),
        HostileFileKind(
            name: "profile", path: "Content/users/ann.md",
            readers: HostileRun.whole + [
                .followAnn, .unfollowAnn, .removeAnn, .submitAnn, .voteAnn, .newSubmissionAnn, .newBallotAnn, .newProject,
            ],
            key: "joined", wrongValue: "{at: yesterday}", tolerant: [.check, .build, .followAnn, .submitCy],
            folder: "Content/users",
            folderReaders: [.check, .build, .showAnn, .followAnn, .addDee, .removeCy, .submitCy],
            oddNames: ["Ann.md", "\u{0430}nn.md", "\u{FF41}\u{FF4E}\u{FF4E}.md", "ann\u{202E}dm.md", "a\nb.md", "ann.md.orig"],
            oddReaders: HostileRun.whole,
            values: [
                ("a name of 5000 characters", "name", "name: " + String(repeating: "N", count: 5000)),
                ("a name with a line break", "name", "name: \"Ann\\nEve\""),
                ("follows a path", "joined", "joined: 2026-01-01T00:00:00Z\nfollows:\n  projects: [../../outside]"),
                ("follows a look-alike handle", "joined", "joined: 2026-01-01T00:00:00Z\nfollows:\n  users: [\u{0430}nn]"),
                ("links that are not a list", "joined", "joined: 2026-01-01T00:00:00Z\nlinks: https://example.org/"),
            ]),
        HostileFileKind(
            name: "project", path: "Content/projects/moon/project.md",
            readers: HostileRun.project + [.removeCy],
            key: "owner", wrongValue: "[ann, bo]", tolerant: [.check, .build, .submitCy],
            folder: "Content/projects/moon",
            folderReaders: HostileRun.project + [.removeCy],
            oddNames: ["project.MD", "Project.md", "project.md.orig"], oddReaders: HostileRun.projectAtAGlance,
            values: [
                ("a title of 5000 characters", "title", "title: " + String(repeating: "T", count: 5000)),
                ("a look-alike owner", "owner", "owner: \u{0430}nn"),
                ("an owner with a path", "owner", "owner: ../users/ann"),
                ("rounds past Int", "rounds", "rounds: 99999999999999999999999"),
                ("a round length past Int", "round-length", "round-length: 99999999999999999999d"),
                ("a tag of 5000 characters", "tags", "tags: [" + String(repeating: "t", count: 5000) + "]"),
                // Each tag has a page showing every story's tags: the build was quadratic in them.
                ("20000 tags", "tags", "tags: [" + (0..<20_000).map { "t\($0)" }.joined(separator: ", ") + "]"),
            ]),
        HostileFileKind(
            name: "open round", path: "Content/projects/moon/rounds/0002/round.md",
            readers: HostileRun.project + [.removeCy],
            key: "closes", wrongValue: "{in: two days}", tolerant: [.check, .build, .submitCy],
            folder: "Content/projects/moon/rounds/0002", folderReaders: HostileRun.project + [.removeCy],
            oddNames: ["Round.md", "round.md.orig"], oddReaders: HostileRun.projectAtAGlance,
            values: [
                ("a date that doesn't exist", "closes", "closes: 2026-02-30T00:00:00Z"),
                ("a year past 9999", "closes", "closes: 99999-01-01T00:00:00Z"),
                (
                    "a winner with a path", "closes",
                    "closes: 2026-01-05T02:00:00Z\nclosed: 2026-01-03T05:00:00Z\nwinner: ../../etc/passwd"
                ),
            ]),
        HostileFileKind(
            name: "closed round", path: "Content/projects/moon/rounds/0001/round.md",
            readers: HostileRun.projectAtAGlance + [.removeCy],
            key: "opened", wrongValue: "[2026-01-01T00:00:00Z]", tolerant: [.check, .build, .submitCy],
            // Linked away, the folder is no round folder to a glance: `close --due` reads the project whole.
            folder: "Content/projects/moon/rounds/0001", folderReaders: HostileRun.project + [.removeCy],
            values: [
                ("a look-alike winner", "winner", "winner: b\u{043E}-20260101010000"),
                ("scores that are not keys and values", "winner", "winner: bo-20260101010000\nscores: 3"),
            ]),
        HostileFileKind(
            name: "open snippet", path: "Content/projects/moon/rounds/0002/submissions/ann-20260103030000.md",
            readers: HostileRun.projectAtAGlance, key: "author", wrongValue: "[ann]", tolerant: [.check, .build, .voteCy],
            folder: "Content/projects/moon/rounds/0002/submissions", folderReaders: HostileRun.projectAtAGlance,
            oddNames: ["ANN-20260103030000.md", "\u{0430}nn-20260103030000.md", "ann-20260103030000.MD", "ann-2026010303000.md"],
            oddReaders: HostileRun.projectAtAGlance,
            values: [
                ("an author in capitals", "author", "author: Ann"),
                ("a look-alike author", "author", "author: \u{0430}nn"),
                ("a time with an offset", "submitted", "submitted: 2026-01-03T04:00:00+01:00"),
            ]),
        HostileFileKind(
            name: "open ballot", path: "Content/projects/moon/rounds/0002/votes/bo.yml",
            readers: HostileRun.projectAtAGlance, key: "cast", wrongValue: "[2026-01-03T04:00:00Z]", tolerant: [.check, .build, .voteCy],
            folder: "Content/projects/moon/rounds/0002/votes", folderReaders: HostileRun.projectAtAGlance,
            oddNames: ["Bo.yml", "b\u{043E}.yml", "bo.yaml", "bo.yml.orig"], oddReaders: HostileRun.projectAtAGlance,
            values: [
                ("a choice with a path", "for", "for:\n- ../../../../etc/passwd"),
                ("a look-alike choice", "for", "for:\n- \u{0430}nn-20260103030000"),
                ("choices that are keys and values", "for", "for: {ann-20260103030000: 1}"),
            ]),
        HostileFileKind(
            name: "closed snippet", path: "Content/projects/moon/rounds/0001/submissions/bo-20260101010000.md",
            readers: HostileRun.closedRound, key: "submitted", wrongValue: "{at: noon}", tolerant: [], sealed: true,
            folder: "Content/projects/moon/rounds/0001/submissions", folderReaders: HostileRun.closedRound,
            oddNames: ["bo-20260101010000.md.orig"], oddReaders: HostileRun.closedRound),
        // Only `check` reads a sealed round's ballot files: the others count round.md's record.
        HostileFileKind(
            name: "closed ballot", path: "Content/projects/moon/rounds/0001/votes/ann.yml",
            readers: [.check], key: "voter", wrongValue: "{name: ann}", tolerant: [], sealed: true,
            folder: "Content/projects/moon/rounds/0001/votes", folderReaders: HostileRun.closedRound),
        HostileFileKind(
            name: "report", path: "Content/reports/dee-20260103050000.md",
            readers: [.check, .build, .audit, .status], key: "snippet", wrongValue: "[ann-20260103030000]",
            tolerant: [.check, .build, .status],
            folder: "Content/reports", folderReaders: [.check, .build, .audit, .status, .dismiss],
            oddNames: ["Dee-20260103050000.md", "d\u{0435}e-20260103050000.md", "dee-20260103050000.txt"],
            oddReaders: [.check, .build, .audit, .status],
            values: [
                ("a project with a path", "project", "project: ../moon"),
                ("a round past Int", "snippet", "snippet: ann-20260103030000\nround: 99999999999999999999999"),
            ]),
    ]
}

extension HostileCase {
    /// Cases that don't fit the per-file pattern.
    static let special: [HostileCase] = [
        HostileCase(
            name: "projects/ a symbolic link to a copy outside", names: "Content/projects",
            refusedBy: HostileRun.project + [.newProject, .removeCy], change: { try $0.moveOutsideAndLink("Content/projects") }),
        HostileCase(
            name: "rounds/ a symbolic link to a copy outside", names: "Content/projects/moon/rounds",
            refusedBy: HostileRun.project + [.removeCy], change: { try $0.moveOutsideAndLink("Content/projects/moon/rounds") }),
        HostileCase(
            name: "a project folder named '..'-like 'Moon'", names: "Content/projects/Moon", refusedBy: HostileRun.whole,
            change: { try $0.copy("Content/projects/moon", as: "Moon") }),
        HostileCase(
            name: "a round folder named '2'", names: "Content/projects/moon/rounds/2", refusedBy: HostileRun.project,
            change: { try $0.copy("Content/projects/moon/rounds/0002", as: "2") }),
        HostileCase(
            name: "a round folder in fullwidth digits", names: "Content/projects/moon/rounds/\u{FF10}\u{FF10}\u{FF10}\u{FF12}",
            refusedBy: HostileRun.project,
            change: { try $0.copy("Content/projects/moon/rounds/0002", as: "\u{FF10}\u{FF10}\u{FF10}\u{FF12}") }),
        HostileCase(
            name: "a voter's profile broken, history cache gone", names: "Content/users/bo.md",
            refusedBy: [.check, .build, .close],
            change: { folder in
                try folder.remove("Content/.prolific")
                try folder.replaceLine("Content/users/bo.md", key: "joined", with: "joined: {at: noon}")
            }),
        HostileCase(
            name: ".prolific/ a symbolic link to a folder outside", names: "Content/.prolific", refusedBy: [],
            acceptedBy: [.check, .build, .close], change: { try $0.moveOutsideAndLink("Content/.prolific") }),
        HostileCase(
            name: "an avatar path out of the content", names: "Content/users/ann.md", refusedBy: [],
            acceptedBy: [.check, .build],
            change: { folder in
                try folder.write(Array("\u{89}PNG\r\n\u{1A}\n0000".utf8), to: "../outside/secret.png")
                try folder.replaceLine("Content/users/ann.md", key: "name", with: "name: Ann\navatar: ../../outside/secret.png")
            }),
        HostileCase(
            name: "an avatar at an absolute path", names: "Content/users/ann.md", refusedBy: [], acceptedBy: [.check, .build],
            change: { try $0.replaceLine("Content/users/ann.md", key: "name", with: "name: Ann\navatar: /etc/passwd") }),
    ]
}

/// A run in a case's folder: how it went, and the site `build` wrote when it was kept.
@dynamicMemberLookup
struct HostileFolderRun {
    var measured: MeasuredRun
    var site: URL?

    subscript<T>(dynamicMember key: KeyPath<MeasuredRun, T>) -> T { measured[keyPath: key] }
}

extension HostileCase {
    /// A copy of the played game for one case, removed with everything it made.
    final class Folder {
        let root: URL
        var game: URL { root.appendingPathComponent("game") }
        var outside: URL { root.appendingPathComponent("outside") }

        init(copying template: URL) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-hostile-\(UUID().uuidString)")
            // `cp -a` keeps modification times, which the history cache's stamps compare.
            try Shell.run(["cp", "-a", template.path, root.path], in: FileManager.default.temporaryDirectory)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        /// Runs `command` in the game folder, on its content, at the game's `now`.
        func run(_ command: HostileRun, input: String = "", keepingSite: Bool = false, withDefaults: Bool = true) throws
            -> HostileFolderRun
        {
            let site = root.deletingLastPathComponent().appendingPathComponent(
                "\(root.lastPathComponent)-site-\(UUID().uuidString)")
            var arguments = command.arguments.map { $0 == HostileRun.site ? site.path : $0 }
            if withDefaults { arguments += ["--content", "Content", "--now", HostileGame.now] }
            let measured = try MeasuredRun.run(arguments, in: game, input: Data(input.utf8), timeout: HostileGame.timeout)
            let wrote = FileManager.default.fileExists(atPath: site.path)
            if wrote && !keepingSite { try? FileManager.default.removeItem(at: site) }
            return HostileFolderRun(measured: measured, site: wrote && keepingSite ? site : nil)
        }

        func url(_ path: String) -> URL { game.appendingPathComponent(path) }

        func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(path))) }

        func write(_ bytes: [UInt8], to path: String) throws {
            try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url(path))
        }

        func edit(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
            var bytes = try bytes(path)
            change(&bytes)
            try write(bytes, to: path)
        }

        func editText(_ path: String, _ change: (String) -> String) throws {
            try edit(path) { bytes in bytes = Array(change(String(decoding: bytes, as: UTF8.self)).utf8) }
        }

        /// Adds `text` as lines at the start of the YAML (after a Markdown file's opening fence),
        /// then applies `bytes` to the whole file.
        func insertYAML(_ path: String, _ text: String, bytes: (([UInt8]) -> [UInt8])? = nil) throws {
            try editText(path) { path.hasSuffix(".md") ? "---\n" + text + "\n" + $0.dropFirst(4) : text + "\n" + $0 }
            if let bytes { try edit(path) { $0 = bytes($0) } }
        }

        /// Replaces the YAML (of a Markdown file, between its fences) with `yaml`.
        func replaceYAML(_ path: String, with yaml: String) throws {
            try editText(path) { text in
                guard path.hasSuffix(".md"),
                    let end = text.range(of: "\n---\n", range: text.index(text.startIndex, offsetBy: 3)..<text.endIndex)
                else { return yaml + "\n" }
                return "---\n" + yaml + text[end.lowerBound...]
            }
        }

        /// The first line that sets `key`.
        func line(_ path: String, key: String) throws -> String {
            let text = String(decoding: try bytes(path), as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else {
                throw Shell.Failure(description: "\(path) has no '\(key):' line")
            }
            return String(line)
        }

        /// Replaces the first line that sets `key` with `lines`, or removes it.
        func replaceLine(_ path: String, key: String, with lines: String?) throws {
            let old = try line(path, key: key)
            try editText(path) { text in
                var all = text.components(separatedBy: "\n")
                guard let index = all.firstIndex(of: old) else { return text }
                if let lines { all[index] = lines } else { all.remove(at: index) }
                return all.joined(separator: "\n")
            }
        }

        /// Makes the file `size` bytes long with zeros, without writing them (a sparse file).
        func extend(_ path: String, to size: Int) throws {
            let handle = try FileHandle(forWritingTo: url(path))
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        }

        func remove(_ path: String) throws {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: url(path).path)) != nil
                || FileManager.default.fileExists(atPath: url(path).path)
            {
                try FileManager.default.removeItem(at: url(path))
            }
        }

        func replaceWithLink(_ path: String, to target: String) throws {
            try remove(path)
            try FileManager.default.createSymbolicLink(atPath: url(path).path, withDestinationPath: target)
        }

        /// Moves the file or folder at `path` to `outside/` and links to it there: if the link
        /// were followed, the command would find the very files it expects.
        func moveOutsideAndLink(_ path: String) throws {
            let target = outside.appendingPathComponent(url(path).lastPathComponent)
            try FileManager.default.moveItem(at: url(path), to: target)
            try FileManager.default.createSymbolicLink(atPath: url(path).path, withDestinationPath: target.path)
        }

        func replaceWithFolder(_ path: String) throws {
            try remove(path)
            try FileManager.default.createDirectory(at: url(path), withIntermediateDirectories: false)
        }

        func replaceWithPipe(_ path: String) throws {
            try remove(path)
            guard mkfifo(url(path).path, 0o644) == 0 else { throw Shell.Failure(description: "mkfifo \(path) failed") }
        }

        /// Copies the file or folder at `path` beside it as `name`.
        func copy(_ path: String, as name: String) throws {
            try FileManager.default.copyItem(
                at: url(path), to: url(path).deletingLastPathComponent().appendingPathComponent(name))
        }
    }
}
