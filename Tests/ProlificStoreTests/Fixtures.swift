import Foundation
import ProlificCore

@testable import ProlificStore

/// Literal values, force-unwrapped: they are valid by construction.
enum Make {
    static func time(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    static func handle(_ text: String) -> Handle { Handle(text)! }
    static func slug(_ text: String) -> Slug { Slug(text)! }
    static func span(_ text: String) -> TimeSpan { TimeSpan(text)! }
    static func number(_ value: Int) -> RoundNumber { RoundNumber(value)! }
    static func id(_ text: String) -> SubmissionID { SubmissionID(text)! }
}

/// A fresh folder under the system's temporary directory, removed with everything in it when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("prolific-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func path(_ relative: String) -> String { "\(path)/\(relative)" }

    func write(_ text: String, to relative: String) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// Writes `text` into the existing file at `relative` in place: the same inode, truncated
    /// and written through, so its folder's times don't move (as `>>` or an editor that writes
    /// in place leaves them; `write(_:to:)` may replace the file).
    func writeInPlace(_ text: String, to relative: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path(relative)) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A tiny file whose first bytes are those of the image kind its extension names.
    func writeImage(to relative: String, padding: Int = 0) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(ImageBytes.header(for: relative) + [UInt8](repeating: 0, count: padding)).write(to: URL(fileURLWithPath: file))
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative))
    }

    /// Every entry below `relative` (hidden ones too) by relative path: a file's bytes, a folder's
    /// or a link's kind. Two equal snapshots mean the tree is byte-identical.
    func snapshot(_ relative: String = "") throws -> [String: [UInt8]] {
        let root = relative.isEmpty ? path : path(relative)
        var result: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: root) {
            let full = "\(root)/\(name)"
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            switch attributes[.type] as? FileAttributeType {
            case .typeRegular?: result[name] = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
            case .typeDirectory?: result[name + "/"] = []
            default: result[name + "@"] = Array(((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "").utf8)
            }
        }
        return result
    }

    /// Names in `relative` that start with `.prolific-tmp-`, anywhere below it.
    func temporaryFiles(_ relative: String = "") throws -> [String] {
        try snapshot(relative).keys.filter { $0.split(separator: "/").last?.hasPrefix(".prolific-tmp-") == true }
    }
}

/// The diagnostics `body` threw, as printed; nil if it did not throw.
func thrown<T>(_ body: () throws(Diagnostics) -> T) -> [String]? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.all.map(\.description)
    }
}

/// A content directory made by `Game.initialize` inside a temporary directory, played through `Game`.
final class Playground {
    let directory: TemporaryDirectory
    /// The content directory: `<tmp>/Content`.
    let root: String

    init(config: Config = Config.defaults(title: "Test")) throws {
        directory = try TemporaryDirectory()
        root = directory.path("Content")
        try Game.initialize(root: root, config: config)
    }

    func game(_ now: String) -> Game { Game(content: root, now: Make.time(now)) }

    var reader: ContentReader { ContentReader(layout: ContentLayout(root: root)) }

    /// The content directory as bytes, to prove a refused command changed nothing.
    func snapshot() throws -> [String: [UInt8]] { try directory.snapshot("Content") }

    /// `ann`, `bob` and `cat` joined on 2026-10-01; project `moon` by ann opened on 2026-11-01
    /// with `rounds` rounds of 7 days.
    @discardableResult
    func standardSetup(rounds: Int = 3) throws -> Project {
        let joining = game("2026-10-01T00:00:00Z")
        for name in ["ann", "bob", "cat"] {
            _ = try joining.addUser(Make.handle(name), name: name.uppercased(), bio: "")
        }
        return try game("2026-11-01T00:00:00Z").newProject(
            Game.ProjectRequest(
                slug: Make.slug("moon"), title: "The Moon", owner: Make.handle("ann"), rounds: rounds,
                roundLength: Make.span("7d"), tags: ["space"], starter: "The moon was late."))
    }
}

/// The first bytes of each image kind the site copies, for tests that need an image file.
enum ImageBytes {
    static func header(for name: String) -> [UInt8] {
        switch name.split(separator: ".").last?.lowercased() {
        case "png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case "jpg", "jpeg": [0xFF, 0xD8, 0xFF, 0xE0]
        case "gif": Array("GIF89a".utf8)
        case "webp": Array("RIFF\0\0\0\0WEBP".utf8)
        default: [0, 0, 0, 0x18] + Array("ftypavif".utf8)
        }
    }
}
