import Foundation
import Testing

@testable import ProlificStore

/// `MappedFile`: a regular file's bytes, mapped or read; anything else is no file.
@Suite struct MappedFileTests {
    @Test func aRegularFileIsItsBytesMappedOrRead() throws {
        let folder = try TemporaryDirectory()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("cache")))
        for mapping in [true, false] {
            let file = try #require(MappedFile(folder.path("cache"), limit: 1 << 20, mapping: mapping))
            #expect(Array(file.bytes) == bytes, "mapping: \(mapping)")
        }
        #expect(MappedFile(folder.path("cache"), limit: 9_999) == nil, "over the limit")
    }

    @Test func linksEmptyFilesFoldersAndMissingFilesAreNone() throws {
        let folder = try TemporaryDirectory()
        try folder.write("x\n", to: "cache")
        try Data().write(to: URL(fileURLWithPath: folder.path("empty")))
        #expect(symlink(folder.path("cache"), folder.path("link")) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("folder"), withIntermediateDirectories: false)
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        for name in ["link", "empty", "folder", "fifo", "missing"] {
            #expect(MappedFile(folder.path(name), limit: 1 << 20) == nil, "\(name)")
        }
        #expect(MappedFile(folder.path("cache"), limit: 1 << 20).map { Array($0.bytes) } == Array("x\n".utf8))
    }
}
