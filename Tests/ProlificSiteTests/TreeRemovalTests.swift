import Foundation
import Testing

@testable import ProlificSite

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct TreeRemovalTests {
    /// A fresh folder under the temporary directory, removed (by Foundation) afterwards.
    private static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-removal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Every level goes: files at the top, in the one- and two-level subtrees the cores share,
    /// and deeper; empty folders, hidden names and hard links too.
    @Test func removesTheWholeTree() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let site = "\(base)/Site"
        try Self.write("home", "\(site)/index.html")
        try Self.write("x", "\(site)/.hidden")
        for project in 0..<20 {
            for round in 1...3 {
                try Self.write("round \(round)", "\(site)/projects/p\(project)/rounds/\(round)/index.html")
            }
            try Self.write("feed", "\(site)/projects/p\(project)/feed.xml")
        }
        try FileManager.default.createDirectory(atPath: "\(site)/users/empty/deeper", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(site)/top-empty", withIntermediateDirectories: true)
        try Self.write("kept", "\(base)/kept.html")
        #expect(link("\(base)/kept.html", "\(site)/linked.html") == 0)

        TreeRemoval.remove(site)
        #expect(!FileManager.default.fileExists(atPath: site))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == ["kept.html"])
        #expect(try String(contentsOfFile: "\(base)/kept.html", encoding: .utf8) == "kept", "the other name of a hard link stays")
    }

    /// Links are removed, never followed, at every level: what they lead to stays whole.
    @Test func removesLinksWithoutFollowingThem() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let outside = "\(base)/outside"
        try Self.write("precious", "\(outside)/a/file.txt")
        let site = "\(base)/Site"
        try FileManager.default.createDirectory(atPath: "\(site)/projects/p0", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(site)/top-link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(site)/projects/level-two", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(site)/projects/p0/deep", withDestinationPath: "\(outside)/a")
        try FileManager.default.createSymbolicLink(atPath: "\(site)/projects/p0/dangling", withDestinationPath: "\(base)/nothing")

        TreeRemoval.remove(site)
        #expect(!FileManager.default.fileExists(atPath: site))
        #expect(try String(contentsOfFile: "\(outside)/a/file.txt", encoding: .utf8) == "precious")
    }

    /// Names are used as the bytes `readdir` gives: one that isn't UTF-8 goes like any other,
    /// at the top and in the subtrees removed on other cores.
    @Test func removesNamesThatAreNotUTF8() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let site = "\(base)/Site"
        try FileManager.default.createDirectory(atPath: "\(site)/projects/p0/rounds", withIntermediateDirectories: true)
        for folder in [site, "\(site)/projects/p0", "\(site)/projects/p0/rounds"] {
            let bytes = Array(folder.utf8) + [UInt8(ascii: "/"), 0xFF, 0xFE, UInt8(ascii: "x"), 0]
            let descriptor = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        TreeRemoval.remove(site)
        #expect(!FileManager.default.fileExists(atPath: site))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base).isEmpty)
    }

    /// A link given as the tree itself is removed as a link; a missing path is no error.
    @Test func aLinkOrAMissingPathIsHandledAsItIs() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try Self.write("precious", "\(base)/real/file.txt")
        try FileManager.default.createSymbolicLink(atPath: "\(base)/Site", withDestinationPath: "\(base)/real")
        TreeRemoval.remove("\(base)/Site")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(base)/Site")) == nil)
        #expect(try String(contentsOfFile: "\(base)/real/file.txt", encoding: .utf8) == "precious")
        TreeRemoval.remove("\(base)/missing")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == ["real"])
    }
}
