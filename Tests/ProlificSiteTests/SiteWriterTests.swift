import Foundation
import ProlificCore
import Testing
@testable import ProlificSite
@testable import ProlificStore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SiteWriterTests {
    @Test func replacesTheWholeSiteAndLeavesNoStagingFolders() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let out = parent.appendingPathComponent("Site").path
        try SiteWriter.write([OutputFile(path: "old.html", contents: Array("old".utf8))], to: out)
        try SiteWriter.write([OutputFile(path: "a/new.html", contents: Array("new".utf8))], to: out)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/old.html"), "a stale page of the old site remains")
        #expect(try String(contentsOfFile: "\(out)/a/new.html", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".Site.spare", "Site"])
        #expect(try String(contentsOfFile: "\(parent.path)/.Site.spare/old.html", encoding: .utf8) == "old", "the replaced site is the spare")
    }

    /// The spare is the next build's staging folder: whatever is in it, the site swapped in holds
    /// exactly the new files, and nothing under the spare is followed out of it.
    @Test func rewritesTheSpareIntoTheNewSite() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path, spare = parent.appendingPathComponent(".Site.spare").path
        let outside = parent.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("index.html"))
        try SiteWriter.write([OutputFile(path: "index.html", contents: Array("one".utf8))], to: out)
        try SiteWriter.write([OutputFile(path: "index.html", contents: Array("two".utf8))], to: out)
        // The spare (site one) gets everything a spare could hold by the next build.
        let junk: [(String, String)] = [
            ("stale/page/index.html", "a page that is gone"), ("deep/er/still/x.html", "gone"), ("a/b/c/d/e.html", "wrong"),
            ("a/b/c/old.html", "gone"), ("file-where-a-folder-belongs", "x"), ("same.html", "same"),
        ]
        for (path, text) in junk {
            let url = URL(fileURLWithPath: "\(spare)/\(path)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(atPath: "\(spare)/folder-where-a-file-belongs/x", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(spare)/linked", withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: "\(spare)/link.html", withDestinationPath: outside.appendingPathComponent("index.html").path)
        let spareInode = try FileManager.default.attributesOfItem(atPath: spare)[.systemFileNumber] as? Int
        let sameInode = try FileManager.default.attributesOfItem(atPath: "\(spare)/same.html")[.systemFileNumber] as? Int

        let files = [
            OutputFile(path: "index.html", contents: Array("three".utf8)), OutputFile(path: "a/b/c/d/e.html", contents: Array("right".utf8)),
            OutputFile(path: "file-where-a-folder-belongs/index.html", contents: Array("f".utf8)),
            OutputFile(path: "folder-where-a-file-belongs", contents: Array("g".utf8)), OutputFile(path: "linked/index.html", contents: Array("h".utf8)),
            OutputFile(path: "link.html", contents: Array("i".utf8)), OutputFile(path: "same.html", contents: Array("same".utf8)),
        ]
        let report = try SiteWriter.write(files, to: out)
        #expect(report == SiteWriter.Report(written: files.count, unchanged: 0), "counted against the previous site, not the spare")
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? Int == spareInode, "the spare was not reused")
        #expect(try FileManager.default.attributesOfItem(atPath: "\(out)/same.html")[.systemFileNumber] as? Int == sameInode, "a right file was rewritten")
        #expect(Self.tree(out) == Self.expected(files))
        #expect(Self.tree(outside.path) == ["index.html": "keep"], "a link in the spare was followed")
        #expect(try String(contentsOfFile: "\(spare)/index.html", encoding: .utf8) == "two", "the replaced site is the next spare")
    }

    /// Counted against the previous site, and an unchanged file is that site's file, linked.
    @Test func linksUnchangedFilesIntoTheSpare() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path
        func site(_ page: String) -> [OutputFile] {
            [OutputFile(path: "a/index.html", contents: Array("kept".utf8)), OutputFile(path: "b/index.html", contents: Array(page.utf8))]
        }
        try SiteWriter.write(site("1"), to: out)
        try SiteWriter.write(site("1") + [OutputFile(path: "c.html", contents: [1])], to: out)
        let kept = try FileManager.default.attributesOfItem(atPath: "\(out)/a/index.html")[.systemFileNumber] as? Int
        #expect(try SiteWriter.write(site("2"), to: out) == SiteWriter.Report(written: 1, unchanged: 1))
        #expect(try FileManager.default.attributesOfItem(atPath: "\(out)/a/index.html")[.systemFileNumber] as? Int == kept)
        #expect(Self.tree(out) == Self.expected(site("2")))

        // The spare's copy of an unchanged file differs (a new inode): the previous site's file
        // is linked over it.
        let spare = parent.appendingPathComponent(".Site.spare").path
        // Atomically: the spare's file is a link to the site's, which must not change.
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: "\(spare)/a/index.html"), options: .atomic)
        #expect(try SiteWriter.write(site("3"), to: out) == SiteWriter.Report(written: 1, unchanged: 1))
        #expect(try FileManager.default.attributesOfItem(atPath: "\(out)/a/index.html")[.systemFileNumber] as? Int == kept)
        #expect(Self.tree(out) == Self.expected(site("3")))
    }

    /// A site (`a/index.html`, "page") and a spare beside it whose `a/index.html` is an older
    /// page, in a fresh temporary folder (the caller removes `parent`).
    static func siteAndOlderSpare() throws -> (parent: URL, previous: String, spare: String) {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-keep-\(UUID().uuidString)")
        let previous = parent.appendingPathComponent("site").path, spare = parent.appendingPathComponent("spare").path
        for folder in [previous, spare] {
            try FileManager.default.createDirectory(atPath: "\(folder)/a", withIntermediateDirectories: true)
        }
        try Data("page".utf8).write(to: URL(fileURLWithPath: "\(previous)/a/index.html"))
        try Data("an older page".utf8).write(to: URL(fileURLWithPath: "\(spare)/a/index.html"))
        return (parent, previous, spare)
    }

    /// A kept file whose device and inode the memory's check found is placed by them, without
    /// looking at the previous site's file again: left when the spare's file is that one,
    /// linked over it when it is another.
    @Test func aKeptFileKnownByItsIdentityIsLeftOrLinked() throws {
        let (parent, previous, spare) = try Self.siteAndOlderSpare()
        defer { try? FileManager.default.removeItem(at: parent) }
        try Data("page".utf8).write(to: URL(fileURLWithPath: "\(previous)/a/other.html"))
        #expect(link("\(previous)/a/other.html", "\(spare)/a/other.html") == 0)
        func identity(_ path: String) throws -> OutputFile.Previous {
            var info = stat()
            #expect(lstat(path, &info) == 0)
            return OutputFile.Previous(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        let files = try ["a/index.html", "a/other.html"].map {
            OutputFile.kept($0, fingerprint: Array(repeating: 1, count: 16), previous: try identity("\(previous)/\($0)"))
        }
        // Replaced after the check that found it intact: the spare already holds the file the
        // check found, which is what is kept (the writer doesn't look at the site's file again).
        let checked = try identity("\(previous)/a/other.html")
        try Data("replaced since".utf8).write(to: URL(fileURLWithPath: "\(previous)/a/other.html"), options: .atomic)
        var made: Set<String> = []
        var stamped: [SiteWriter.Entry]? = []
        let report = try SiteWriter.fill(spare, with: files, previous: previous, made: &made, reused: true, stamped: &stamped)
        #expect(report == SiteWriter.Report(written: 0, unchanged: 2))
        #expect(try identity("\(spare)/a/index.html") == identity("\(previous)/a/index.html"), "linked over the older page")
        #expect(try identity("\(spare)/a/other.html") == checked, "left as the file the check found")
        #expect(Self.tree(spare) == ["a": "(folder)", "a/index.html": "page", "a/other.html": "page"])
        let recorded = try #require(stamped).map(\.path).sorted()
        #expect(recorded == ["a/index.html", "a/other.html"], "both are recorded for the stamp")
    }

    /// A kept file the spare's record holds (`Previous.inSpare`) is left without being looked at
    /// when the spare's folders are as recorded: its recorded metadata goes into the stamp. When
    /// they are not known to be, the spare's file is looked at, and linked over when it is not
    /// the site's.
    @Test func aKeptFileTheRecordedSpareHoldsIsNotLookedAt() throws {
        for spareAsRecorded in [true, false] {
            // The spare's page is not what the record says: the writer finds out only when it looks.
            let (parent, previous, spare) = try Self.siteAndOlderSpare()
            defer { try? FileManager.default.removeItem(at: parent) }
            var info = stat()
            #expect(lstat("\(previous)/a/index.html", &info) == 0)
            let kept = OutputFile.kept(
                "a/index.html", fingerprint: Array(repeating: 1, count: 16),
                previous: OutputFile.Previous(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), inSpare: info))
            var made: Set<String> = ["a"]
            var stamped: [SiteWriter.Entry]? = []
            let report = try SiteWriter.fill(
                spare, with: [kept], previous: previous, made: &made, reused: true, spareAsRecorded: spareAsRecorded,
                stamped: &stamped)
            #expect(report == SiteWriter.Report(written: 0, unchanged: 1))
            let entry = try #require(stamped?.first)
            #expect(entry.path == "a/index.html" && entry.info.st_ino == info.st_ino)
            let left = FileManager.default.contents(atPath: "\(spare)/a/index.html").map { String(decoding: $0, as: UTF8.self) }
            #expect(left == (spareAsRecorded ? "an older page" : "page"), "\(spareAsRecorded)")
        }
    }

    /// A name is matched by its bytes: the spare's decomposed `é` is not the composed one the new
    /// site has, so it goes.
    @Test func aLookAlikeNameInTheSpareIsRemoved() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        try SiteWriter.write([OutputFile(path: "a/\(decomposed)", contents: [1])], to: out)
        try SiteWriter.write([OutputFile(path: "a/\(decomposed)", contents: [1])], to: out)
        try SiteWriter.write([OutputFile(path: "a/\(composed)", contents: [2])], to: out)
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(out)/a").map { Array($0.utf8) }
        #expect(names == [Array(composed.utf8)])
    }

    /// A spare this user doesn't own (left by a `sudo` build) is not rewritten: the build starts
    /// from an empty folder. Needs root, to give the spare away.
    @Test(.enabled(if: geteuid() == 0)) func aSpareOfAnotherOwnerIsNotReused() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path, spare = parent.appendingPathComponent(".Site.spare").path
        try SiteWriter.write([OutputFile(path: "index.html", contents: [1])], to: out)
        try SiteWriter.write([OutputFile(path: "index.html", contents: [2])], to: out)
        #expect(chown(spare, 4_000_000, 4_000_000) == 0)
        let spareInode = try FileManager.default.attributesOfItem(atPath: spare)[.systemFileNumber] as? Int
        try SiteWriter.write([OutputFile(path: "index.html", contents: [3])], to: out)
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? Int != spareInode)
        #expect(FileManager.default.contents(atPath: "\(out)/index.html") == Data([3]))
    }

    /// A failed build that was rewriting a spare removes it: whatever made it fail doesn't fail
    /// the next build too.
    @Test func aFailedRewriteOfTheSpareRemovesIt() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path
        try SiteWriter.write([OutputFile(path: "index.html", contents: [1])], to: out)
        try SiteWriter.write([OutputFile(path: "index.html", contents: [2])], to: out)
        let staging = try SiteWriter.Staging(output: out)
        #expect(staging.reused)
        staging.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["Site"])
        #expect(FileManager.default.contents(atPath: "\(out)/index.html") == Data([2]))
    }

    /// What `tree` gives for a site of `files`: each file, and each folder holding one.
    static func expected(_ files: [OutputFile]) -> [String: String] {
        var tree: [String: String] = [:]
        for file in files {
            tree[file.path] = String(decoding: file.contents, as: UTF8.self)
            var path = file.path
            while let slash = path.lastIndex(of: "/") {
                path = String(path[..<slash])
                tree[path] = "(folder)"
            }
        }
        return tree
    }

    /// A failed build sets its folder aside as the spare; the site stays as it was.
    @Test func aDiscardedBuildLeavesTheSiteAndKeepsItsFolderAsTheSpare() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path
        try SiteWriter.write([OutputFile(path: "index.html", contents: Array("old".utf8))], to: out)
        let staging = try SiteWriter.Staging(output: out)
        try staging.write([OutputFile(path: "index.html", contents: Array("half".utf8))])
        staging.discard()
        #expect(Self.tree(out) == ["index.html": "old"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".Site.spare", "Site"])
    }

    /// A spare found as the build before last recorded it (the record the writer took of that
    /// site as it wrote it) has what the new site lacks removed by the record, without listing
    /// it; a spare anything was added to since, deep down or at its top with the folder's time
    /// put back, is swept whole. Either way the new site is exactly the new files, even where a
    /// recorded folder is now a file and a recorded file a folder.
    @Test(arguments: ["none", "deep", "top"]) func aRecordedSpareIsRewrittenByItsRecord(tampering: String) throws {
        let (parent, out, spare) = try Self.siteAndSpareFolders()
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = Self.file
        let first = [
            file("a/x.html", "x"), file("b/y.html", "y"), file("gone/deep/z.html", "z"), file("now-a-folder", "f"),
            file("a/old.html", "old"),
        ]
        let one = try SiteWriter.Staging(output: out)
        try one.write(first)
        _ = try one.finish()
        let record = try #require(one.entries.flatMap { FileInventory(root: out, written: $0) })
        let walked = try #require(FileInventory.take(of: out, guardingRacyWrites: false))
        #expect(Set(record.entryPaths().folders) == Set(walked.entryPaths().folders))
        #expect(Set(record.entryPaths().others) == Set(walked.entryPaths().others))
        #expect(record.isUnchanged(), "the record is the site as written")
        try SiteWriter.write([file("a/x.html", "x"), file("b/y.html", "y2")], to: out)
        switch tampering {
        case "deep":
            #expect(FileManager.default.createFile(atPath: "\(spare)/b/junk.html", contents: Data("junk".utf8)), "the tampering is made")
        case "top":
            var before = stat()
            _ = lstat(spare, &before)
            #expect(FileManager.default.createFile(atPath: "\(spare)/CNAME", contents: Data("junk".utf8)), "the tampering is made")
            var times = [before.st_atim, before.st_mtim]
            _ = utimensat(AT_FDCWD, spare, &times, AT_SYMLINK_NOFOLLOW)
        default:
            break
        }
        let (folders, others) = record.recordedEntries()
        let recorded = SiteWriter.RecordedSpare(folders: folders.map(\.path), folderInfo: folders.map(\.info), others: others) {
            record.foldersAreUnchanged(at: $0)
        }
        let third = [file("a/x.html", "x"), file("c/new.html", "new"), file("gone", "a file now"), file("now-a-folder/i.html", "i")]
        let staging = try SiteWriter.Staging(output: out, spare: recorded)
        #expect((staging.known != nil) == (tampering == "none"), "a spare with an entry added is swept, not trusted")
        try staging.write(third)
        _ = try staging.finish()
        // The writer's record of the new site, folders included, is the site as it is.
        let written = try #require(staging.entries.flatMap { FileInventory(root: out, written: $0) })
        #expect(written.isUnchanged(), "\(tampering)")
        #expect(
            Self.tree(out) == [
                "a": "(folder)", "a/x.html": "x", "c": "(folder)", "c/new.html": "new", "gone": "a file now",
                "now-a-folder": "(folder)", "now-a-folder/i.html": "i",
            ])
    }

    /// Rewriting a spare found as recorded, the writer takes a folder's recorded metadata for
    /// the stamp when the build added nothing to it and removed nothing from it, and looks at
    /// every other folder. Shown by moving a folder's time by hand during the build: the record
    /// of a folder left alone still says the old time (the next build will look again), the
    /// record of a folder written in, or removed from, or holding a new folder, says the new.
    @Test(arguments: ["none", "a", "b", "f", "f/g", "k", "k/n"])
    func foldersTheRebuildLeftAloneAreTakenFromTheRecord(touchedByHand: String) throws {
        let (parent, out, spare) = try Self.siteAndSpareFolders()
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = Self.file
        let site = [
            file("a/x.html", "x"), file("b/y.html", "y"), file("c/z.html", "z"), file("f/g/h.html", "h"),
            file("f/i.html", "i"), file("k/m.html", "m"), file("m/keep.html", "keep"), file("m/old/q.html", "q"),
        ]
        let one = try SiteWriter.Staging(output: out)
        try one.write(site)
        _ = try one.finish()
        let record = try #require(one.entries.flatMap { FileInventory(root: out, written: $0) })
        try SiteWriter.write(site, to: out)
        let (folders, others) = record.recordedEntries()
        let recorded = SiteWriter.RecordedSpare(folders: folders.map(\.path), folderInfo: folders.map(\.info), others: others) {
            record.foldersAreUnchanged(at: $0)
        }
        // Kept files the spare holds, as the intact check hands them over.
        func kept(_ path: String) throws -> OutputFile {
            var info = stat()
            #expect(lstat("\(spare)/\(path)", &info) == 0)
            return OutputFile.kept(
                path, fingerprint: Array(repeating: 1, count: 16),
                previous: OutputFile.Previous(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), inSpare: info))
        }
        // a and f/g are left alone; b is written in; c goes; f loses a file; k gets a new
        // folder; m loses one.
        let third = [
            try kept("a/x.html"), file("b/y.html", "y2"), try kept("f/g/h.html"), try kept("k/m.html"), file("k/n/o.html", "o"),
            try kept("m/keep.html"),
        ]
        let staging = try SiteWriter.Staging(output: out, spare: recorded)
        #expect(staging.known != nil)
        try staging.write(third)
        if touchedByHand != "none" {
            let folder = "\(staging.staging)/\(touchedByHand)"
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, folder, &times, AT_SYMLINK_NOFOLLOW) == 0, "\(folder)")
        }
        _ = try staging.finish()
        // Those taken from the record are the `stat`s no `lstat` made: no folder has no link.
        let entries = try #require(staging.entries)
        #expect(Set(entries.filter { $0.info.st_nlink == 0 }.map(\.path)) == ["a", "f/g"], "\(touchedByHand)")
        let written = try #require(FileInventory(root: out, written: entries))
        let leftAlone = ["a", "f/g"].contains(touchedByHand)
        #expect(written.isUnchanged() == !leftAlone, "\(touchedByHand)")
        #expect(
            Self.tree(out) == [
                "a": "(folder)", "a/x.html": "x", "b": "(folder)", "b/y.html": "y2", "f": "(folder)", "f/g": "(folder)",
                "f/g/h.html": "h", "k": "(folder)", "k/m.html": "m", "k/n": "(folder)", "k/n/o.html": "o", "m": "(folder)",
                "m/keep.html": "keep",
            ])
    }

    /// A new folder (`parent`, for the caller to remove) where a site is written at `out`, and the
    /// writer keeps the site it replaced at `spare`.
    static func siteAndSpareFolders() throws -> (parent: URL, out: String, spare: String) {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return (parent, parent.appendingPathComponent("Site").path, parent.appendingPathComponent(".Site.spare").path)
    }

    /// A file of a site, with `text` as its bytes.
    static func file(_ path: String, _ text: String) -> OutputFile { OutputFile(path: path, contents: Array(text.utf8)) }

    /// Every entry under `folder` (links not followed): a regular file with its text, a folder
    /// as "(folder)".
    static func tree(_ folder: String) -> [String: String] {
        var found: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [:] }
        while let path = walker.nextObject() as? String {
            let full = "\(folder)/\(path)"
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFREG {
                found[path] = (try? String(contentsOfFile: full, encoding: .utf8)) ?? "?"
            } else {
                found[path] = kind == S_IFDIR ? "(folder)" : "(not a file)"
            }
        }
        return found
    }

    @Test func makesMissingParentFoldersAndKeepsUnchangedFiles() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("a/b/Site").path
        let first = try SiteWriter.write(
            [OutputFile(path: "same.html", contents: Array("same".utf8)), OutputFile(path: "x/new.html", contents: Array("1".utf8))],
            to: out)
        #expect(first == SiteWriter.Report(written: 2, unchanged: 0))
        let inode = try FileManager.default.attributesOfItem(atPath: "\(out)/same.html")[.systemFileNumber] as? Int
        let second = try SiteWriter.write(
            [OutputFile(path: "same.html", contents: Array("same".utf8)), OutputFile(path: "x/new.html", contents: Array("2".utf8))],
            to: out)
        #expect(second == SiteWriter.Report(written: 1, unchanged: 1))
        #expect(try FileManager.default.attributesOfItem(atPath: "\(out)/same.html")[.systemFileNumber] as? Int == inode, "kept, not rewritten")
        #expect(try String(contentsOfFile: "\(out)/x/new.html", encoding: .utf8) == "2")
    }

    /// Folders are made level by level on every core: batches whose files sit at many depths,
    /// inside folders an earlier batch made, all land where they belong.
    @Test func makesNestedFoldersAcrossBatches() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("Site").path
        let staging = try SiteWriter.Staging(output: out)
        var expected: [String: String] = [:]
        for batch in 0..<3 {
            var files: [OutputFile] = []
            for project in 0..<40 {
                let path = batch == 0 ? "projects/p\(project)/index.html" : "projects/p\(project)/rounds/\(batch)/deeper/index.html"
                files.append(OutputFile(path: path, contents: Array(path.utf8)))
                expected[path] = path
            }
            files.append(OutputFile(path: "top-\(batch).html", contents: Array("top".utf8)))
            expected["top-\(batch).html"] = "top"
            try staging.write(files)
        }
        #expect(try staging.finish() == SiteWriter.Report(written: expected.count, unchanged: 0))
        for (path, text) in expected {
            #expect(try String(contentsOfFile: "\(out)/\(path)", encoding: .utf8) == text)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["Site"])
    }

    /// Each batch makes the folders its files need that earlier batches did not, and records them.
    @Test func recordsTheFoldersEachBatchMakes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var made: Set<String> = []
        let first = [OutputFile(path: "a/b/c/index.html", contents: [1]), OutputFile(path: "a/x.html", contents: [2])]
        _ = try SiteWriter.fill(folder, with: first, previous: nil, made: &made)
        #expect(made == ["a", "a/b", "a/b/c"])
        let second = [OutputFile(path: "a/b/d/index.html", contents: [3]), OutputFile(path: "e/f/g.html", contents: [4])]
        _ = try SiteWriter.fill(folder, with: second, previous: nil, made: &made)
        #expect(made == ["a", "a/b", "a/b/c", "a/b/d", "e", "e/f"])
        for (path, byte) in [("a/b/c/index.html", 1), ("a/x.html", 2), ("a/b/d/index.html", 3), ("e/f/g.html", 4)] {
            #expect(FileManager.default.contents(atPath: "\(folder)/\(path)") == Data([UInt8(byte)]))
        }
    }

    @Test func exchangesTheOldSiteForTheNewInOneStep() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        for (name, page) in [("Site", "old"), ("next", "new")] {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent(name), withIntermediateDirectories: true)
            try Data(page.utf8).write(to: parent.appendingPathComponent("\(name)/index.html"))
        }
        let site = parent.appendingPathComponent("Site").path, next = parent.appendingPathComponent("next").path
        #expect(SiteWriter.exchange(next, site) == 0, "renameat2(RENAME_EXCHANGE) is refused here")
        #expect(try String(contentsOfFile: "\(site)/index.html", encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: "\(next)/index.html", encoding: .utf8) == "old")
    }

    @Test func removesTheStagingFoldersOfBuildsThatNoLongerRun() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        // A process id above the kernel's limit (2^22) belongs to no process; 1 always runs.
        let gone = [".Site.building-99999999", ".Site.old-99999999"]
        let kept = [".Site.building-1", ".Site.old-\(getpid())", ".Other.building-99999999"]
        for name in gone + kept {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent("\(name)/a"), withIntermediateDirectories: true)
        }
        let adopted = try FileManager.default.attributesOfItem(atPath: parent.appendingPathComponent(gone[0]).path)[.systemFileNumber] as? Int
        let site = parent.appendingPathComponent("Site").path
        try SiteWriter.write([OutputFile(path: "index.html", contents: Array("new".utf8))], to: site)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == (kept + ["Site"]).sorted())
        #expect(try FileManager.default.attributesOfItem(atPath: site)[.systemFileNumber] as? Int == adopted, "a dead build's folder is rewritten, not removed")
        #expect(Self.tree(site) == ["index.html": "new"])
    }

    @Test func refusesToReplaceAFile() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let out = parent.appendingPathComponent("Site")
        try Data("keep".utf8).write(to: out)
        #expect(throws: Diagnostics.self) { try SiteWriter.write([], to: out.path) }
        #expect(try String(contentsOf: out, encoding: .utf8) == "keep")
    }
}
