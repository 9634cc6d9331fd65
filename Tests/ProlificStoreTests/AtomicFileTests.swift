import Foundation
import Testing

@testable import ProlificStore

@Suite struct AtomicFileTests {
    @Test func writeCreatesAndReplaces() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path("a.txt")
        try AtomicFile.write("first\n", to: path)
        #expect(try tmp.read("a.txt") == "first\n")
        try AtomicFile.write("second, ünïcode 🌙", to: path)
        #expect(try tmp.read("a.txt") == "second, ünïcode 🌙")
        try AtomicFile.write("", to: path)
        #expect(try tmp.read("a.txt") == "")
        #expect(try tmp.temporaryFiles() == [])
        #expect(try tmp.snapshot().keys.sorted() == ["a.txt"])
    }

    /// A cache written over a spare: the file replaced is kept as the spare, and the next write
    /// goes into that very file (its inode), in parts; a spare linked elsewhere, or a link, is
    /// never written through, and no temporary file is left.
    @Test func aCacheIsWrittenIntoTheSpareItReplacedLastTime() throws {
        let tmp = try TemporaryDirectory()
        let (path, spare) = (tmp.path("c.cache"), tmp.path("c.cache.spare"))
        func inode(_ path: String) -> UInt64? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64) ?? nil
        }
        try AtomicFile.write(parts: [Array("first".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "first")
        #expect(!FileManager.default.fileExists(atPath: spare), "nothing was replaced")
        try AtomicFile.write(parts: [Array("sec".utf8), Array("ond".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "second")
        #expect(try tmp.read("c.cache.spare") == "first")
        let spareInode = inode(spare)
        try AtomicFile.write(parts: [Array("3".utf8), [], Array("rd".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "3rd", "written over the spare's longer bytes, and cut")
        #expect(inode(path) == spareInode)
        #expect(try tmp.read("c.cache.spare") == "second")
        #expect(try tmp.temporaryFiles() == [])

        // A spare with another link is set aside: the other name keeps its bytes.
        try FileManager.default.linkItem(atPath: spare, toPath: tmp.path("elsewhere"))
        try AtomicFile.write(parts: [Array("fourth".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "fourth")
        #expect(try tmp.read("elsewhere") == "second")
        #expect(try tmp.read("c.cache.spare") == "3rd")
        // A link as the spare is not followed.
        try FileManager.default.removeItem(atPath: spare)
        try FileManager.default.createSymbolicLink(atPath: spare, withDestinationPath: tmp.path("elsewhere"))
        try AtomicFile.write(parts: [Array("fifth".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "fifth")
        #expect(try tmp.read("elsewhere") == "second")
        #expect(try tmp.read("c.cache.spare") == "fourth")
        #expect(try tmp.temporaryFiles() == [])
        // A folder as the spare is removed.
        try FileManager.default.removeItem(atPath: spare)
        try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: false)
        try AtomicFile.write(parts: [Array("sixth".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "sixth")
        #expect(try tmp.read("c.cache.spare") == "fifth")
        #expect(try tmp.snapshot().keys.sorted() == ["c.cache", "c.cache.spare", "elsewhere"])
    }

    /// A spare that a reader still has mapped (a long build's stamp from two builds ago) is not
    /// written into: the reader's bytes stay as they were; and a file a writer holds is not mapped.
    @Test func aMappedSpareIsNotWrittenInto() throws {
        let tmp = try TemporaryDirectory()
        let (path, spare) = (tmp.path("c.cache"), tmp.path("c.cache.spare"))
        try AtomicFile.write(parts: [Array("first, longer".utf8)], to: path, reusing: spare)
        try AtomicFile.write(parts: [Array("second".utf8)], to: path, reusing: spare)
        let mapped = try #require(MappedFile(spare, limit: 1 << 20))
        #expect(Array(mapped.bytes) == Array("first, longer".utf8))
        try AtomicFile.write(parts: [Array("3".utf8)], to: path, reusing: spare)
        #expect(try tmp.read("c.cache") == "3")
        #expect(try tmp.read("c.cache.spare") == "second")
        #expect(Array(mapped.bytes) == Array("first, longer".utf8), "the mapped file was not written")
        #expect(try tmp.temporaryFiles() == [])

        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        #expect(MappedFile(path, limit: 1 << 20) == nil, "being written")
        flock(fd, LOCK_UN)
        #expect(MappedFile(path, limit: 1 << 20) != nil)
    }

    @Test func writeMakesMissingFolders() throws {
        let tmp = try TemporaryDirectory()
        try AtomicFile.write("x", to: tmp.path("one/two/b.txt"))
        #expect(try tmp.read("one/two/b.txt") == "x")
        #expect(try tmp.temporaryFiles() == [])
    }

    @Test func writtenFilesAreReadableByOthers() throws {
        let tmp = try TemporaryDirectory()
        try AtomicFile.write("x", to: tmp.path("a.txt"))
        try AtomicFile.create("y", at: tmp.path("b.txt"))
        for name in ["a.txt", "b.txt"] {
            let permissions = try FileManager.default.attributesOfItem(atPath: tmp.path(name))[.posixPermissions] as? Int
            #expect(permissions == 0o644)
        }
    }

    @Test func createMakesANewFile() throws {
        let tmp = try TemporaryDirectory()
        try AtomicFile.create("new\n", at: tmp.path("users/ann.md"))
        #expect(try tmp.read("users/ann.md") == "new\n")
        #expect(try tmp.temporaryFiles() == [])
    }

    @Test func createRefusesAnExistingFileAndLeavesItAlone() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.path("ann.md")
        try tmp.write("original", to: "ann.md")
        let before = try tmp.snapshot()
        do {
            try AtomicFile.create("replacement", at: path)
            Issue.record("create overwrote an existing file")
        } catch {
            guard case .exists(let reported) = error else {
                Issue.record("expected .exists, got \(error)")
                return
            }
            #expect(reported == path)
            #expect(error.description == "\(path): error: already exists")
        }
        #expect(try tmp.read("ann.md") == "original")
        #expect(try tmp.snapshot() == before)
        #expect(try tmp.temporaryFiles() == [])
    }

    @Test func createRefusesAnExistingFolderOrLink() throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path("folder"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link"), withDestinationPath: "nowhere")
        let before = try tmp.snapshot()
        for name in ["folder", "link"] {
            do {
                try AtomicFile.create("x", at: tmp.path(name))
                Issue.record("create replaced \(name)")
            } catch {
                guard case .exists = error else {
                    Issue.record("expected .exists for \(name), got \(error)")
                    continue
                }
            }
        }
        #expect(try tmp.snapshot() == before)
    }

    @Test func writeIntoAFileFailsWithIO() throws {
        let tmp = try TemporaryDirectory()
        try tmp.write("not a folder", to: "plain")
        let before = try tmp.snapshot()
        do {
            try AtomicFile.write("x", to: tmp.path("plain/a.txt"))
            Issue.record("wrote below a file")
        } catch {
            guard case .io = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
            #expect(error.description.hasPrefix(tmp.path("plain")))
            #expect(error.description.contains(": error: "))
        }
        #expect(try tmp.snapshot() == before)
    }

    @Test func failureDescriptions() {
        #expect(AtomicFile.Failure.exists(path: "a/b.md").description == "a/b.md: error: already exists")
        #expect(AtomicFile.Failure.io(path: "a/b.md", message: "cannot write: No space").description == "a/b.md: error: cannot write: No space")
    }
}
