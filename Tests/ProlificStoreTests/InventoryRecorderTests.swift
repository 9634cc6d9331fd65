import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A build takes the content's inventory as it reads the files (`InventoryRecorder`): it must be
/// the inventory `FileInventory.take` gives, entry for entry, whatever the folders hold.
@Suite struct InventoryRecorderTests {
    /// Two projects with closed and open rounds, and what reading leaves alone or gives up on: a
    /// dot file, an image and an unexpected folder in a round, and a project whose project.md
    /// doesn't parse (reading stops before listing its folder).
    func world() throws -> Playground {
        let world = try ProjectCacheTests().world()
        let round = "Content/projects/moon/rounds/0001"
        try world.directory.write("", to: "\(round)/votes/.keep")
        try world.directory.write("not really a picture", to: "\(round)/submissions/photo.png")
        try world.directory.write("stray", to: "\(round)/extra/deeper/note.txt")
        try world.directory.write("---\ntitle: [unclosed\n---\nBroken.\n", to: "Content/projects/broken/project.md")
        try world.directory.write("draft", to: "Content/projects/broken/rounds/0001/notes.txt")
        return world
    }

    /// The world without what keeps its projects out of the cache (the broken project, the stray
    /// folder, the image that isn't one), read once with a cache, which then keeps every project.
    func readOnce() throws -> (
        world: Playground, cache: ProjectCache, content: Content?, problems: [Diagnostic], inventory: FileInventory
    ) {
        let world = try world()
        let cache = try #require(ProjectCache(layout: ContentLayout(root: world.root), inventory: nil, binary: "1 2 3"))
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/broken")
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/moon/rounds/0001/extra")
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/moon/rounds/0001/submissions/photo.png")
        let (content, problems, inventory) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        return (world, cache, content, problems, try #require(inventory))
    }

    /// What `FileInventory.take` gives, but for the `votes/` folders of sealed rounds with a
    /// record, taken by their own entries alone: a build leaves them unread
    /// (`InventoryRecorder.leaveUnread`, `BallotRecordTests`).
    func taken(_ world: Playground, racyAfter: Int64) throws -> FileInventory {
        let layout = ContentLayout(root: world.root)
        var unread: [String: [String]] = [:]
        for project in world.reader.loadAll().0?.projects ?? [] {
            for round in project.rounds where round.seal != nil && round.recordedBallots != nil {
                let folder = String(layout.votesFolder(project.slug, round.number).dropFirst(world.root.count + 1))
                unread["projects/\(project.slug)", default: []].append(folder + "/")
            }
        }
        let (root, leftUnread) = (world.root, unread)
        return try #require(
            FileInventory.take(of: root, skipping: [".prolific", ".git"], racyAfter: racyAfter) { path, _ in
                guard let folders = leftUnread[String(decoding: path, as: UTF8.self)],
                    let walked = FileInventory.walk(root, path, racyAfter: racyAfter)
                else { return nil }
                var part = FileInventory(root: root, skipping: [])
                var start = walked.paths.startIndex
                for stamp in walked.stamps {
                    guard let end = walked.paths[start...].firstIndex(of: 0) else { return nil }
                    let entry = Array(walked.paths[start..<end])
                    start = end + 1
                    let text = String(decoding: entry, as: UTF8.self)
                    if !folders.contains(where: { text.hasPrefix($0) }) { part.add(entry, stamp, racyAfter: racyAfter) }
                }
                return (part.asPart, nil)
            })
    }

    /// Every entry, as `FileInventory.take` walks them.
    func walkedWhole(_ world: Playground) throws -> FileInventory {
        try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
    }

    @Test func readingRecordsTheInventoryTakeGives() throws {
        let world = try world()
        let (content, problems, inventory) = world.reader.loadAllTakingInventory(cache: nil, racyAfter: .max)
        #expect(try #require(inventory) == taken(world, racyAfter: .max))
        // The content and problems are those of reading alone.
        let (plain, plainProblems) = world.reader.loadAll()
        #expect(content == plain)
        #expect(problems.sorted() == plainProblems.sorted())
        #expect(!problems.isEmpty, "the broken project and the stray folder are reported")
    }

    @Test func racyEntriesAreRecordedAsTakeRecordsThem() throws {
        let world = try world()
        let (_, _, inventory) = world.reader.loadAllTakingInventory(cache: nil, racyAfter: 0)
        #expect(try #require(inventory) == taken(world, racyAfter: 0))
    }

    /// Projects kept in the cache are stat-ed, not read: the same inventory and content, and a
    /// project edited since is read again.
    @Test func projectsFromTheCacheGiveTheSameInventoryAndContent() throws {
        let world = try world()
        let layout = ContentLayout(root: world.root)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "1 2 3"))
        // Nothing is kept while the content has an error: the broken project, the stray folder and
        // the image that isn't one go first (moon keeps its dot file and a real image).
        _ = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(!FileManager.default.fileExists(atPath: "\(world.root)/.prolific/projects/sun.cache"))
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/broken")
        try FileManager.default.removeItem(atPath: "\(world.root)/projects/moon/rounds/0001/extra")
        try world.directory.writeImage(to: "Content/projects/moon/rounds/0001/submissions/photo.png")
        let (first, problems, _) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(problems.filter { $0.severity == .error } == [])
        #expect(FileManager.default.fileExists(atPath: "\(world.root)/.prolific/projects/sun.cache"))
        #expect(FileManager.default.fileExists(atPath: "\(world.root)/.prolific/projects/moon.cache"))
        let (second, _, inventory) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(second == first)
        #expect(try #require(inventory) == taken(world, racyAfter: .max))

        let snippet = "\(world.root)/projects/sun/rounds/0001/submissions/ann-20261102000000.md"
        try (String(contentsOfFile: snippet, encoding: .utf8) + "Edited.\n").write(toFile: snippet, atomically: false, encoding: .utf8)
        let (edited, _, after) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(try #require(after) == taken(world, racyAfter: .max))
        let sun = edited?.projects.first { $0.slug == Make.slug("sun") }
        let body = sun?.rounds.first?.submission(Make.id("ann-20261102000000"))?.body
        #expect(body == "A *b*.\nEdited.")
    }

    /// A rebuild checks a kept project by stat-ing the paths the last inventory recorded under
    /// its folder: the same part as a walk while nothing changed, none once anything did.
    @Test func recordedPartsAreTakenOnlyWhileUnchanged() throws {
        let world = try world()
        let recorded = try #require(RecordedParts(walkedWhole(world), of: world.root))
        let root = open(world.root, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        func part(_ path: String) -> FileInventory.Part? { recorded.unchangedPart(Array(path.utf8), root: root) }
        func walked(_ path: String) -> FileInventory.Part? { FileInventory.walk(world.root, Array(path.utf8), racyAfter: .max)?.asPart }
        for project in ["projects/moon", "projects/sun", "projects/broken"] {
            let taken = part(project)
            #expect(taken != nil && taken == walked(project), "\(project)")
        }
        #expect(part("projects/none") == nil)
        #expect(part("users") == nil, "files of the first two levels are no part")

        try world.directory.write("", to: "Content/projects/sun/rounds/0001/votes/.new")
        #expect(part("projects/sun") == nil, "an entry added")
        #expect(part("projects/moon") != nil)
        let snippet = "\(world.root)/projects/moon/rounds/0001/submissions/ann-20261105000000.md"
        let handle = try #require(FileHandle(forWritingAtPath: snippet))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("More.".utf8))
        try handle.close()
        #expect(part("projects/moon") == nil, "a file written in place")
        #expect(part("projects/broken") != nil)
    }

    /// The parts of a stamp of `world` saved with `sealed`, as the next build takes them
    /// (`RecordedParts`).
    func recordedParts(_ world: Playground, sealed: SealedRounds) throws -> RecordedParts {
        let site = try TemporaryDirectory()
        BuildStamp(
            key: ["k"], content: try taken(world, racyAfter: .max), sealed: sealed, templates: nil,
            site: try #require(FileInventory.take(of: site.path, skipping: [], racyAfter: .max)), pages: 0, files: 0
        ).save(ContentLayout(root: world.root))
        let inventory = try #require(BuildStamp.Saved(ContentLayout(root: world.root))?.decoded()).content
        return try #require(RecordedParts(inventory, of: world.root))
    }

    /// A file a round's seal vouched for when the last build recorded it (its stamp marks it)
    /// is checked by its folders alone, as a no-op checks it: written in place, its project's
    /// part is still the recorded one; a file the seal doesn't list, written in place, or a
    /// file added beside the sealed one, still gives none.
    @Test func recordedPartsCheckSealedFilesByTheirFolders() throws {
        let round = "Content/projects/moon/rounds/0001"
        let sealed = "\(round)/submissions/ann-20261105000000.md"
        for change in ["sealed file in place", "unsealed file in place", "file added beside"] {
            let world = try world()
            let recorded = try recordedParts(
                world, sealed: SealedRounds(listing: [("moon/rounds/0001", ["submissions/ann-20261105000000.md"])]))
            let root = open(world.root, O_RDONLY | O_DIRECTORY)
            defer { close(root) }
            func part(_ path: String) -> FileInventory.Part? { recorded.unchangedPart(Array(path.utf8), root: root) }
            let before = try #require(part("projects/moon"))
            // Past the clock's tick, so that a folder's times can move.
            Thread.sleep(forTimeInterval: 0.02)
            switch change {
            case "sealed file in place": try world.directory.writeInPlace("Tampered.\n", to: sealed)
            case "unsealed file in place": try world.directory.writeInPlace("Tampered.\n", to: "\(round)/round.md")
            default: try world.directory.write("More.\n", to: "\(round)/submissions/bea-20261105000000.md")
            }
            if change == "sealed file in place" {
                #expect(part("projects/moon") == before, "\(change)")
            } else {
                #expect(part("projects/moon") == nil, "\(change)")
            }
            #expect(part("projects/sun") != nil, "\(change)")
        }
    }

    /// A recorded round's votes folder, vouched for, is taken as recorded by its round's folder,
    /// and vouches for the sealed files in it: a project whose walk took those files (moon's round
    /// 1, here standing for a sealed and recorded round) is still its recorded part, and a ballot
    /// added in that folder is not looked at.
    @Test func aRecordedRoundsVotesFolderVouchesForItsSealedBallots() throws {
        let round = "Content/projects/moon/rounds/0001"
        let world = try world()
        let recorded = try recordedParts(
            world,
            sealed: SealedRounds(
                listing: [("moon/rounds/0001", ["submissions/ann-20261105000000.md", "votes/cat.yml"])],
                countingRecords: ["moon/rounds/0001"]))
        let root = open(world.root, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        func part(_ path: String) -> FileInventory.Part? { recorded.unchangedPart(Array(path.utf8), root: root) }
        let before = try #require(part("projects/moon"))
        Thread.sleep(forTimeInterval: 0.02)
        try world.directory.write("voter: dan\n", to: "\(round)/votes/dan.yml")
        #expect(part("projects/moon") == before)
    }

    /// A rebuild's stamp vouches for a kept project's files as the last stamp did: what that
    /// stamp vouched for comes with the project's recorded part (`vouchedAsRecorded`), and the
    /// sealed rounds of kept projects are not listed again.
    @Test func aRebuildsStampVouchesForKeptProjectsAsTheLastOneDid() throws {
        let world = try ProjectCacheTests().world()
        let layout = ContentLayout(root: world.root)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "1 2 3"))
        _ = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        let site = try TemporaryDirectory()
        let siteInventory = try #require(FileInventory.take(of: site.path, skipping: [], racyAfter: .max))
        let sealedFile = "projects/moon/rounds/0001/submissions/ann-20261105000000.md"
        BuildStamp(
            key: ["k"], content: try taken(world, racyAfter: .max),
            sealed: SealedRounds(listing: [("moon/rounds/0001", ["submissions/ann-20261105000000.md"])]), templates: nil,
            site: siteInventory, pages: 0, files: 0
        ).save(layout)
        func vouchedFor() throws -> Set<String> {
            let content = try #require(BuildStamp.Saved(layout)?.decoded()).content
            var paths: Set<String> = [], index = 0
            content.forEachEntry { path, _ in
                index += 1
                if content.vouched[index] { paths.insert(String(decoding: path, as: UTF8.self)) }
            }
            return paths
        }
        #expect(try vouchedFor() == [sealedFile])
        // A rebuild after a change in sun: moon is kept as recorded, sun is read.
        let recorded = try #require(BuildStamp.Saved(layout)?.decoded()).content
        let parts = try #require(RecordedParts(recorded, of: world.root))
        _ = try world.game("2026-11-05T02:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "S.")
        let (content, _, retaken) = world.reader.loadAllTakingInventory(cache: cache, recorded: parts, racyAfter: .max)
        let inventory = try #require(retaken)
        #expect(inventory.isAsRecorded("projects/moon"))
        #expect(!inventory.isAsRecorded("projects/sun"))
        // sun's closed round is listed from its seal; moon's round is not listed again.
        let sealed = SealedRounds(try #require(content)) { !inventory.isAsRecorded("projects/\($0)") }
        #expect(sealed.count == 1)
        BuildStamp(key: ["k"], content: inventory, sealed: sealed, templates: nil, site: siteInventory, pages: 0, files: 0).save(layout)
        let vouched = try vouchedFor()
        #expect(vouched.contains(sealedFile))
        #expect(vouched.subtracting([sealedFile]).allSatisfy { $0.hasPrefix("projects/sun/rounds/0001/") })
        #expect(vouched.contains("projects/sun/rounds/0001/submissions/ann-20261102000000.md"))
    }

    /// A rebuild's stamp copies the chunks of each project taken as the last stamp recorded it,
    /// and encodes the others: the stamp is then what encoding every entry gives, byte for byte,
    /// and decodes to the inventory a walk takes.
    @Test func aRebuildsStampCopiesTheChunksOfProjectsAsRecorded() throws {
        let world = try ProjectCacheTests().world()
        let layout = ContentLayout(root: world.root)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "1 2 3"))
        let (_, _, first) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        let site = try TemporaryDirectory()
        let siteInventory = try #require(FileInventory.take(of: site.path, skipping: [], racyAfter: .max))
        func save(_ inventory: FileInventory) {
            BuildStamp(key: ["k"], content: inventory, templates: nil, site: siteInventory, pages: 0, files: 0).save(layout)
        }
        func encoded(_ inventory: FileInventory) -> [UInt8] {
            BuildStamp.EncodedInputs(key: ["k"], content: inventory, templates: nil).bytes
        }
        save(try #require(first))
        // Nothing changed: both projects' chunks are copied.
        let recorded = try #require(BuildStamp.Saved(layout)?.decoded()).content
        let (_, _, retaken) = world.reader.loadAllTakingInventory(
            cache: cache, recorded: RecordedParts(recorded, of: world.root), racyAfter: .max)
        let kept = try #require(retaken)
        #expect(kept.segments().count == 3, "the first two levels, moon, sun")
        #expect(kept.segments().dropFirst().allSatisfy { $0.copied != nil })
        #expect(encoded(kept) == encoded(try #require(first)))
        // sun changed: its chunks are encoded again, moon's copied.
        _ = try world.game("2026-11-05T02:00:00Z").submit(to: Make.slug("sun"), by: Make.handle("cat"), ending: false, body: "S.")
        let (_, _, after) = world.reader.loadAllTakingInventory(
            cache: cache, recorded: RecordedParts(recorded, of: world.root), racyAfter: .max)
        let changed = try #require(after)
        let copied = changed.segments().map { $0.copied != nil }
        #expect(copied == [false, true, false])
        #expect(encoded(changed) == encoded(try taken(world, racyAfter: .max)))
        save(changed)
        #expect(try #require(BuildStamp.Saved(layout)?.decoded()).content == taken(world, racyAfter: .max))
    }

    /// The last build's record serves however the content folder is spelt, and only that folder.
    @Test func recordedPartsServeAnotherSpellingOfTheSameFolder() throws {
        let world = try world()
        let inventory = try walkedWhole(world)
        let spelt = world.root + "/./projects/.."
        let recorded = try #require(RecordedParts(inventory, of: spelt))
        let root = open(spelt, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        let part = try #require(recorded.unchangedPart(Array("projects/sun".utf8), root: root))
        #expect(part == FileInventory.walk(world.root, Array("projects/sun".utf8), racyAfter: .max)?.asPart)
        let other = try TemporaryDirectory()
        #expect(RecordedParts(inventory, of: other.path) == nil)
    }

    /// The keys the last build worked out of a project's folder are taken with its part only
    /// while the folder's own entry is as recorded too: an entry added right in the folder
    /// moves only the folder's times, and leaves every recorded entry under it as it was.
    @Test func recordedKeysGoWithAPartOnlyWhileItsFolderIsAsRecorded() throws {
        let world = try world()
        let marked = SubtreeKeys(
            key: Array(repeating: 7, count: 32), leftOut: SubtreeKeys.LeftOut(path: "projects/sun/rounds/0002/votes", digest: "marked"))
        let recorded = try #require(
            RecordedParts(taken(world, racyAfter: .max), of: world.root, keys: ["projects/sun": marked, "projects/moon": marked]))
        let root = open(world.root, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        let path = Array("projects/sun".utf8)
        let own = try #require(FileInventory.stamp("\(world.root)/projects/sun"))
        let found = try #require(recorded.unchanged(path, own: own, root: root))
        #expect(found.keys == marked)
        #expect(found.part == recorded.unchangedPart(path, root: root))
        #expect(try #require(recorded.unchanged(path, own: .never, root: root)).keys == nil, "a racy folder")
        // No keys were recorded for a folder the last build gave none.
        let bare = try #require(RecordedParts(taken(world, racyAfter: .max), of: world.root))
        #expect(try #require(bare.unchanged(path, own: own, root: root)).keys == nil)

        try world.directory.write("new", to: "Content/projects/sun/notes.txt")
        let moved = try #require(FileInventory.stamp("\(world.root)/projects/sun"))
        #expect(moved != own)
        let after = try #require(recorded.unchanged(path, own: moved, root: root), "every recorded entry under it is unchanged")
        #expect(after.keys == nil)
        // A part that changed comes with nothing.
        try world.directory.write("more", to: "Content/projects/moon/rounds/0001/votes/.keep")
        let moon = try #require(FileInventory.stamp("\(world.root)/projects/moon"))
        #expect(recorded.unchanged(Array("projects/moon".utf8), own: moon, root: root) == nil)
    }

    /// A rebuild given the last build's keys takes them for each project found as recorded: the
    /// digest leaving its ballots out is the one recorded for that very path (another path's is
    /// worked out), and a key that is not the files' is worked out again.
    @Test func aRebuildTakesTheRecordedKeysOfProjectsAsRecorded() throws {
        let (world, cache, first, _, inventory) = try readOnce()
        let votes = "projects/sun/rounds/0001/votes"
        var keys: [String: SubtreeKeys] = [:]
        for slug in ["moon", "sun"] {
            keys["projects/\(slug)"] = SubtreeKeys(
                key: try #require(inventory.subtreeKey("projects/\(slug)")),
                leftOut: SubtreeKeys.LeftOut(path: votes, digest: "recorded for \(slug)"))
        }
        let parts = try #require(RecordedParts(inventory, of: world.root, keys: keys))
        let (again, _, retaken) = world.reader.loadAllTakingInventory(cache: cache, recorded: parts, racyAfter: .max)
        #expect(again == first)
        let taken = try #require(retaken)
        #expect(taken == inventory)
        #expect(taken.subtreeDigest("projects/sun", leavingOut: votes) == "recorded for sun")
        let other = "projects/sun/rounds/0001/submissions"
        #expect(taken.subtreeDigest("projects/sun", leavingOut: other) == inventory.subtreeDigest("projects/sun", leavingOut: other))
        #expect(inventory.subtreeDigest("projects/sun", leavingOut: votes) != "recorded for sun")

        // A key that is not the files' finds no cache entry: the project is read from its files.
        keys["projects/sun"]?.key = Array(repeating: 1, count: 32)
        let wrong = try #require(RecordedParts(inventory, of: world.root, keys: keys))
        let (read, _, rewalked) = world.reader.loadAllTakingInventory(cache: cache, recorded: wrong, racyAfter: .max)
        #expect(read == first)
        #expect(rewalked?.subtreeKey("projects/sun") == inventory.subtreeKey("projects/sun"))
        #expect(rewalked?.subtreeDigest("projects/sun", leavingOut: votes) == inventory.subtreeDigest("projects/sun", leavingOut: votes))
    }

    /// A rebuild whose inventory comes from the last one reads what changed and nothing else,
    /// and records what a walk would.
    @Test func aRebuildFromTheRecordedInventoryReadsWhatChanged() throws {
        let (world, cache, first, problems, inventory) = try readOnce()
        #expect(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        let parts = try #require(RecordedParts(inventory, of: world.root))
        let (again, _, retaken) = world.reader.loadAllTakingInventory(cache: cache, recorded: parts, racyAfter: .max)
        #expect(again == first)
        let before = try taken(world, racyAfter: .max)
        #expect(try #require(retaken) == before)

        let snippet = "\(world.root)/projects/sun/rounds/0001/submissions/ann-20261102000000.md"
        try (String(contentsOfFile: snippet, encoding: .utf8) + "Edited.\n").write(toFile: snippet, atomically: false, encoding: .utf8)
        let (edited, _, after) = world.reader.loadAllTakingInventory(cache: cache, recorded: parts, racyAfter: .max)
        #expect(try #require(after) == taken(world, racyAfter: .max))
        let sun = edited?.projects.first { $0.slug == Make.slug("sun") }
        #expect(sun?.rounds.first?.submission(Make.id("ann-20261102000000"))?.body == "A *b*.\nEdited.")
        // The keys the loader worked out as it went (a kept project's to find its cache entry,
        // a read one's to keep it) are kept with the inventory, and are the keys of a walk's.
        let now = try taken(world, racyAfter: .max)
        for (loaded, walked) in [(retaken, before), (after, now)] {
            for slug in ["moon", "sun"] {
                let key = try #require(walked.subtreeKey("projects/\(slug)"))
                #expect(walked.keyGivenByWalker("projects/\(slug)") == nil)
                #expect(loaded?.keyGivenByWalker("projects/\(slug)") == key)
                #expect(loaded?.subtreeKey("projects/\(slug)") == key)
                #expect(loaded?.subtreeDigest("projects/\(slug)") == RoundSeal.hex(key))
            }
        }
    }
}
