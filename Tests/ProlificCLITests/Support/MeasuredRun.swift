import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A run of the `prolific` under test with a time limit, measured: how it ended, how long it took
/// and its peak memory.
///
/// The peak is the `VmHWM` of /proc/PID/status, read every few milliseconds once the process is
/// `prolific`: `wait4`'s `ru_maxrss` won't do, since posix_spawn starts the child in the test
/// process's memory (vfork), and the kernel carries that high-water mark across `exec`.
struct MeasuredRun {
    /// The exit status, nil if a signal ended it.
    var status: Int32?
    /// The signal that ended it, if one did (SIGKILL after `timedOut`).
    var signal: Int32?
    var timedOut: Bool
    var seconds: Double
    /// Peak resident memory in kilobytes.
    var peakKilobytes: Int
    var stdout: String
    var stderr: String

    var output: String { stdout + "\n" + stderr }

    /// Runs `prolific arguments…` in `directory` with `input` on standard input, killing it after
    /// `timeout` seconds. Output goes to files, so nothing blocks on a full pipe.
    static func run(_ arguments: [String], in directory: URL, input: Data = Data(), timeout: Double) throws -> MeasuredRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("prolific-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdin = scratch.appendingPathComponent("in")
        let stdout = scratch.appendingPathComponent("out")
        let stderr = scratch.appendingPathComponent("err")
        try input.write(to: stdin)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Swift's Glibc lacks posix_spawn_file_actions_addchdir_np: a shell changes folder and
        // then execs prolific, so the process waited for, and measured, is prolific itself.
        let shell = ["/bin/sh", "-c", "cd -- \"$1\" && shift && exec \"$@\"", "sh", directory.path, CLI.executable.path]
        let argv = (shell + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = monotonicSeconds()
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        guard code == 0 else { throw Shell.Failure(description: "posix_spawn: \(String(cString: strerror(code)))") }

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var peak = 0
        while true {
            peak = max(peak, highWaterKilobytes(of: pid) ?? 0)
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Shell.Failure(description: "wait4: \(String(cString: strerror(errno)))") }
            if monotonicSeconds() - start > timeout {
                timedOut = true
                kill(pid, SIGKILL)
                while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                break
            }
            usleep(2_000)
        }
        let seconds = monotonicSeconds() - start
        let signal = status & 0x7F
        return MeasuredRun(
            status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal, timedOut: timedOut,
            seconds: seconds, peakKilobytes: peak,
            stdout: String(decoding: (try? Data(contentsOf: stdout)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: stderr)) ?? Data(), as: UTF8.self))
    }

    /// The peak resident memory of `pid` while it runs `prolific` (not the shell before it).
    private static func highWaterKilobytes(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            status.hasPrefix("Name:\tprolific"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Everything about a folder tree that a command could change, symbolic links not followed:
/// each entry's path, kind, permission bits, link target, and its bytes' digest.
struct TreeSnapshot: Equatable {
    struct Entry: Equatable {
        var kind: String
        var mode: UInt32
        var target: String?
        var size: Int
        var digest: Int
    }

    var entries: [String: Entry] = [:]

    /// Files larger than this are compared by size, time and inode instead of read: the huge
    /// sparse files of the stress run.
    static let largestDigested = 64 << 20

    init(_ root: URL) {
        walk(root.path, relative: "")
    }

    /// The paths whose entries differ, for a readable failure.
    func differences(from other: TreeSnapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).filter { entries[$0] != other.entries[$0] }.sorted()
    }

    private mutating func walk(_ path: String, relative: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let mode = UInt32(info.st_mode) & 0o7777
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            entries[relative + "/"] = Entry(kind: "folder", mode: mode, size: 0, digest: 0)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names { walk(path + "/" + name, relative: relative + "/" + name) }
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            entries[relative] = Entry(kind: "link", mode: mode, target: target, size: 0, digest: 0)
        case S_IFREG:
            let size = Int(info.st_size)
            var digest: Int
            if size <= Self.largestDigested {
                var hasher = Hasher()
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data([0xFF])
                bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
                digest = hasher.finalize()
            } else {
                digest = Int(info.st_mtim.tv_sec) &* 1_000_000_007 &+ Int(info.st_mtim.tv_nsec) &+ Int(info.st_ino)
            }
            entries[relative] = Entry(kind: "file", mode: mode, size: size, digest: digest)
        default:
            entries[relative] = Entry(kind: "other \(info.st_mode & S_IFMT)", mode: mode, size: 0, digest: 0)
        }
    }
}
