import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// `FileInventory`: any write, addition, removal or rename under the folder is seen; what it
/// skips is not; a file written just before the inventory never counts as unchanged.
@Suite struct FileInventoryTests {
    /// A small content-like tree, and its inventory with no racy window (files here are new).
    func tree() throws -> (TemporaryDirectory, FileInventory) {
        let folder = try TemporaryDirectory()
        try folder.write("title: T\n", to: "prolific.yml")
        try folder.write("name: Ann\n", to: "users/ann.md")
        try folder.write("---\ntitle: Moon\n---\nOnce.\n", to: "projects/moon/project.md")
        try folder.write("a snippet\n", to: "projects/moon/rounds/0001/submissions/ann-20260101000000.md")
        try folder.write("cache\n", to: ".prolific/history.cache")
        let inventory = try #require(FileInventory.take(of: folder.path, skipping: [".prolific"], racyAfter: .max))
        // File times come from a clock that ticks every few milliseconds: let it move on, so a
        // change below gets a time of its own.
        Thread.sleep(forTimeInterval: 0.05)
        return (folder, inventory)
    }

    /// A stamp made into a `stat` (`Stamp.info`, how a rebuild hands on a folder's recorded
    /// metadata without looking at it) gives the same stamp back, and valid times, those
    /// before 1970 included; a racy entry's stamp has none.
    @Test func aStampMadeIntoAStatGivesItselfBack() throws {
        var info = stat()
        #expect(lstat(FileManager.default.temporaryDirectory.path, &info) == 0)
        let stamps = [
            FileInventory.Stamp(info),
            FileInventory.Stamp(kind: Int64(S_IFDIR), inode: 7, size: 4096, modified: -1, changed: -1_999_999_999),
            FileInventory.Stamp(kind: Int64(S_IFREG), inode: -3, size: 0, modified: 1_700_000_000_123_456_789, changed: 0),
        ]
        for stamp in stamps {
            let made = try #require(stamp.info)
            #expect(FileInventory.Stamp(made) == stamp)
            // A valid `timespec`: the nanoseconds are never negative.
            #expect((0..<1_000_000_000).contains(made.st_mtim.tv_nsec) && (0..<1_000_000_000).contains(made.st_ctim.tv_nsec))
        }
        #expect(FileInventory.Stamp.never.info == nil)
    }

    @Test func anUntouchedTreeIsUnchanged() throws {
        let (folder, inventory) = try tree()
        #expect(inventory.count == 11, "the root, 4 files and 6 folders below it (not .prolific/)")
        #expect(inventory.isUnchanged())
        _ = folder
    }

    @Test func aWriteOfTheSameSizeIsSeenEvenWithTheOldTimePutBack() throws {
        let (folder, inventory) = try tree()
        let path = folder.path("projects/moon/rounds/0001/submissions/ann-20260101000000.md")
        let old = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try folder.write("a snippeT\n", to: "projects/moon/rounds/0001/submissions/ann-20260101000000.md")
        try FileManager.default.setAttributes([.modificationDate: try #require(old)], ofItemAtPath: path)
        #expect(!inventory.isUnchanged(), "the change time moved, though size and mtime are the old ones")
    }

    @Test func anAddedRemovedOrRenamedFileIsSeen() throws {
        for change in ["add", "remove", "rename", "folder"] {
            let (folder, inventory) = try tree()
            switch change {
            case "add": try folder.write("x\n", to: "projects/moon/rounds/0001/submissions/bob-20260101000000.md")
            case "remove": try FileManager.default.removeItem(atPath: folder.path("users/ann.md"))
            case "rename": try FileManager.default.moveItem(atPath: folder.path("users/ann.md"), toPath: folder.path("users/anne.md"))
            default: try FileManager.default.createDirectory(atPath: folder.path("projects/sun"), withIntermediateDirectories: false)
            }
            #expect(!inventory.isUnchanged(), "\(change)")
        }
    }

    /// Inventories checked together (a build's content, templates and site) are unchanged only
    /// when each is: a change in any one of them, a file or a new top-level entry, is seen.
    @Test func inventoriesCheckedTogetherSeeAChangeInAnyOfThem() throws {
        for change in ["none", "first", "second", "top"] {
            let (first, one) = try tree()
            let (second, two) = try tree()
            switch change {
            case "first": try first.write("name: Anne\n", to: "users/ann.md")
            case "second": try second.write("name: Anne\n", to: "users/ann.md")
            case "top": try second.write("x\n", to: "reports/r.md")
            default: break
            }
            #expect(FileInventory.areUnchanged([one, two]) == (change == "none"), "\(change)")
            #expect(FileInventory.areUnchanged([two, one]) == (change == "none"), "\(change), the other way round")
        }
    }

    @Test func skippedFoldersAreNotLookedAt() throws {
        let (folder, inventory) = try tree()
        try folder.write("another cache\n", to: ".prolific/history.cache")
        try folder.write("new\n", to: ".prolific/build.stamp")
        #expect(inventory.isUnchanged())
        try FileManager.default.removeItem(atPath: folder.path(".prolific"))
        #expect(inventory.isUnchanged(), "even made or removed: the root's times are not compared")
        try folder.write("x\n", to: "reports/r.md")
        #expect(!inventory.isUnchanged(), "but a new top-level entry is seen")
    }

    @Test func aLinkIsRecordedNotFollowed() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret\n", to: "secret.txt")
        try folder.write("name: Ann\n", to: "users/ann.md")
        try FileManager.default.createSymbolicLink(atPath: folder.path("users/link"), withDestinationPath: outside.path)
        let inventory = try #require(FileInventory.take(of: folder.path, skipping: [], racyAfter: .max))
        #expect(inventory.count == 4, "root, users/, ann.md and the link itself")
        Thread.sleep(forTimeInterval: 0.05)
        try outside.write("changed\n", to: "secret.txt")
        #expect(inventory.isUnchanged(), "what a link leads to is not content")
    }

    @Test func entriesWrittenJustBeforeTheInventoryNeverCountAsUnchanged() throws {
        let folder = try TemporaryDirectory()
        try folder.write("name: Ann\n", to: "users/ann.md")
        let racy = try #require(FileInventory.take(of: folder.path))
        #expect(!racy.isUnchanged(), "written less than two seconds ago: it could still change within its clock tick")
        let settled = try #require(FileInventory.take(of: folder.path, guardingRacyWrites: false))
        #expect(settled.isUnchanged())
    }

    @Test func aMissingOrNonFolderRootHasNoInventory() throws {
        let folder = try TemporaryDirectory()
        try folder.write("x\n", to: "file")
        #expect(FileInventory.take(of: folder.path("missing")) == nil)
        #expect(FileInventory.take(of: folder.path("file")) == nil)
    }

    /// The compact form keeps every kind of entry (racy ones, links), numbers of any size and
    /// sign (an inode lower than the one before, a time before 1970), paths that share nothing
    /// or everything with the one before, and takes a fraction of the bytes it holds.
    @Test func itsCompactFormKeepsEveryEntryInAFractionOfTheBytes() throws {
        let (folder, inventory) = try tree()
        try folder.write("b\n", to: "projects/moon/rounds/0001/submissions/ann-20260101000001.md")
        #expect(symlink("project.md", folder.path("projects/moon/link.md")) == 0)
        let racy = try #require(FileInventory.take(of: folder.path, skipping: [".prolific"], racyAfter: 0))
        func info(_ kind: mode_t, inode: UInt64, size: Int, seconds: Int) -> stat {
            var info = stat()
            info.st_mode = kind
            info.st_ino = __ino_t(inode)
            info.st_size = size
            info.st_mtim = timespec(tv_sec: seconds, tv_nsec: 999_999_999)
            info.st_ctim = timespec(tv_sec: seconds - 5, tv_nsec: 0)
            return info
        }
        let made = try #require(
            FileInventory(
                root: "/somewhere",
                written: [
                    ("", info(S_IFDIR, inode: .max, size: 4096, seconds: 0)),
                    ("a", info(S_IFDIR, inode: 1, size: 0, seconds: -86_400)),
                    ("a/b", info(S_IFREG, inode: 1 << 62, size: .max, seconds: 2_000_000_000)),
                    ("a/bc", info(S_IFLNK, inode: 7, size: 3, seconds: 1)),
                    ("z", info(S_IFREG, inode: 6, size: 0, seconds: 1)),
                ]))
        for original in [inventory, racy, made, try #require(FileInventory.take(of: folder.path, skipping: [], racyAfter: .max))] {
            var writer = BinaryWriter()
            original.encode(into: &writer)
            var reader = BinaryReader(writer.bytes)
            let decoded = try #require(FileInventory.decode(from: &reader))
            #expect(decoded == original && reader.isAtEnd)
        }
        #expect(!racy.isUnchanged(), "racy entries stay racy")

        // Many entries as a content directory has them: a fraction of 40 bytes of numbers and a
        // path of 40 each.
        var entries: [(path: String, info: stat)] = [("", info(S_IFDIR, inode: 2, size: 4096, seconds: 1_700_000_000))]
        for p in 0..<20 {
            for v in 0..<50 {
                let path = "projects/p\(p)/rounds/0001/votes/u\(1000 + v).yml"
                entries.append((path, info(S_IFREG, inode: UInt64(5000 + p * 60 + v), size: 60 + v, seconds: 1_700_000_000 + v * 37)))
            }
        }
        let large = try #require(FileInventory(root: "/content", written: entries))
        var writer = BinaryWriter()
        large.encode(into: &writer)
        #expect(writer.bytes.count < entries.count * 80 / 3, "\(writer.bytes.count) bytes for \(entries.count) entries")
        var reader = BinaryReader(writer.bytes)
        #expect(FileInventory.decode(from: &reader) == large)
        // Bytes changed anywhere decode to nil or to some inventory, never a trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var bytes = writer.bytes
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            var corrupt = BinaryReader(bytes)
            _ = FileInventory.decode(from: &corrupt)
        }
    }

    /// A written site's entries come in the order the writer met them: the inventory holds them
    /// in path order whatever that was (each half is sorted on a core of its own, then merged),
    /// every one once.
    @Test func writtenEntriesAreKeptInPathOrderWhateverTheirOrder() throws {
        func info(_ index: Int) -> stat {
            var info = stat()
            info.st_mode = index % 7 == 0 ? S_IFDIR : S_IFREG
            info.st_ino = __ino_t(10_000 + index)
            info.st_size = index
            info.st_mtim = timespec(tv_sec: 1_700_000_000 + index, tv_nsec: 0)
            info.st_ctim = timespec(tv_sec: 1_700_000_000 + index, tv_nsec: 0)
            return info
        }
        var entries: [(path: String, info: stat)] = []
        for index in 0..<1_001 {
            // Names that sort otherwise as bytes than as numbers, and a shared prefix.
            entries.append(("p\(index % 13)/r\(index)\(index % 2 == 0 ? ".html" : "/index.html")", info(index)))
        }
        let ordered = entries.sorted { FileInventory.precedes(Array($0.path.utf8), Array($1.path.utf8)) }
        var random = FlatYAMLTests.SplitMix(seed: 7)
        var shuffled = entries
        for index in shuffled.indices.reversed() { shuffled.swapAt(index, random.next(index + 1)) }
        var inventories: [FileInventory] = []
        for given in [ordered, Array(ordered.reversed()), shuffled, [ordered[0]]] {
            let root: (path: String, info: stat) = ("", info(0))
            inventories.append(try #require(FileInventory(root: "/site", written: [root] + given)))
        }
        var paths: [String] = []
        inventories[2].forEachEntry { path, _ in paths.append(String(decoding: path, as: UTF8.self)) }
        let expected = ordered.map(\.path)
        let differs = paths.indices.first { $0 >= expected.count || paths[$0] != expected[$0] }
        #expect(paths.count == expected.count && differs == nil, "\(paths.count) paths, the first out of place at \(differs.map(String.init) ?? "none")")
        #expect(inventories[0] == inventories[1] && inventories[1] == inventories[2])
        var one: [String] = []
        inventories[3].forEachEntry { path, _ in one.append(String(decoding: path, as: UTF8.self)) }
        #expect(one == [ordered[0].path])
    }

    /// Paths and stamps are written in chunks (`chunk`) a decoder takes on every core: an
    /// inventory of several chunks, the last one short, comes back whole; one cut short is
    /// refused; a byte changed in any chunk never traps.
    @Test func stampsInSeveralChunksComeBackWhole() throws {
        var entries: [(path: String, info: stat)] = []
        for index in 0..<(2 * FileInventory.chunk + 123) {
            var info = stat()
            info.st_mode = index == 0 || index % 97 == 1 ? S_IFDIR : S_IFREG
            info.st_ino = __ino_t(1_000_000 - index * 3)
            info.st_size = index % 500
            info.st_mtim = timespec(tv_sec: 1_700_000_000 + index % 1000, tv_nsec: index)
            info.st_ctim = timespec(tv_sec: 1_700_000_000 + index % 1000, tv_nsec: index + 1)
            entries.append((index == 0 ? "" : "f/\(index)", info))
        }
        let inventory = try #require(FileInventory(root: "/c", written: entries))
        var writer = BinaryWriter()
        inventory.encode(into: &writer)
        var reader = BinaryReader(writer.bytes)
        #expect(FileInventory.decode(from: &reader) == inventory && reader.isAtEnd)
        for cut in [1, 7, writer.bytes.count / 3] {
            var short = BinaryReader(Array(writer.bytes.dropLast(cut)))
            #expect(FileInventory.decode(from: &short) == nil, "\(cut) bytes short")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            var bytes = writer.bytes
            bytes[Int.random(in: (bytes.count / 2)..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            var corrupt = BinaryReader(bytes)
            _ = FileInventory.decode(from: &corrupt)
        }
    }

    /// Crafted bytes: an inventory with no entries (not even its root, which checks index from)
    /// and paths that would unfold far beyond the bytes given are refused, as are chunks whose
    /// lengths don't match what they hold.
    @Test func craftedCompactFormsAreRefused() {
        /// The inventory of `count` entries whose paths come to `length` bytes, with one chunk of
        /// paths (said to hold `entries` entries, `count` unless given, and to decode to
        /// `chunkLength` bytes, `length` unless given) then `stamps`.
        func decode(
            count: Int, length: Int, entries: Int? = nil, chunkLength: Int? = nil, paths: (inout BinaryWriter) -> Void,
            stamps: (inout BinaryWriter) -> Void = { w in w.varint(2); w.varint(0); w.varint(0) }
        ) -> FileInventory? {
            var w = BinaryWriter()
            w.string("/r")
            w.integer(0)
            w.varint(UInt64(count))
            w.varint(UInt64(length))
            var chunk = BinaryWriter()
            paths(&chunk)
            w.varint(UInt64(entries ?? count))
            w.varint(UInt64(chunk.bytes.count))
            w.varint(UInt64(chunkLength ?? length))
            w.raw(chunk.bytes)
            stamps(&w)
            var r = BinaryReader(w.bytes)
            return FileInventory.decode(from: &r)
        }
        #expect(decode(count: 0, length: 0, paths: { _ in }, stamps: { _ in }) == nil, "no root")
        // The root and "a", unrecorded (their stamps in one chunk of two bytes): well formed.
        let rootAndA: (inout BinaryWriter) -> Void = { w in
            w.varint(0)
            w.varint(0)
            w.varint(0)
            w.varint(1)
            w.raw([UInt8(ascii: "a")])
        }
        #expect(decode(count: 2, length: 3, paths: rootAndA) != nil)
        // A chunk of no entries, of fewer entries than its paths hold (the rest in no chunk), or
        // of more than the inventory has.
        #expect(decode(count: 2, length: 3, entries: 0, paths: rootAndA) == nil)
        #expect(decode(count: 2, length: 3, entries: 1, paths: rootAndA) == nil)
        #expect(decode(count: 2, length: 3, entries: 3, paths: rootAndA) == nil)
        // A chunk of stamps longer than the bytes left, longer than its stamps, or short of them.
        #expect(decode(count: 2, length: 3, paths: rootAndA) { w in w.varint(3); w.varint(0); w.varint(0) } == nil)
        #expect(decode(count: 2, length: 3, paths: rootAndA) { w in w.varint(3); w.varint(0); w.varint(0); w.varint(0) } == nil)
        #expect(decode(count: 2, length: 3, paths: rootAndA) { w in w.varint(1); w.varint(0); w.varint(0) } == nil)
        // A chunk of paths said to decode to more or fewer bytes than it does, or than all paths.
        #expect(decode(count: 2, length: 3, chunkLength: 4, paths: rootAndA) == nil)
        #expect(decode(count: 2, length: 3, chunkLength: 2, paths: rootAndA) == nil)
        #expect(decode(count: 2, length: 4, chunkLength: 4, paths: rootAndA) == nil)
        // A NUL inside a path would split it in two.
        #expect(
            decode(count: 2, length: 4) { w in
                w.varint(0)
                w.varint(0)
                w.varint(0)
                w.varint(2)
                w.raw([UInt8(ascii: "a"), 0])
            } == nil)
        // A path can't share more than the one before has.
        #expect(
            decode(count: 2, length: 3) { w in
                w.varint(0)
                w.varint(0)
                w.varint(1)
                w.varint(0)
            } == nil)
        // The root's path must be empty.
        #expect(
            decode(count: 1, length: 2, paths: { w in w.varint(0); w.varint(1); w.raw([UInt8(ascii: "a")]) }) { w in
                w.varint(1)
                w.varint(0)
            } == nil)
        // One long path, then 10,000 copies of it at three bytes each: 41 MB from 34 KB.
        let copies = 10_000
        #expect(
            decode(count: copies + 2, length: 1 + 4096 * (copies + 1)) { w in
                w.varint(0)
                w.varint(0)
                w.varint(0)
                w.varint(4095)
                w.raw([UInt8](repeating: UInt8(ascii: "a"), count: 4095))
                for _ in 0..<copies {
                    w.varint(4095)
                    w.varint(0)
                }
            } stamps: { w in
                for _ in 0..<(copies + 2) { w.varint(0) }
            } == nil)
    }

    /// A chunk holds at most `FileInventory.chunk` entries, and a file can't hold more chunks than
    /// its bytes pay for (eight each): the chunks are found before anything is decoded.
    @Test func chunksAreFoundOnlyWithinTheirLimits() {
        let count = FileInventory.chunk + 1
        /// `count` entries in chunks of `sizes` entries, three bytes each (their stamps' chunks
        /// empty), then `padding` bytes.
        func read(_ sizes: [Int], padding: Int = 0) -> FileInventory.Encoded? {
            var w = BinaryWriter()
            w.string("/r")
            w.integer(0)
            w.varint(UInt64(count))
            w.varint(UInt64(count))
            for size in sizes {
                w.varint(UInt64(size))
                w.varint(UInt64(3 * size))
                w.varint(UInt64(size))
                w.raw([UInt8](repeating: 0, count: 3 * size))
            }
            for _ in sizes { w.varint(0) }
            w.raw([UInt8](repeating: 0, count: padding))
            var r = BinaryReader(w.bytes)
            return FileInventory.Encoded.read(from: &r)
        }
        #expect(read([FileInventory.chunk, 1]) != nil)
        #expect(read([count]) == nil, "more entries than a chunk holds")
        #expect(read([FileInventory.chunk, 1], padding: 64) != nil)
        // A chunk of one entry each: 2,049 chunks of seven bytes are more than they pay for.
        #expect(read(Array(repeating: 1, count: count)) == nil)
    }

    /// A folder of more entries than a chunk holds is several chunks, copied together while it
    /// is as recorded; the stamp is then byte for byte a fresh encoding's.
    @Test func aBigFolderTakenAsRecordedHasAllItsChunksCopied() throws {
        let folder = try TemporaryDirectory()
        for index in 0..<(FileInventory.chunk + 100) { try folder.write("\(index)\n", to: "Content/projects/big/\(index).md") }
        try folder.write("small\n", to: "Content/projects/small/a.md")
        try folder.write("ann\n", to: "Content/users/ann.yml")
        // The stamp's folder is there before the first inventory, as at every rebuild.
        try folder.write("", to: "Content/.prolific/other.cache")
        let layout = ContentLayout(root: folder.path("Content"))
        let first = try #require(FileInventory.take(of: layout.root, skipping: BuildStamp.skipped, racyAfter: .max))
        let site = try #require(FileInventory.take(of: folder.path("Content/users"), skipping: [], racyAfter: .max))
        BuildStamp(key: ["k"], content: first, templates: nil, site: site, pages: 0, files: 0).save(layout)
        let recorded = try #require(BuildStamp.Saved(layout)?.decoded()).content
        let parts = try #require(RecordedParts(recorded, of: layout.root))
        let root = open(layout.root, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        let again = try #require(
            FileInventory.take(of: layout.root, skipping: BuildStamp.skipped, racyAfter: .max) { path, own in
                parts.unchanged(path, own: own, root: root).map { ($0.part, $0.keys) }
            })
        #expect(again == first)
        let segments = again.segments()
        #expect(segments.count == 3, "the first two levels, big, small")
        #expect(segments.dropFirst().map { $0.copied?.chunks.count } == [2, 1])
        func encoded(_ inventory: FileInventory) -> [UInt8] {
            BuildStamp.EncodedInputs(key: ["k"], content: inventory, templates: nil).bytes
        }
        #expect(encoded(again) == encoded(first))
    }

    /// The check of an inventory in place (`Encoded.areUnchanged`) goes through every chunk:
    /// a change to a file or a folder of the last, short chunk (`f9/`, last in path order) is
    /// seen, and so is one in the first chunk.
    @Test func aChangeInAnyChunkIsSeen() throws {
        for change in ["none", "last chunk's file", "last chunk's folder", "first chunk's file"] {
            let folder = try TemporaryDirectory()
            for index in 0..<(2 * FileInventory.chunk + 50) {
                try folder.write("\(index)\n", to: "f\(index / 100)/\(index % 100).md")
            }
            let inventory = try #require(FileInventory.take(of: folder.path, skipping: [], racyAfter: .max))
            #expect(inventory.count > 2 * FileInventory.chunk)
            switch change {
            case "last chunk's file": try folder.write("changed\n", to: "f9/99.md")
            case "last chunk's folder": try folder.write("new\n", to: "f9/new.md")
            case "first chunk's file": try folder.write("changed\n", to: "f0/0.md")
            default: break
            }
            #expect(FileInventory.areUnchanged([inventory]) == (change == "none"), "\(change)")
        }
    }

    /// Inventories of exactly one chunk, one more, and one less come back whole, and are found
    /// unchanged by the check in place.
    @Test func inventoriesAtAChunksEdgeRoundTrip() throws {
        for files in [FileInventory.chunk - 3, FileInventory.chunk - 2, FileInventory.chunk - 1] {
            let folder = try TemporaryDirectory()
            // The root and a folder take two entries: `files` more make the count.
            for index in 0..<files { try folder.write("\(index)\n", to: "f/\(index).md") }
            let inventory = try #require(FileInventory.take(of: folder.path, skipping: [], racyAfter: .max))
            #expect(inventory.count == files + 2)
            var writer = BinaryWriter()
            inventory.encode(into: &writer)
            var reader = BinaryReader(writer.bytes)
            #expect(FileInventory.decode(from: &reader) == inventory && reader.isAtEnd, "\(inventory.count) entries")
            #expect(inventory.isUnchanged(), "\(inventory.count) entries")
        }
    }

    /// `intactEntries(spare:)` finds a site's file intact (with its metadata) while it is as
    /// recorded, and says whether the spare's record holds the same file at its path.
    @Test func anIntactFileIsSeenInTheSpareOnlyAsTheSameFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write("a\n", to: "site/a.html")
        try folder.write("b\n", to: "site/b.html")
        try folder.write("older b\n", to: "spare/b.html")
        #expect(link(folder.path("site/a.html"), folder.path("spare/a.html")) == 0)
        let site = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: .max))
        let spare = try #require(FileInventory.take(of: folder.path("spare"), skipping: [], racyAfter: .max))
        let intact = site.intactEntries(spare: spare)
        let a = try #require(intact("a.html")), b = try #require(intact("b.html"))
        var info = stat()
        #expect(lstat(folder.path("site/a.html"), &info) == 0 && a.info.st_ino == info.st_ino)
        #expect(a.inSpare && !b.inSpare)
        #expect(intact("missing.html") == nil)
        #expect(intact("") == nil, "the root is no file")
        #expect(site.intactEntries()("a.html")?.inSpare == false, "without a spare")
        let racy = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: 0))
        #expect(racy.intactEntries()("a.html") == nil, "an entry recorded as changed never is intact")
        try folder.write("edited b\n", to: "site/b.html")
        #expect(intact("b.html") == nil, "edited since")
    }

    /// `LookAhead` finds each regular file of the inventory intact (with its metadata) or
    /// changed as it is when it looks, in entry order, and leaves the root, folders and racy
    /// entries to be looked at by whoever asks.
    @Test func theLookAheadSeesEachFileAsItIsWhenItLooks() throws {
        let folder = try TemporaryDirectory()
        try folder.write("a\n", to: "site/a.html")
        try folder.write("b\n", to: "site/sub/b.html")
        try folder.write("c\n", to: "site/c.html")
        let site = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: .max))
        try folder.write("edited c\n", to: "site/c.html")
        let open = FileInventory.OpenFolder(folder.path("site"))
        let ahead = LookAhead(count: site.count)
        #expect(ahead.look(1) ~= .notYet, "nothing is looked at before it runs")
        ahead.run(paths: site.paths, stamps: site.stamps, in: open)
        let index = PathIndex(site.paths, count: site.count) { _ in true }
        func look(_ path: String) throws -> LookAhead.Look { ahead.look(try #require(index.entry(path))) }
        var info = stat()
        #expect(lstat(folder.path("site/a.html"), &info) == 0)
        guard case .intact(let a) = try look("a.html") else {
            Issue.record("a.html is intact")
            return
        }
        #expect(a.st_ino == info.st_ino && a.st_size == info.st_size)
        #expect(try look("sub/b.html") ~= .intact)
        #expect(try look("c.html") ~= .changed, "edited after the inventory")
        #expect(try look("sub") ~= .notYet, "a folder is left to the asker")
        #expect(ahead.look(0) ~= .notYet, "the root too")
        #expect(ahead.look(site.count) ~= .notYet && ahead.look(-1) ~= .notYet, "past the entries")
        let racy = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: 0))
        let racyAhead = LookAhead(count: racy.count)
        racyAhead.run(paths: racy.paths, stamps: racy.stamps, in: open)
        #expect((1..<racy.count).allSatisfy { racyAhead.look($0) ~= .notYet }, "racy entries are left to the asker")
        let stopped = LookAhead(count: site.count)
        stopped.stop()
        stopped.run(paths: site.paths, stamps: site.stamps, in: open)
        #expect((0..<site.count).allSatisfy { stopped.look($0) ~= .notYet }, "stopped before it began")
    }

    /// With the look-ahead, `intactEntries` answers as without it, whether or not the files were
    /// looked at by the time it is asked.
    @Test func intactEntriesLookingAheadAnswerAsWithout() throws {
        let folder = try TemporaryDirectory()
        for name in 0..<200 { try folder.write("\(name)\n", to: "site/\(name % 7)/\(name).html") }
        let site = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: .max))
        try folder.write("edited\n", to: "site/3/3.html")
        let plain = site.intactEntries(), ahead = site.intactEntries(lookingAhead: true)
        for name in 0..<200 {
            let path = "\(name % 7)/\(name).html"
            #expect(plain(path)?.info.st_ino == ahead(path)?.info.st_ino && (plain(path) == nil) == (ahead(path) == nil), "\(path)")
        }
        #expect(ahead("3/3.html") == nil && ahead("missing.html") == nil, "edited since, and never there")
        #expect((plain("3") == nil) == (ahead("3") == nil), "a folder as without")
        // A look-ahead that has looked at every file: its answers are taken, as the files were.
        let open = FileInventory.OpenFolder(folder.path("site"))
        let done = LookAhead(count: site.count)
        done.run(paths: site.paths, stamps: site.stamps, in: open)
        try folder.write("edited after the look\n", to: "site/4/4.html")
        let taken = site.intactEntries(spare: nil, in: open, ahead: done)
        #expect(taken("4/4.html") != nil && plain("4/4.html") == nil, "as looked at, before the edit")
        #expect(taken("3/3.html") == nil, "edited before the look")
        #expect(taken("5/5.html")?.info.st_ino == plain("5/5.html")?.info.st_ino && taken("5/5.html") != nil)
    }

    /// Two names that differ only in Unicode normalization are two files (ext4 compares bytes),
    /// and `intactEntries` looks each up as itself (`PathIndex`): as `String` keys they were one.
    @Test func namesEqualOnlyAsUnicodeAreTwoFiles() throws {
        let folder = try TemporaryDirectory()
        let composed = "caf\u{E9}.html", decomposed = "cafe\u{301}.html"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        try folder.write("composed\n", to: "site/" + composed)
        let site = try #require(FileInventory.take(of: folder.path("site"), skipping: [], racyAfter: .max))
        let intact = site.intactEntries()
        #expect(intact(composed) != nil)
        #expect(intact(decomposed) == nil, "no file has that name")
        let index = PathIndex(Array((composed + "\0" + decomposed + "\0").utf8), count: 2) { _ in true }
        #expect(index.entry(composed) == 0 && index.entry(decomposed) == 1)
    }

    /// `PathIndex` finds each included path by its bytes, with its entry's number, and nothing
    /// else: not an excluded one, a prefix, a longer path or the empty one; many paths (the
    /// table grows, and probes past slots taken by others).
    @Test func aPathIndexFindsExactlyTheIncludedPaths() {
        let names = (0..<3_000).map { "projects/p\($0 % 97)/rounds/\($0).html" }
        let index = PathIndex(Array(names.map { $0 + "\0" }.joined().utf8), count: names.count) { $0 % 3 != 0 }
        for (entry, name) in names.enumerated() {
            #expect(index.entry(name) == (entry % 3 != 0 ? entry : nil), "\(name)")
        }
        #expect(index.entry("projects/p1/rounds/1.htm") == nil && index.entry("projects/p1/rounds/1.html5") == nil)
        #expect(index.entry("") == nil)
        let root = PathIndex(Array("\0a\0".utf8), count: 2) { _ in true }
        #expect(root.entry("") == 0 && root.entry("a") == 1 && root.entry("b") == nil)
        #expect(PathIndex([], count: 0) { _ in true }.entry("a") == nil, "an empty index")
    }

    /// Two paths of the same length whose hashes share the upper half a slot keeps, and start
    /// probing at the same slot, are told apart by their bytes.
    @Test func pathsWhoseHashesShareTheirSlotTagAreTwo() throws {
        let seed = 42
        func hash(_ path: String) -> UInt64 {
            UInt64(bitPattern: Int64(Array(path.utf8).withUnsafeBufferPointer { KeyHash.hash($0, seed: seed) }))
        }
        // The tag and the first of a two-entry index's 8 slots: 35 bits, which two of 2^20 paths
        // of one length share but with a chance of about e^-16 not to (a birthday search).
        #expect(PathIndex.minimumCapacity == 8, "the search below assumes 8 slots")
        func meeting(_ path: String) -> UInt64 {
            let hash = hash(path)
            return (hash >> 32) << 3 | hash & 7
        }
        var seen: [UInt64: String] = [:]
        var pair: (String, String)?
        for n in 0..<(1 << 20) {
            let number = String(n)
            let path = "p/" + String(repeating: "0", count: 7 - number.count) + number
            if let other = seen.updateValue(path, forKey: meeting(path)) {
                pair = (other, path)
                break
            }
        }
        let (a, b) = try #require(pair)
        #expect(a != b && a.utf8.count == b.utf8.count && meeting(a) == meeting(b))
        let one = PathIndex(Array((a + "\0" + b + "\0").utf8), count: 2, seed: seed) { $0 == 0 }
        #expect(one.entry(a) == 0 && one.entry(b) == nil)
        let both = PathIndex(Array((a + "\0" + b + "\0").utf8), count: 2, seed: seed) { _ in true }
        #expect(both.entry(a) == 0 && both.entry(b) == 1)
    }

    /// `forEachNUL` names every NUL, in order, and nothing else.
    @Test func everyNULIsFound() {
        func nuls(_ bytes: [UInt8]) -> [Int] {
            var found: [Int] = []
            bytes.withUnsafeBufferPointer { FileInventory.forEachNUL(in: $0) { found.append($0) } }
            return found
        }
        #expect(nuls([]) == [])
        #expect(nuls([0]) == [0])
        #expect(nuls([97, 98]) == [])
        #expect(nuls([97, 0, 0, 98]) == [1, 2])
        #expect(nuls([0, 97, 98, 0]) == [0, 3])
        let long = (0..<10_000).map { UInt8($0 % 7 == 0 ? 0 : 97) }
        #expect(nuls(long) == long.indices.filter { long[$0] == 0 })
    }

    /// `precedes` orders byte strings as `lexicographicallyPrecedes` does: shorter prefixes
    /// first, bytes compared unsigned.
    @Test func bytesSortAsLexicographicOrderDoes() {
        let samples: [[UInt8]] = [[], [0], [97], [97, 0], [97, 98], [98], [255], [97, 255], [97, 98, 99], [97, 47, 98], [97, 48]]
        for a in samples {
            for b in samples { #expect(FileInventory.precedes(a, b) == a.lexicographicallyPrecedes(b), "\(a) \(b)") }
        }
        // Every string of up to four of "-", "/" and "0" (as in paths: "-" and "0" either side of "/").
        var paths: [[UInt8]] = [[]]
        for length in 1...4 {
            paths += paths.filter { $0.count == length - 1 }.flatMap { prefix in [45, 47, 48].map { prefix + [UInt8($0)] } }
        }
        for a in paths {
            for b in paths where FileInventory.precedes(a, b) != a.lexicographicallyPrecedes(b) { Issue.record("\(a) \(b)") }
        }
        #expect(paths.sorted(by: FileInventory.precedes) == paths.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func itSurvivesEncodingAndNeverTrapsOnACorruptCopy() throws {
        let (folder, inventory) = try tree()
        var writer = BinaryWriter()
        inventory.encode(into: &writer)
        var reader = BinaryReader(writer.bytes)
        let decoded = try #require(FileInventory.decode(from: &reader))
        #expect(decoded == inventory && reader.isAtEnd)
        #expect(decoded.isUnchanged())
        for cut in stride(from: 0, to: writer.bytes.count, by: 7) {
            var truncated = BinaryReader(Array(writer.bytes[..<cut]))
            #expect(FileInventory.decode(from: &truncated) == nil)
        }
        _ = folder
    }
}

/// Matches a look by its case alone, for `#expect(look ~= .intact)`.
private enum LookKind { case intact, changed, notYet }

private func ~= (look: LookAhead.Look, kind: LookKind) -> Bool {
    switch (look, kind) {
    case (.intact, .intact), (.changed, .changed), (.notYet, .notYet): true
    default: false
    }
}
