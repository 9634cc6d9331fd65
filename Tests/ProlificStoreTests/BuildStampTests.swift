import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `BuildStamp`: saved with its inputs encoded ahead (as a build does, beside rendering) it is
/// the same file as saved whole, and a torn file is never loaded.
@Suite struct BuildStampTests {
    /// A content directory and a site, with the stamp a build would save for them.
    func stamp() throws -> (TemporaryDirectory, ContentLayout, BuildStamp) {
        let folder = try TemporaryDirectory()
        try folder.write("title: T\n", to: "Content/prolific.yml")
        try folder.write("name: Ann\n", to: "Content/users/ann.md")
        try folder.write("<p>home</p>\n", to: "Site/index.html")
        try folder.write("<p>ann</p>\n", to: "Site/users/ann/index.html")
        let layout = ContentLayout(root: folder.path("Content"))
        let content = try #require(FileInventory.take(of: layout.root, skipping: BuildStamp.skipped, racyAfter: .max))
        let site = try #require(FileInventory.take(of: folder.path("Site"), skipping: [], racyAfter: .max))
        let stamp = BuildStamp(
            key: BuildStamp.key(now: try #require(Timestamp(iso8601: "2026-01-01T00:00:00Z")), out: folder.path("Site"), templates: nil, head: ""), content: content,
            templates: nil,
            subtreeKeys: [
                "projects/moon": SubtreeKeys(
                    key: Array(repeating: 3, count: 32),
                    leftOut: SubtreeKeys.LeftOut(path: "projects/moon/rounds/0002/votes", digest: String(repeating: "ab", count: 32))),
                "projects/sun": SubtreeKeys(key: Array(repeating: 4, count: 32)),
            ],
            site: site, pages: 2, files: 2,
            fingerprints: PageFingerprints(["index.html": Array(repeating: 7, count: 16), "users/ann/index.html": Array(repeating: 9, count: 16)]),
            spare: site)
        return (folder, layout, stamp)
    }

    @Test func savedWithItsInputsEncodedAheadItIsTheSameFile() throws {
        let (folder, layout, stamp) = try stamp()
        let file = layout.root + "/" + BuildStamp.file
        stamp.save(layout)
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.removeItem(atPath: file)
        stamp.save(
            layout,
            inputs: BuildStamp.EncodedInputs(
                key: stamp.key, content: stamp.content, templates: stamp.templates, subtreeKeys: stamp.subtreeKeys))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == whole)
        // Inputs of other values are not taken for this stamp's, nor inputs without its keys.
        for inputs in [
            BuildStamp.EncodedInputs(key: ["another key"], content: stamp.site, templates: nil),
            BuildStamp.EncodedInputs(key: stamp.key, content: stamp.content, templates: stamp.templates),
        ] {
            try FileManager.default.removeItem(atPath: file)
            stamp.save(layout, inputs: inputs)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == whole)
        }
        let loaded = try #require(BuildStamp.load(layout))
        #expect(loaded.key == stamp.key && loaded.content == stamp.content && loaded.site == stamp.site)
        #expect(loaded.subtreeKeys == stamp.subtreeKeys && loaded.subtreeKeys.count == 2)
        // Given only to a build of the same binary.
        #expect(loaded.subtreeKeys(forKey: stamp.key) == stamp.subtreeKeys)
        #expect(loaded.subtreeKeys(forKey: ["binary another"] + stamp.key.dropFirst()).isEmpty)
        #expect(loaded.subtreeKeys(forKey: ["binary unknown"] + stamp.key.dropFirst()).isEmpty)
        #expect(loaded.fingerprints == stamp.fingerprints && loaded.spare == stamp.spare && loaded.pages == 2)
        _ = folder
    }

    /// The file is its parts one after the other, as they were written one by one before the
    /// site's, the fingerprints' and the spare's came to be encoded side by side: the key and
    /// the inputs, the site, the counts, the 16-byte fingerprints by path, the spare; sealed.
    /// Fingerprints of another length are not kept. Without a spare, a 0 says so.
    @Test func itsPartsComeInTheirOrder() throws {
        let (folder, layout, stamp) = try stamp()
        let file = layout.root + "/" + BuildStamp.file
        for spare in [stamp.spare, nil] {
            var fingerprints = stamp.fingerprints.dictionary
            fingerprints["short.html"] = [1, 2, 3]
            let saved = BuildStamp(
                key: stamp.key, content: stamp.content, templates: nil, subtreeKeys: stamp.subtreeKeys, site: stamp.site, pages: 2,
                files: 3, fingerprints: PageFingerprints(fingerprints), spare: spare)
            saved.save(layout)
            var w = BinaryWriter()
            // The inputs without keys end with none: a length of 1 and a count of 0.
            let inputs = BuildStamp.EncodedInputs(key: stamp.key, content: stamp.content, templates: nil).bytes
            #expect(inputs.suffix(2) == [1, 0])
            w.raw(inputs.dropLast(2))
            // The projects' keys, after their length in bytes: their count, then each by path.
            var keys = BinaryWriter()
            keys.varint(2)
            keys.text("projects/moon")
            keys.raw(Array(repeating: 3, count: 32))
            keys.flag(true)
            keys.text("projects/moon/rounds/0002/votes")
            keys.text(String(repeating: "ab", count: 32))
            keys.text("projects/sun")
            keys.raw(Array(repeating: 4, count: 32))
            keys.flag(false)
            w.varint(UInt64(keys.bytes.count))
            w.raw(keys.bytes)
            stamp.site.encode(into: &w)
            w.integer(2)
            w.integer(3)
            w.integer(2)
            for path in ["index.html", "users/ann/index.html"] {
                w.text(path)
                w.raw(try #require(fingerprints[path]))
            }
            w.integer(spare == nil ? 0 : 1)
            spare?.encode(into: &w)
            CacheSeal.seal(&w)
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) == w.bytes)
        }
        _ = folder
    }

    /// The fingerprints' part lists the paths in the byte order of their UTF-8 (a path before
    /// the longer ones it starts; not `String`'s order), each with its fingerprint; those of
    /// another length are left out.
    @Test func fingerprintsComeInTheByteOrderOfTheirPaths() {
        // "e\u{301}" (e and a combining acute accent) comes after "f" as a `String`, before it as bytes.
        let paths = ["a/index.html", "a-b/index.html", "a.html", "a", "e\u{301}.html", "f.html", "z/index.html", "a/index.html.gz", "A.html"]
        var fingerprints: [String: [UInt8]] = [:]
        for (n, path) in paths.enumerated() { fingerprints[path] = Array(repeating: UInt8(n), count: 16) }
        fingerprints["short.html"] = [1, 2, 3]
        var w = BinaryWriter()
        let sorted = paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(
            sorted == ["A.html", "a", "a-b/index.html", "a.html", "a/index.html", "a/index.html.gz", "e\u{301}.html", "f.html", "z/index.html"])
        #expect(paths.sorted() != sorted)
        w.integer(Int64(sorted.count))
        for path in sorted {
            w.text(path)
            w.raw(fingerprints[path] ?? [])
        }
        #expect(BuildStamp.encode(PageFingerprints(fingerprints)) == w.bytes)
        #expect(BuildStamp.encode(.empty) == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// Sealed: a file cut short or with a byte changed anywhere is not loaded (the next build
    /// renders everything, as without a stamp).
    @Test func aTornStampIsNeverLoaded() throws {
        let (folder, layout, stamp) = try stamp()
        let file = layout.root + "/" + BuildStamp.file
        stamp.save(layout)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            var changed = bytes
            changed[offset] ^= 0x10
            try Data(changed).write(to: URL(fileURLWithPath: file))
            #expect(BuildStamp.load(layout) == nil, "byte \(offset) changed")
            try Data(bytes[..<offset]).write(to: URL(fileURLWithPath: file))
            #expect(BuildStamp.load(layout) == nil, "cut at \(offset)")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(BuildStamp.load(layout) != nil)
        _ = folder
    }

    /// As saved, the stamp tells a build whether its site is up to date without being decoded
    /// (`Saved.isCurrent`, in place): yes with the same key and nothing changed; no with another
    /// key, a content file or a site file changed. Decoded, it is the stamp saved.
    @Test func theSavedStampTellsWhetherTheSiteIsUpToDate() throws {
        for change in ["none", "key", "content", "site"] {
            let (folder, layout, stamp) = try stamp()
            stamp.save(layout)
            let saved = try #require(BuildStamp.Saved(layout))
            #expect(saved.key == stamp.key && saved.pages == 2 && saved.files == 2 && saved.siteRoot == folder.path("Site"))
            let decoded = try #require(saved.decoded())
            #expect(decoded.content == stamp.content && decoded.site == stamp.site && decoded.fingerprints == stamp.fingerprints)
            var key = stamp.key
            switch change {
            case "key": key[1] = "now 2026-01-02T00:00:00Z"
            case "content": try folder.write("name: Anne\n", to: "Content/users/ann.md")
            case "site": try folder.write("<p>Anne</p>\n", to: "Site/users/ann/index.html")
            default: break
            }
            #expect(saved.isCurrent(key: key) == (change == "none"), "\(change)")
        }
    }

    /// A stamp whose bytes were changed and sealed again (the checksum is no signature) is
    /// checked and decoded without a trap: it is either refused, or read as some stamp.
    @Test func aResealedCorruptStampNeverTraps() throws {
        let (folder, layout, stamp) = try stamp()
        stamp.save(layout)
        let file = layout.root + "/" + BuildStamp.file
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let body = Array(bytes.dropLast(8))
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var changed = body
            for _ in 0...(round % 3) {
                changed[Int.random(in: 8..<changed.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            var w = BinaryWriter()
            w.raw(changed)
            CacheSeal.seal(&w)
            try Data(w.bytes).write(to: URL(fileURLWithPath: file))
            if let saved = BuildStamp.Saved(layout) {
                _ = saved.isCurrent(key: stamp.key)
                _ = saved.decoded().map { ($0.fingerprints.count, $0.spare?.count) }
            }
        }
        _ = folder
    }

    /// A content folder with the closed round `round` (its round.md, a snippet and a ballot)
    /// and a site of one page, in `folder`.
    func writeClosedRound(_ round: String, in folder: TemporaryDirectory) throws {
        try folder.write("title: T\n", to: "Content/prolific.yml")
        try folder.write("---\nclosed: 2026-01-01T00:00:00Z\n---\n", to: "\(round)/round.md")
        try folder.write("A snippet.\n", to: "\(round)/submissions/a-20260101000000.md")
        try folder.write("choices: [a-20260101000000]\n", to: "\(round)/votes/b.yml")
        try folder.write("<p>home</p>\n", to: "Site/index.html")
    }

    /// A stamp of `folder`'s `Content/` and `Site/` with `sealed`, saved, as a build saves it;
    /// with its key and the content's inventory. `racy`, when given, changes something just
    /// after the moment from which entries are recorded as racy.
    func savedStamp(
        in folder: TemporaryDirectory, sealed: SealedRounds, racy: (() throws -> Void)? = nil
    ) throws -> (saved: BuildStamp.Saved, key: [String], content: FileInventory) {
        let layout = ContentLayout(root: folder.path("Content"))
        var racyAfter = Int64.max
        if let racy {
            Thread.sleep(forTimeInterval: 0.02)
            racyAfter = FileInventory.clock()
            Thread.sleep(forTimeInterval: 0.02)
            try racy()
        }
        let content = try #require(FileInventory.take(of: layout.root, skipping: BuildStamp.skipped, racyAfter: racyAfter))
        let site = try #require(FileInventory.take(of: folder.path("Site"), skipping: [], racyAfter: .max))
        let key = BuildStamp.key(now: Make.time("2026-01-01T00:00:00Z"), out: folder.path("Site"), templates: nil, head: "")
        BuildStamp(key: key, content: content, sealed: sealed, templates: nil, site: site, pages: 1, files: 1).save(layout)
        return (try #require(BuildStamp.Saved(layout)), key, content)
    }

    /// The files of a sealed round are vouched for by their folders' times (`SealedRounds`): a
    /// no-op build doesn't stat them. Everything else is still checked: the round's own round.md,
    /// its folders, its dot files, the files of a round without a seal, a racy file; a file
    /// added, removed or renamed moves its folder's times. Decoded, the stamp is the inventory
    /// taken, vouched-for files and all.
    @Test func aSealedRoundsFilesAreCheckedByTheirFolders() throws {
        let round = "Content/projects/p/rounds/0001"
        for change in [
            "none", "sealed snippet in place", "sealed image in place", "round.md in place", "open snippet in place",
            "sealed ballot added", "sealed ballot replaced", "dot file in place", "racy sealed ballot in place",
            "unsealed ballot in place", "open ballot added", "round added",
        ] {
            let folder = try TemporaryDirectory()
            try writeClosedRound(round, in: folder)
            try folder.write("notes\n", to: "\(round)/.notes")
            // Added after the close (a warning to `check`): not in the seal, so stat-ed.
            try folder.write("choices: [a-20260101000000]\n", to: "\(round)/votes/late.yml")
            try folder.writeImage(to: "\(round)/images/map.png")
            try folder.write("Still open.\n", to: "Content/projects/p/rounds/0002/submissions/a-20260102000000.md")
            // A racy entry (changed just before the inventory: here the ballot alone, written
            // again in place) is recorded as changed, and never vouched for.
            let (saved, key, content) = try savedStamp(
                in: folder, sealed: SealedRounds(listing: [("p/rounds/0001", ["submissions/a-20260101000000.md", "votes/b.yml", "images/map.png"])]),
                racy: change.hasPrefix("racy") ? { try folder.writeInPlace("choices: [a-20260101000000]\n", to: "\(round)/votes/b.yml") } : nil)
            #expect(try #require(saved.decoded()).content == content, "\(change)")
            // Past the clock's tick: a folder's times must be able to move (builds leave the
            // racy window for this).
            Thread.sleep(forTimeInterval: 0.02)
            switch change {
            case "sealed snippet in place": try folder.writeInPlace("Another snippet.\n", to: "\(round)/submissions/a-20260101000000.md")
            case "sealed image in place": try folder.writeInPlace("not a png", to: "\(round)/images/map.png")
            case "round.md in place": try folder.writeInPlace("---\nclosed: 2026-01-02T00:00:00Z\n---\n", to: "\(round)/round.md")
            case "open snippet in place": try folder.writeInPlace("Changed.\n", to: "Content/projects/p/rounds/0002/submissions/a-20260102000000.md")
            case "sealed ballot added": try folder.write("choices: [a-20260101000000]\n", to: "\(round)/votes/c.yml")
            case "sealed ballot replaced":
                try folder.write("choices: []\n", to: "\(round)/votes/b.tmp")
                try FileManager.default.removeItem(atPath: folder.path("\(round)/votes/b.yml"))
                try FileManager.default.moveItem(atPath: folder.path("\(round)/votes/b.tmp"), toPath: folder.path("\(round)/votes/b.yml"))
            case "dot file in place": try folder.writeInPlace("more notes\n", to: "\(round)/.notes")
            case "racy sealed ballot in place": try folder.writeInPlace("choices: []\n", to: "\(round)/votes/b.yml")
            case "unsealed ballot in place": try folder.writeInPlace("choices: []\n", to: "\(round)/votes/late.yml")
            // In folders outside any sealed round: the first pass's (`Encoded.areUnchanged`).
            case "open ballot added": try folder.write("choices: [a-20260102000000]\n", to: "Content/projects/p/rounds/0002/votes/b.yml")
            case "round added": try folder.write("---\n---\n", to: "Content/projects/p/rounds/0003/round.md")
            default: break
            }
            let unseen = ["none", "sealed snippet in place", "sealed image in place"]
            #expect(saved.isCurrent(key: key) == unseen.contains(change), "\(change)")
        }
    }

    /// The votes folder of a round counted from its record is vouched for (written with its own
    /// code): a no-op build doesn't stat it, so a ballot added there is not seen. The round's
    /// folder and its submissions folder still are, and a racy votes folder is checked like any
    /// other entry. Decoded, the stamp vouches for that folder and the sealed files only.
    @Test func aRecordedRoundsVotesFolderIsNotChecked() throws {
        let round = "Content/projects/p/rounds/0001"
        for change in ["none", "ballot added", "racy votes folder", "file added to the round", "snippet added"] {
            let folder = try TemporaryDirectory()
            try writeClosedRound(round, in: folder)
            let sealed = SealedRounds(
                listing: [("p/rounds/0001", ["submissions/a-20260101000000.md", "votes/b.yml"])], countingRecords: ["p/rounds/0001"])
            let (saved, key, content) = try savedStamp(
                in: folder, sealed: sealed,
                racy: change.hasPrefix("racy")
                    ? {
                        try folder.write("x", to: "\(round)/votes/.scratch")
                        try FileManager.default.removeItem(atPath: folder.path("\(round)/votes/.scratch"))
                    } : nil)
            let decoded = try #require(saved.decoded()).content
            #expect(decoded == content, "\(change)")
            let paths = decoded.paths.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            let vouched = Set(zip(paths, decoded.vouched).filter(\.1).map(\.0))
            let files = ["projects/p/rounds/0001/submissions/a-20260101000000.md", "projects/p/rounds/0001/votes/b.yml"]
            #expect(vouched == Set(change.hasPrefix("racy") ? files : files + ["projects/p/rounds/0001/votes"]), "\(change)")
            Thread.sleep(forTimeInterval: 0.02)
            switch change {
            case "ballot added": try folder.write("choices: [a-20260101000000]\n", to: "\(round)/votes/c.yml")
            case "file added to the round": try folder.write("notes\n", to: "\(round)/notes.md")
            case "snippet added": try folder.write("Late.\n", to: "\(round)/submissions/c-20260101000000.md")
            default: break
            }
            #expect(saved.isCurrent(key: key) == ["none", "ballot added"].contains(change), "\(change)")
        }
    }

    /// Which paths a seal vouches for: the files it lists, at any depth, and nothing else: not
    /// its round.md, its folders, a file added since, or anything of another round or outside
    /// `projects/`.
    @Test func aSealVouchesForTheFilesItListsOnly() {
        let sealed = SealedRounds(listing: [
            ("p/rounds/0001", ["votes/b.yml", "submissions/a-20260101000000.md", "images/map.png", "x"]),
            ("q-2/rounds/0010", ["votes/b.yml"]),
        ])
        var last: SealedRounds.Cursor = ([], nil)
        func vouches(_ path: String) -> Bool {
            Array(path.utf8).withUnsafeBufferPointer { sealed.vouchesFor($0, last: &last) }
        }
        for path in [
            "projects/p/rounds/0001/submissions/a-20260101000000.md", "projects/p/rounds/0001/votes/b.yml",
            "projects/p/rounds/0001/images/map.png", "projects/q-2/rounds/0010/votes/b.yml", "projects/p/rounds/0001/x",
        ] {
            #expect(vouches(path), "\(path)")
        }
        for path in [
            "projects/p/rounds/0001/round.md", "projects/p/rounds/0001", "projects/p/rounds/0001/", "projects/p/rounds/0002/votes/b.yml",
            "projects/p/rounds/0001/.notes", "projects/p/rounds/0001/votes/.b.yml", "projects/p/rounds/0001/images/.thumbs/a.png",
            "projects/p/project.md", "projects/q-2/rounds/0001/votes/b.yml", "projects/q/rounds/0010/votes/b.yml",
            "users/projects/p/rounds/0001/votes/b.yml", "projects/p/rounds/00010/votes/b.yml", "prolific.yml",
            "projects/p/rounds/0001/votes/c.yml", "projects/p/rounds/0001/votes/b.ym", "projects/p/rounds/0001/votes/b.yml2",
            "projects/q-2/rounds/0010/x", "projects/p/rounds/0001/votes",
        ] {
            #expect(!vouches(path), "\(path)")
        }
        #expect(!Array("projects/p/rounds/0001/votes/b.yml".utf8).withUnsafeBufferPointer { SealedRounds.empty.vouchesFor($0, last: &last) })
    }

    /// The rounds a content's seals vouch for: closed with a seal. Not a round closed before
    /// seals existed, nor a seal on a round that is open (a hand edit `check` would question).
    @Test func onlyClosedRoundsWithASealVouch() {
        let seal = Seal(digest: String(repeating: "0", count: 64), files: [Seal.File(path: "votes/b.yml", digest: String(repeating: "1", count: 64))])
        func round(_ number: Int, closed: Bool, sealed: Bool) -> Round {
            Round(
                number: Make.number(number), opened: Make.time("2026-01-01T00:00:00Z"), closes: Make.time("2026-01-08T00:00:00Z"),
                closed: closed ? Make.time("2026-01-08T00:00:00Z") : nil, seal: sealed ? seal : nil, origin: Origin(path: ""))
        }
        let project = Project(
            slug: Make.slug("p"), title: "P", owner: Make.handle("ann"), created: Make.time("2025-12-01T00:00:00Z"), roundLimit: 5,
            roundLength: Make.span("7d"), starter: "Once.",
            rounds: [round(1, closed: true, sealed: true), round(2, closed: true, sealed: false), round(3, closed: false, sealed: true)],
            origin: Origin(path: ""))
        let sealed = SealedRounds(Content(config: Config.defaults(), users: [:], projects: [project]))
        var last: SealedRounds.Cursor = ([], nil)
        let vouched = (1...3).map { number in
            Array("projects/p/rounds/000\(number)/votes/b.yml".utf8).withUnsafeBufferPointer { sealed.vouchesFor($0, last: &last) }
        }
        #expect(vouched == [true, false, false])
        #expect(sealed.count == 1)
        // Round 1 has no record: its votes folder is not vouched for; with one, it is.
        func votesVouched(_ sealed: SealedRounds) -> [Bool] {
            (1...3).map { number in
                Array("projects/p/rounds/000\(number)/votes".utf8).withUnsafeBufferPointer { sealed.vouchesForFolder($0, last: &last) }
            }
        }
        #expect(votesVouched(sealed) == [false, false, false])
        var recorded = project
        for r in recorded.rounds.indices { recorded.rounds[r].recordedBallots = [] }
        #expect(votesVouched(SealedRounds(Content(config: Config.defaults(), users: [:], projects: [recorded]))) == [true, false, false])
    }

    /// Which folders are vouched for: the votes folder of a sealed round counted from its record,
    /// by its exact path; no other folder, and no votes folder of another round.
    @Test func aRecordedRoundsVotesFolderIsTheOnlyFolderVouchedFor() {
        let sealed = SealedRounds(
            listing: [("p/rounds/0001", ["votes/b.yml"]), ("p/rounds/0002", ["votes/b.yml"])], countingRecords: ["p/rounds/0001"])
        var last: SealedRounds.Cursor = ([], nil)
        func vouches(_ path: String) -> Bool {
            Array(path.utf8).withUnsafeBufferPointer { sealed.vouchesForFolder($0, last: &last) }
        }
        #expect(vouches("projects/p/rounds/0001/votes"))
        for path in [
            "projects/p/rounds/0002/votes", "projects/p/rounds/0001/submissions", "projects/p/rounds/0001", "projects/p/rounds/0001/votes/",
            "projects/p/rounds/0001/votes/x", "projects/p/rounds/0001/xvotes", "projects/p/rounds/0003/votes", "projects/p/votes",
            "users/projects/p/rounds/0001/votes", "projects/p/rounds/0001/images/votes", "projects//votes", "projects/votes",
        ] {
            #expect(!vouches(path), "\(path)")
        }
        #expect(!Array("projects/p/rounds/0001/votes".utf8).withUnsafeBufferPointer { SealedRounds.empty.vouchesForFolder($0, last: &last) })
    }
}
