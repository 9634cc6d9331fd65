import Foundation
import ProlificStore

/// Runs other programs for the tests (git, make, bash, groff): output captured, failure thrown.
enum Shell {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// git without the user's or the system's configuration, as a fixed identity.
    static let gitEnvironment = [
        "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
    ]

    /// Whether `program` is on the PATH.
    static func has(_ program: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(program)"], in: FileManager.default.temporaryDirectory)) != nil
    }

    /// Runs `arguments` (looked up on the PATH) in `directory`; throws unless it exits 0.
    @discardableResult
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], input: String = ""
    ) throws -> Result {
        let result = try attempt(arguments, in: directory, environment: environment, input: input)
        guard result.status == 0 else {
            throw Failure(
                description: "\(arguments.joined(separator: " ")) exited \(result.status): \(result.errors)\(result.output)")
        }
        return result
    }

    /// Runs `arguments` in `directory` and returns how it went, whatever its exit status.
    static func attempt(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], input: String = ""
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = try temporaryFile(), errors = try temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        // Files rather than pipes: a long-running child that prints a lot can't block on a full pipe.
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        let stdin = Pipe()
        process.standardInput = stdin
        let waitForExit = try process.spawn()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        waitForExit()
        return Result(
            status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8),
            errors: try String(contentsOf: errors, encoding: .utf8))
    }

    private static func temporaryFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-shell-\(UUID().uuidString)")
        try Data().write(to: url)
        return url
    }
}

/// The repository this test file is in, for tests that run its Makefile, scripts and examples.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
