import Foundation
import ProlificStore
import Testing

/// Runs the real `prolific` binary, as a user would, and captures what it prints.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `prolific` executable built next to this test bundle.
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("prolific")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/prolific")
        return fallback
    }()

    /// Runs `prolific arguments…` in `directory`, feeding `input` to standard input.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let waitForExit = try process.spawn()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        waitForExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

/// A temporary folder that removes itself.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ text: String, to relative: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Writes `text` into the existing file at `relative` in place: the same inode, truncated
    /// and written through, so its folder's times don't move (as `>>` or an editor that writes
    /// in place leaves them; `write(_:to:)` may replace the file).
    func writeInPlace(_ text: String, to relative: String) throws {
        let handle = try FileHandle(forWritingTo: url.appendingPathComponent(relative))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A small PNG file: the PNG signature and `padding` zero bytes.
    @discardableResult
    func writePNG(to relative: String, padding: Int = 8) throws -> Data {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: padding))
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file)
        return bytes
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path)
    }

    /// Every file below `relative` with its bytes, to prove a command changed nothing.
    func snapshot(_ relative: String = ".") throws -> [String: Data] {
        let root = url.appendingPathComponent(relative).standardizedFileURL
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        for case let file as URL in walker {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory)
            let key = String(file.standardizedFileURL.path.dropFirst(root.path.count))
            result[key + (isDirectory.boolValue ? "/" : "")] = isDirectory.boolValue ? Data() : try Data(contentsOf: file)
        }
        return result
    }
}

/// Where the test fixtures live in the repository.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Golden files are rewritten instead of compared when PROLIFIC_RECORD=1.
    static var recording: Bool { ProcessInfo.processInfo.environment["PROLIFIC_RECORD"] == "1" }
}
