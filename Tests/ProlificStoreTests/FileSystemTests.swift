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
    /// A buffer used again reads each file whole, a smaller file after a bigger one and a
    /// bigger after a smaller; a missing file, a link, a folder or a file over the limit is
    /// nil, and `body` isn't called for it.
    @Test func reusedBuffersReadEachFileWhole() throws {
        let tmp = try TemporaryDirectory()
        let big = String(repeating: "0123456789", count: 1_000), small = "small", bigger = big + big
        for (name, text) in [("big", big), ("small", small), ("bigger", bigger)] { try tmp.write(text, to: name) }
        #expect(symlink(tmp.path("small"), tmp.path("link")) == 0)
        try FileManager.default.createDirectory(atPath: tmp.path("folder"), withIntermediateDirectories: true)
        let buffers = ReusedBuffers()
        func read(_ name: String, limit: Int = 1 << 20) -> String? {
            buffers.withContents(of: tmp.path(name), limit: limit) { String(decoding: $0, as: UTF8.self) }
        }
        #expect(read("big") == big && read("small") == small && read("bigger") == bigger && read("small") == small)
        var called = false
        for name in ["missing", "link", "folder"] {
            #expect(buffers.withContents(of: tmp.path(name), limit: 1 << 20) { _ in called = true } == nil)
        }
        #expect(!called && read("bigger", limit: bigger.utf8.count - 1) == nil && read("bigger", limit: bigger.utf8.count) == bigger)
        // A file read empty is an empty buffer.
        try tmp.write("", to: "empty")
        #expect(read("empty") == "")
    }
}
