import Foundation
import ProlificCore
import Testing
@testable import ProlificSite

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
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["Site"])
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
        try SiteWriter.write([OutputFile(path: "index.html", contents: Array("new".utf8))], to: parent.appendingPathComponent("Site").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == (kept + ["Site"]).sorted())
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
