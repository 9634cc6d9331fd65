import Foundation
import ProlificCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `prolific-serve` in place of this process, the way `git` runs its `git-*` programs.
///
/// In place (`execv`), not as a child: Ctrl-C, the exit status and the terminal go straight to
/// the server, with no second process to forward them or to outlive it.
package enum ServeLauncher {
    static let program = "prolific-serve"
    /// What to do when one of the two programs is not beside the other.
    package static let remedy = "build both with 'make release', or install both with 'make install'"

    /// Runs `prolific-serve` from the folder of the running `prolific`; returns only by throwing.
    static func start(arguments: [String]) throws(Diagnostics) {
        guard let running = runningExecutable() else {
            throw Diagnostics([.plain("cannot find the running prolific's own file, beside which \(program) is")])
        }
        let path = Self.path(of: program, beside: running)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        execv(path, argv)
        // Read at once: freeing the arguments may set it.
        let failure = errno
        throw Diagnostics([.plain(Self.failure(path: path, errorNumber: failure))])
    }

    /// `prolific-serve` beside `…/bin/prolific` is `…/bin/prolific-serve`: the two are built and
    /// installed together, and each finds the other there.
    package static func path(of program: String, beside executable: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(program).path
    }

    /// Why `execv` failed, and what to do about the common case, a missing program.
    static func failure(path: String, errorNumber: Int32) -> String {
        if errorNumber == ENOENT {
            return "no \(program) at '\(path)': 'prolific serve' runs it from the folder of prolific; \(remedy)"
        }
        return "cannot run '\(path)': \(String(cString: strerror(errorNumber)))"
    }

    /// The running program's own file with links resolved, so a `prolific` reached through a
    /// symbolic link still finds the `prolific-serve` installed beside the real one; nil when the
    /// system won't say. Never guessed from the command's name, which may be a bare `prolific`
    /// found on the PATH and would then be looked for in the working folder.
    package static func runningExecutable() -> String? {
        #if os(Linux)
            return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
            return Bundle.main.executablePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        #endif
    }
}
