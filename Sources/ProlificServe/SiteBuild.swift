import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One build of the site as `prolific build` makes it, run by the `prolific` installed beside
/// `prolific-serve`.
///
/// A process of its own rather than a call: every cache in `.prolific/` is keyed by the binary
/// that wrote it (`RunningBinary`), so builds made here in process would throw away what
/// `prolific build` and `close` keep, and the other way round. Each build also gives its memory
/// back at its exit, and one that crashes leaves the server running. swift-subprocess starts it
/// with every signal unblocked and at its default action: started with Foundation's `Process`
/// from a dispatch worker thread, a build got that thread's blocked signals (SIGINT and SIGTERM
/// among them), so Ctrl-C did not reach it and it outlived the server.
struct SiteBuild: Sendable {
    /// The `prolific` program.
    var program: String
    /// `build` and its options.
    var arguments: [String]

    /// More than any build prints: its diagnostics and warnings, a line each (swift-subprocess
    /// reserves this much for each capture, and ends a build that prints more).
    static let printedLimit = 4 << 20

    /// How a build went: whether it exited with 0, and what it printed when that was captured.
    struct Outcome: Equatable {
        var succeeded: Bool
        var printed: String
        /// The signal that ended it, if one did.
        var signal: Int32? = nil

        /// Ended by Ctrl-C or a request to stop, which the server gets too.
        var wasStopped: Bool { signal == SIGINT || signal == SIGTERM }
    }

    /// Runs the build and waits for it; cancelling the task kills it (a killed build leaves the
    /// site as it was). `capturing`: its standard error is returned rather than passed through,
    /// so the report can say what caused the build; else the build writes to the terminal
    /// itself, with its progress.
    func run(capturing: Bool) async throws -> Outcome {
        let executable = Executable.path(FilePath(program))
        if capturing {
            let result = try await Subprocess.run(
                executable, arguments: Arguments(arguments), output: .currentStandardOutput,
                error: .string(limit: Self.printedLimit))
            return Self.outcome(result.terminationStatus, printed: result.standardError)
        }
        let result = try await Subprocess.run(
            executable, arguments: Arguments(arguments), output: .currentStandardOutput, error: .currentStandardError)
        return Self.outcome(result.terminationStatus, printed: "")
    }

    /// The line for a build that couldn't be run, or whose output couldn't be taken.
    static func explain(_ error: any Error, program: String) -> String {
        if let failure = error as? SubprocessError, failure.code == .outputLimitExceeded {
            return "error: the build printed more than \(printedLimit >> 20) MiB of messages and was stopped"
        }
        return "error: cannot run '\(program)': \(error)"
    }

    static func outcome(_ status: TerminationStatus, printed: String) -> Outcome {
        var signal: Int32?
        if case .signaled(let number) = status { signal = number }
        return Outcome(succeeded: status.isSuccess, printed: printed, signal: signal)
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
            if let signal = outcome.signal { lines.append("error: the build was ended by signal \(signal)") }
            lines.append(prefix + "The build failed; still serving the previous site.")
        }
        return lines
    }
}
