import Foundation

/// The one way Prolific runs git: `git -C folder …`, its output collected, standard error kept
/// for messages. Used by `--commit` (`GitCommit`), the identity evidence of tallies
/// (`GitEvidence`) and pull-request checks (`GitRepository`).
enum GitProcess {
    struct Result {
        var status: Int32
        var output: Data
        var errors: String
        var succeeded: Bool { status == 0 }
        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `git -C folder arguments…`; nil when git can't be started. With `literalPaths`, paths
    /// are taken literally, never as patterns. `input` goes to standard input through a temporary
    /// file rather than a pipe: git may stop reading early, and writing to a pipe nobody reads
    /// would block, or end the process with SIGPIPE.
    static func run(literalPaths: Bool = false, _ arguments: [String], in folder: String, input: Data? = nil) -> Result? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + (literalPaths ? ["--literal-pathspecs"] : []) + ["-C", folder] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        var inputFile: URL? = nil
        defer { if let inputFile { try? FileManager.default.removeItem(at: inputFile) } }
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-git-\(UUID().uuidString)")
            inputFile = file
            guard (try? input.write(to: file)) != nil, let handle = try? FileHandle(forReadingFrom: file) else { return nil }
            process.standardInput = handle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        // Not `waitUntilExit()` alone, which takes at least 50 ms (`spawn()`).
        guard let waitForExit = try? process.spawn() else { return nil }
        // Read standard error on another thread, so neither pipe can fill up and stall git.
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        waitForExit()
        return Result(
            status: process.terminationStatus, output: data, errors: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Reads a pipe to its end in the background.
    private final class ErrorCollector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            DispatchQueue.global().async {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
