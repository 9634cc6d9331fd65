import Foundation

/// One build of the site as `prolific build` makes it, run by the `prolific` installed beside
/// `prolific-serve`.
///
/// A process of its own rather than a call: every cache in `.prolific/` is keyed by the binary
/// that wrote it (`RunningBinary`), so builds made here in process would throw away what
/// `prolific build` and `close` keep, and the other way round. Each build also gives its memory
/// back at its exit, and one that crashes leaves the server running.
struct SiteBuild: Sendable {
    /// The `prolific` program.
    var program: String
    /// `build` and its options.
    var arguments: [String]

    /// How a build went: its exit status, and what it printed when that was captured.
    struct Outcome: Equatable {
        var succeeded: Bool
        var printed: String
    }

    /// Runs the build and waits for it. `capturing`: its standard error is returned rather than
    /// passed through, so the report can say what caused the build; else the build writes to the
    /// terminal itself, with its progress.
    func run(capturing: Bool) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let pipe = capturing ? Pipe() : nil
        if let pipe { process.standardError = pipe }
        try process.run()
        let printed = pipe.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        process.waitUntilExit()
        return Outcome(succeeded: process.terminationReason == .exit && process.terminationStatus == 0, printed: printed)
    }

    /// What `serve` prints after a build: the build's own lines, the last one, which says how it
    /// went, after the reason for the build (`C/b.md changed. Built 45 pages …`), and a last line
    /// when it failed.
    static func report(_ outcome: Outcome, because reason: String?) -> [String] {
        let prefix = reason.map { "\($0). " } ?? ""
        var lines = outcome.printed.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if outcome.succeeded {
            if let last = lines.popLast() { lines.append(prefix + last) }
        } else {
            lines.append(prefix + "The build failed; still serving the previous site.")
        }
        return lines
    }
}
