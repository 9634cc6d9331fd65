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
}
