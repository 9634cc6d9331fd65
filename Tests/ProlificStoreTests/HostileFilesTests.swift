import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// What the hostile-input corpus (ProlificCLITests/HostileInputTests) found, one test per fix.
@Suite struct HostileFilesTests {
    let path = "Content/users/ann.md"

    func errors(_ text: String) -> [String]? {
        thrown { () throws(Diagnostics) in try UserFile.parse(text, path: path, handle: Make.handle("ann")) }
    }

    // MARK: YAML anchors

    @Test(arguments: [
        ("a: &x 1", 1, 4), ("- &x 1", 1, 3), ("&x a: 1", 1, 1), ("a: [1, &x 2]", 1, 8), ("a: {b: &x 1}", 1, 8),
        ("a: !!str &x b", 1, 10), ("--- &x\na: 1", 1, 5), ("a:\n  &x\n  [1]", 2, 3), ("? &x a\n: 1", 1, 3),
        ("a: \"k\":&x 1", 1, 8), ("\u{FEFF}&x a: 1", 1, 2), ("a: 1\u{2028}&x b: 2", 2, 1), ("a: [b,\n &x c]", 2, 2),
    ])
    func anchorsAreFound(_ yaml: String, _ line: Int, _ column: Int) {
        #expect(YAMLFields.aliasedAnchor(in: yaml + "\nz: *x") == TextPosition(line: line, column: column), "\(yaml)")
        #expect(YAMLFields.aliasedAnchor(in: yaml) == nil, "an anchor alone is harmless: \(yaml)")
    }

    @Test(arguments: [
        "name: R&D", "name: Tom & Jerry", "url: https://x.org/?a=1&b=2", "name: well-&known", "url: http://x:&y",
        "name: 'quoted &x'", "name: \"x&y\"", "a: b # &comment", "name: Tom, &Jerry",
    ])
    func textThatMerelyHasAnAmpersandIsNoAnchor(_ yaml: String) {
        #expect(YAMLFields.aliasedAnchor(in: yaml + "\nz: *x") == nil, "\(yaml)")
    }

    /// A "billion laughs" used as a mapping key made Yams hash 9^30 nodes: it hung for ever.
    @Test(.timeLimit(.minutes(1))) func anAliasBombIsRefusedBeforeItIsComposed() {
        var lines = ["l0: &l0 [lol]"]
        for level in 1...30 {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        let text = "---\nname: Ann\njoined: 2026-01-01\n" + lines.joined(separator: "\n") + "\n? *l30\n: 1\n? *l29\n: 2\n---\n"
        #expect(
            errors(text) == ["\(path):4:5: error: YAML anchors ('&name') and aliases ('*name') are not allowed in content files"])
    }

    /// Quoted text that looks like an anchor and an alias is no bomb: in the flat subset it is read
    /// as the text it is; outside it (a comment here) the scan still errs on the side of refusing.
    @Test func quotedLookAlikesAreReadWhereTheFlatReaderReadsThem() throws {
        let flat = "---\nname: 'a: &b'\njoined: 2026-01-01\navatar: 'c: *b'\n---\n"
        #expect(try UserFile.parse(flat, path: path, handle: Make.handle("ann")).name == "a: &b")
        let withComment = "---\nname: 'a: &b'  # a comment\njoined: 2026-01-01\navatar: 'c: *b'\n---\n"
        #expect(
            errors(withComment) == [
                "\(path):2:11: error: YAML anchors ('&name') and aliases ('*name') are not allowed in content files"
            ])
    }

    /// What the CLI writes with `&` in its texts reads back.
    @Test func textsWithAmpersandsRoundTrip() throws {
        for name in ["R&D", "&co", "a: &b", "[&x]", "Tom & Jerry", "- &x", "*new*", "a: *b", "&x *y", "- *x"] {
            let user = User(
                handle: Make.handle("ann"), name: name, joined: Make.time("2026-01-01T00:00:00Z"), origin: Origin(path: path))
            #expect(try UserFile.parse(UserFile.render(user), path: path, handle: Make.handle("ann")).name == name)
        }
    }

    // MARK: Bytes that are not text

    @Test func aNULByteIsRefusedWhereItIs() throws {
        let tmp = try TemporaryDirectory()
        try Data("---\nname: Ann\n---\n\nab\0c\n".utf8).write(to: URL(fileURLWithPath: tmp.path("ann.md")))
        let error = #expect(throws: FileSystem.Failure.self) { try FileSystem.readText(tmp.path("ann.md")) }
        #expect(error?.message == "holds a NUL byte; content files are text")
        #expect(error?.position == TextPosition(line: 5, column: 3))
    }

    @Test func invalidUTF8IsRefusedWhereItIs() throws {
        let tmp = try TemporaryDirectory()
        let bytes: [UInt8] = [0x2D, 0x2D, 0x2D, 0x0A] + Array("né: ".utf8) + [0xC3, 0x28]
        try Data(bytes).write(to: URL(fileURLWithPath: tmp.path("ann.md")))
        let error = #expect(throws: FileSystem.Failure.self) { try FileSystem.readText(tmp.path("ann.md")) }
        #expect(error?.message == "is not valid UTF-8 text")
        #expect(error?.position == TextPosition(line: 2, column: 5))
    }

    /// A named pipe where a profile should be: opening it waited for a writer for ever.
    @Test(.timeLimit(.minutes(1))) func aNamedPipeIsNotWaitedFor() throws {
        let tmp = try TemporaryDirectory()
        #expect(mkfifo(tmp.path("ann.md"), 0o644) == 0)
        #expect(throws: FileSystem.Failure.self) { try FileSystem.readText(tmp.path("ann.md")) }
    }

    // MARK: Limits of what players write

    @Test func hostileLengthsAreRefusedAsTheCLIRefusesThem() {
        let long = String(repeating: "N", count: TextRules.nameLimit + 1)
        #expect(
            errors("---\nname: \(long)\njoined: 2026-01-01\n---\n") == [
                "\(path):2:7: error: the name is 101 characters; at most 100"
            ])
        #expect(
            errors("---\nname: \"A\\nB\"\njoined: 2026-01-01\n---\n") == [
                "\(path):2:7: error: the name must be one line without control characters"
            ])
        let bio = String(repeating: "b", count: TextRules.bioLimit + 1)
        #expect(
            errors("---\nname: Ann\njoined: 2026-01-01\n---\n\n\(bio)\n") == [
                "\(path):6:1: error: the bio is 16385 bytes; at most 16384"
            ])
        let snippet = String(repeating: "s", count: TextRules.snippetLimit + 1)
        let parsed = thrown { () throws(Diagnostics) in
            try SubmissionFile.parse(
                "---\nauthor: ann\nsubmitted: 2026-11-02T10:00:00Z\n---\n\(snippet)\n", path: "s.md",
                id: Make.id("ann-20261102100000"))
        }
        #expect(parsed == ["s.md:5:1: error: the snippet is 65537 bytes; at most 65536"])
        let title = String(repeating: "T", count: TextRules.titleLimit + 1)
        let project = thrown { () throws(Diagnostics) in
            try ProjectFile.parse(
                "---\ntitle: \(title)\nowner: ann\ncreated: 2026-11-01\nrounds: 3\nround-length: 7d\nstatus: open\n---\nStart.\n",
                path: "p.md", slug: Make.slug("moon"))
        }
        #expect(project == ["p.md:2:8: error: the title is 201 characters; at most 200"])
    }

    // MARK: Symbolic links

    /// A linked `users/` had `user add` write the profile outside, and `follow` read one from there.
    @Test func commandsDoNotReadOrWriteThroughALinkedUsersFolder() throws {
        let world = try Playground()
        try world.standardSetup()
        let outside = try TemporaryDirectory()
        try FileManager.default.moveItem(atPath: world.directory.path("Content/users"), toPath: outside.path("users"))
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/users"), withDestinationPath: outside.path("users"))
        let before = try outside.snapshot()
        let refused =
            "\(world.root)/users:1:1: error: is a symbolic link; links are not allowed in content, so it is not followed"
        #expect(
            thrown { () throws(Diagnostics) in
                try world.game("2026-11-02T00:00:00Z").addUser(Make.handle("dee"), name: "Dee", bio: "")
            } == [refused])
        #expect(thrown { () throws(Diagnostics) in try world.reader.loadUser(Make.handle("ann")) } == [refused])
        #expect(try outside.snapshot() == before)
    }

    /// A linked project folder had `submit` write the snippet outside the content.
    @Test func aLinkedProjectFolderIsRefused() throws {
        let world = try Playground()
        try world.standardSetup()
        let outside = try TemporaryDirectory()
        try FileManager.default.moveItem(atPath: world.directory.path("Content/projects/moon"), toPath: outside.path("moon"))
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/projects/moon"), withDestinationPath: outside.path("moon"))
        let before = try outside.snapshot()
        let submitted = thrown { () throws(Diagnostics) in
            try world.game("2026-11-02T00:00:00Z").submit(
                to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's.")
        }
        #expect(
            submitted == [
                "\(world.root)/projects/moon:1:1: error: is a symbolic link; links are not allowed in content, so it is not followed"
            ])
        #expect(try outside.snapshot() == before)
    }

    /// A linked `.prolific/` had `close` write its caches wherever it pointed.
    @Test func theHistoryCacheIsNotWrittenThroughALink() throws {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T00:00:00Z").submit(
            to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's.")
        let outside = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: world.directory.path("Content/.prolific"), withDestinationPath: outside.path)
        _ = try world.game("2026-11-09T00:00:00Z").close(Make.slug("moon"))
        #expect(try outside.snapshot().isEmpty)
    }

    /// A close refused for a broken voter's profile wrote the history cache first.
    @Test func aRefusedCloseLeavesNoCache() throws {
        let world = try Playground()
        try world.standardSetup()
        _ = try world.game("2026-11-02T00:00:00Z").submit(
            to: Make.slug("moon"), by: Make.handle("bob"), ending: false, body: "Bob's.")
        _ = try world.game("2026-11-03T00:00:00Z").vote(
            in: Make.slug("moon"), by: Make.handle("cat"), for: ["bob-20261102000000"])
        try world.directory.write("---\nname: [cat]\n---\n", to: "Content/users/cat.md")
        let before = try world.snapshot()
        #expect(thrown { () throws(Diagnostics) in try world.game("2026-11-09T00:00:00Z").close(Make.slug("moon")) } != nil)
        #expect(try world.snapshot() == before)
    }
}
