import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct FileSystemTests {
    /// A file read by name from its listed folder is read from that folder, wherever the folder
    /// has gone meanwhile; a path outside the folder is read by its own path.
    @Test func filesAreReadFromTheOpenFolder() throws {
        let tmp = try TemporaryDirectory()
        try tmp.write("one", to: "votes/a.yml")
        try tmp.write("other", to: "votesX/a.yml")
        let folder = tmp.path("votes")
        let read = try FileSystem.withListing(folder) { open, entries -> [String] in
            #expect(entries.map(\.name) == ["a.yml"])
            #expect(rename(folder, tmp.path("moved")) == 0)
            var texts: [String] = []
            texts.append((try? FileSystem.readText("\(folder)/a.yml", in: open)) ?? "failed")
            // Starts with the folder's path but isn't in it: read by its own path.
            texts.append((try? FileSystem.readText(tmp.path("votesX/a.yml"), in: open)) ?? "failed")
            return texts
        }
        #expect(read == ["one", "other"])
        #expect(try FileSystem.withListing(tmp.path("nothing")) { _, _ in true } == nil)
    }

    /// The previous site's file is read only while it is the one its metadata describes: an
    /// edit in place, a replacement or a link in its place gives nothing.
    @Test func aFileIsReadIfUnchangedOnly() throws {
        let tmp = try TemporaryDirectory()
        try tmp.write("[1,2]", to: "search.json")
        let path = tmp.path("search.json")
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(FileSystem.readIfUnchanged(path, as: info) == Array("[1,2]".utf8))
        #expect(FileSystem.readIfUnchanged(tmp.path("missing.json"), as: info) == nil)
        // The same size, written again in place: its times move.
        usleep(10_000)
        try tmp.writeInPlace("[3,4]", to: "search.json")
        #expect(FileSystem.readIfUnchanged(path, as: info) == nil)
        #expect(lstat(path, &info) == 0)
        #expect(FileSystem.readIfUnchanged(path, as: info) == Array("[3,4]".utf8))
        // Replaced by another file, or by a link to it.
        try tmp.write("[3,4]", to: "other.json")
        #expect(rename(tmp.path("other.json"), path) == 0)
        #expect(FileSystem.readIfUnchanged(path, as: info) == nil)
        #expect(unlink(path) == 0 && symlink(tmp.path("elsewhere.json"), path) == 0)
        try tmp.write("[3,4]", to: "elsewhere.json")
        #expect(FileSystem.readIfUnchanged(path, as: info) == nil)
    }

    @Test func aLinkOrAMissingFileInTheOpenFolderIsRefusedAsByPath() throws {
        let tmp = try TemporaryDirectory()
        try tmp.write("one", to: "votes/a.yml")
        #expect(symlink(tmp.path("votes/a.yml"), tmp.path("votes/b.yml")) == 0)
        let failures = try FileSystem.withListing(tmp.path("votes")) { open, _ -> [FileSystem.Failure?] in
            ["b.yml", "c.yml"].map { name -> FileSystem.Failure? in
                do throws(FileSystem.Failure) {
                    _ = try FileSystem.readText(tmp.path("votes/\(name)"), in: open)
                    return nil
                } catch { return error }
            }
        }
        #expect(failures?[0]?.message == "is a symbolic link; content files must be regular files")
        #expect(failures?[0]?.isMissing == false)
        #expect(failures?[1]?.path == tmp.path("votes/c.yml"))
        #expect(failures?[1]?.isMissing == true)
    }
    /// `readAll` reads a file whole into a buffer its size or bigger, and stops at a read that
    /// fails with its `errno` (here a folder's) instead of taking it for the end of the file.
    @Test func readAllReadsWholeFilesAndReportsAFailedRead() throws {
        let tmp = try TemporaryDirectory()
        try tmp.write("twelve bytes", to: "file")
        try FileManager.default.createDirectory(atPath: tmp.path("folder"), withIntermediateDirectories: true)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        for (size, count) in [(64, 12), (12, 12), (5, 5), (0, 0)] {
            let fd = open(tmp.path("file"), O_RDONLY)
            defer { close(fd) }
            let read = FileSystem.readAll(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))
            #expect(read.count == count && read.error == 0)
            #expect(String(decoding: buffer[0..<read.count], as: UTF8.self) == String("twelve bytes".prefix(count)))
        }
        let folder = open(tmp.path("folder"), O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        let failed = FileSystem.readAll(folder, into: buffer)
        #expect(failed.count == 0 && failed.error == EISDIR)
        #expect(try FileSystem.readBytes(tmp.path("file")) == Array("twelve bytes".utf8))
    }
}
