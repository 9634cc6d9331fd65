import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `prolific` started with `posix_spawn` and not waited for: to be killed at a chosen moment
/// (the crash tests) or run many at once (the concurrency tests). Standard input comes from a
/// file, output goes to files, so nothing blocks on a pipe.
struct Spawned {
    /// How a process ended.
    enum Exit: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    let pid: pid_t
    /// When it was started, on the monotonic clock.
    let started: UInt64
    let output: URL
    let errors: URL

    /// Starts `executable` (the `prolific` under test) with `arguments`, reading `input` (nil:
    /// /dev/null) and writing to `output` and `errors`. Paths in `arguments` should be absolute.
    static func start(
        _ arguments: [String], executable: URL = CLI.executable, input: URL? = nil, output: URL, errors: URL
    ) throws -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input?.path ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let started = now()
        let code = posix_spawn(&pid, executable.path, &actions, nil, argv, environment)
        guard code == 0 else {
            throw Shell.Failure(description: "posix_spawn: \(String(cString: strerror(code)))")
        }
        return Spawned(pid: pid, started: started, output: output, errors: errors)
    }

    /// Sends SIGKILL once `delay` microseconds have passed since the start (at once if they have).
    func kill(after delay: UInt64) {
        // A signal (SIGCHLD of another child) can cut a sleep short: sleep again for the rest.
        while case let elapsed = Self.now() - started, elapsed < delay {
            usleep(UInt32(min(delay - elapsed, 1_000_000)))
        }
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the process to end; its lock and files are released by then.
    func wait() -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    var stdout: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Microseconds on the monotonic clock.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1_000
    }
}

/// Random numbers from a seed, so a failing run can be repeated: SplitMix64.
///
/// The seed is `PROLIFIC_SEED` if set, else drawn at random; tests print it.
struct SeededRandom: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(name: String) {
        let given = ProcessInfo.processInfo.environment["PROLIFIC_SEED"].flatMap { UInt64($0) }
        seed = given ?? UInt64.random(in: 1...UInt64.max)
        // Each test mixes its name in, so tests that share a seed still draw differently.
        state = name.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        print("\(name): seed \(seed) (rerun with PROLIFIC_SEED=\(seed))")
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Whether the runs are the long ones (`make stress`): PROLIFIC_STRESS=1.
enum Stress {
    static var enabled: Bool { ProcessInfo.processInfo.environment["PROLIFIC_STRESS"] == "1" }

    /// `fast` in `make test`, `long` under `make stress`.
    static func count(fast: Int, long: Int) -> Int { enabled ? long : fast }
}

/// Probes the `flock` the CLI takes on a content folder.
enum LockProbe {
    /// How taking the lock went: at once, or after a wait, and who held it meanwhile.
    struct Result: CustomStringConvertible {
        var free: Bool
        /// Microseconds until it was free (0: at once).
        var waited: UInt64
        /// The processes that had the folder open when it was first tried: "PID command".
        var holder: String?

        var description: String {
            "\(free ? "free" : "still held") after \(waited / 1000) ms, held by \(holder ?? "a process that was gone at once")"
        }
    }

    /// Takes the exclusive lock on `folder` and releases it again, waiting up to `timeout` seconds.
    static func take(_ folder: URL, timeout: Double = 10) -> Result {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return Result(free: false, waited: 0, holder: "cannot open \(folder.path)") }
        defer { close(fd) }
        let start = Spawned.now()
        var holder: String? = nil
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if holder == nil { holder = Self.holder(of: folder) ?? "?" }
            if Spawned.now() - start > UInt64(timeout * 1_000_000) {
                return Result(free: false, waited: Spawned.now() - start, holder: holder)
            }
            usleep(1_000)
        }
        flock(fd, LOCK_UN)
        return Result(free: true, waited: holder == nil ? 0 : Spawned.now() - start, holder: holder)
    }

    /// The processes with `folder` open, besides this one: who may hold its lock. (/proc/locks
    /// names the process that took a lock, which may be gone while a child it started still holds it.)
    static func holder(of folder: URL) -> String? {
        let target = folder.standardizedFileURL.path
        var found: [String] = []
        let manager = FileManager.default
        for pid in (try? manager.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil && Int32(pid) != getpid() {
            let descriptors = (try? manager.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            guard descriptors.contains(where: { (try? manager.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == target })
            else { continue }
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
                .split(separator: "\0").joined(separator: " ") ?? "?"
            found.append("\(pid) \(command)")
        }
        return found.isEmpty ? nil : found.joined(separator: "; ")
    }
}
