import Foundation
import ProlificCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a built site into a fresh sibling folder and swaps it in, so a failed or killed build
/// leaves the previous site as it was: readers see the old site or the new one, never a mix.
///
/// A file whose bytes are the same as in the previous site is hard-linked from it instead of
/// written: its modification time stays, so `rsync` and web caches see only what changed.
/// Files are written on every core.
public enum SiteWriter {
    /// What a write did.
    public struct Report: Sendable, Equatable {
        /// Files whose bytes are new or changed.
        public var written: Int
        /// Files kept from the previous site.
        public var unchanged: Int
    }

    @discardableResult
    public static func write(_ files: [OutputFile], to output: String) throws(Diagnostics) -> Report {
        let staging = try Staging(output: output)
        do {
            try staging.write(files)
            return try staging.finish()
        } catch {
            staging.discard()
            throw error
        }
    }

    /// A site being written: files go into a fresh sibling folder batch by batch, as they are
    /// rendered, so a build never holds the whole site in memory; `finish` swaps it in.
    public final class Staging {
        let output: String
        let staging: String
        /// The site being replaced, whose unchanged files are linked rather than written.
        let previous: String?
        /// Folders made so far inside `staging`.
        private var folders: Set<String> = []
        private var report = Report(written: 0, unchanged: 0)

        public init(output given: String) throws(Diagnostics) {
            let output = given.hasSuffix("/") && given.count > 1 ? String(given.dropLast()) : given
            let url = URL(fileURLWithPath: output)
            let parent = url.deletingLastPathComponent().path
            let manager = FileManager.default
            var isDirectory: ObjCBool = false
            let exists = manager.fileExists(atPath: output, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue {
                throw Diagnostics([Diagnostic(path: output, message: "is a file, not a folder; choose another --out")])
            }
            self.output = output
            staging = SiteWriter.sibling(of: output, "building")
            previous = exists ? output : nil
            TreeRemoval.remove(staging)
            do {
                try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw Diagnostics([Diagnostic(path: output, message: "cannot make its folder: \(error.localizedDescription)")])
            }
            SiteWriter.removeLeftovers(of: url.lastPathComponent, in: parent)
            guard mkdir(staging, 0o755) == 0 else {
                throw Diagnostics([Diagnostic(path: output, message: "cannot write the site: \(staging): \(String(cString: strerror(errno)))")])
            }
        }

        /// Writes `files` (paths unique across all batches) into the staging folder.
        public func write(_ files: [OutputFile]) throws(Diagnostics) {
            do {
                let batch = try SiteWriter.fill(staging, with: files, previous: previous, made: &folders)
                report.written += batch.written
                report.unchanged += batch.unchanged
            } catch {
                throw Diagnostics([Diagnostic(path: output, message: "cannot write the site: \(error.message)")])
            }
        }

        /// Swaps the written site in; the staging folder is gone after this, whatever happens.
        public func finish() throws(Diagnostics) -> Report {
            try SiteWriter.swapIn(staging, at: output, replacing: previous != nil)
            return report
        }

        /// Removes what was written: the build failed, the previous site stays.
        public func discard() {
            TreeRemoval.remove(staging)
        }
    }

    /// Moves the finished `staging` folder to `output`.
    ///
    /// An existing site is exchanged with the new one in a single `renameat2(RENAME_EXCHANGE)`, so
    /// `output` is never missing, not even for an instant or after a kill; the previous site, now
    /// at `staging`, is removed afterwards. Where the filesystem can't exchange, the old site is
    /// renamed aside first: a build killed between the two renames leaves no `output` until the
    /// next build, but the old and new sites are still whole.
    static func swapIn(_ staging: String, at output: String, replacing exists: Bool) throws(Diagnostics) {
        if exists {
            switch exchange(staging, output) {
            case 0:
                TreeRemoval.remove(staging)
                return
            case EINVAL, ENOSYS, ENOTSUP:
                break
            case let code:
                TreeRemoval.remove(staging)
                throw Diagnostics([Diagnostic(path: output, message: "cannot swap the new site in: \(String(cString: strerror(code)))")])
            }
        }
        let retired = sibling(of: output, "old")
        if exists {
            TreeRemoval.remove(retired)
            guard rename(output, retired) == 0 else {
                TreeRemoval.remove(staging)
                throw Diagnostics([Diagnostic(path: output, message: "cannot replace the old site: \(String(cString: strerror(errno)))")])
            }
        }
        guard rename(staging, output) == 0 else {
            let message = String(cString: strerror(errno))
            if exists { rename(retired, output) }
            TreeRemoval.remove(staging)
            throw Diagnostics([Diagnostic(path: output, message: "cannot move the new site in place: \(message)")])
        }
        if exists { TreeRemoval.remove(retired) }
    }

    /// `.NAME.KIND-PID` beside `output`: this process's folder of that kind.
    static func sibling(of output: String, _ kind: String) -> String {
        let url = URL(fileURLWithPath: output)
        return "\(url.deletingLastPathComponent().path)/.\(url.lastPathComponent).\(kind)-\(getpid())"
    }

    /// Exchanges two paths atomically with `renameat2(2)`: 0, or the `errno` (ENOSYS where the C
    /// library lacks the call). Glibc has had it since 2.28, but Swift's Glibc module doesn't
    /// import it, so it is looked up by name.
    static func exchange(_ a: String, _ b: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE, from <linux/fs.h>
        guard let program = dlopen(nil, RTLD_NOW) else { return ENOSYS }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0 ? 0 : errno
    }

    /// Removes the `.NAME.building-PID` and `.NAME.old-PID` folders that builds killed before
    /// they finished left beside `NAME`: those whose process no longer runs. A build still
    /// running for the same output keeps its folder.
    static func removeLeftovers(of name: String, in parent: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries {
            for prefix in [".\(name).building-", ".\(name).old-"] where entry.hasPrefix(prefix) {
                guard let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0, pid != getpid(),
                    kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                TreeRemoval.remove("\(parent)/\(entry)")
            }
        }
    }

    struct Failure: Error {
        var message: String
    }

    /// Writes every file under `folder`, linking the unchanged ones from `previous`; `made` holds
    /// the folders already made, and gets those this batch needed.
    static func fill(_ folder: String, with files: [OutputFile], previous: String?, made: inout Set<String>) throws(Failure)
        -> Report
    {
        var folders: Set<String> = []
        for file in files {
            var path = file.path
            while let slash = path.lastIndex(of: "/") {
                path = String(path[..<slash])
                if made.contains(path) || !folders.insert(path).inserted { break }
            }
        }
        // Level by level, so a folder exists before the folders inside it; each level on every
        // core. Making folders is the slow part of writing where the file system hunts for free
        // inodes (ext4 without a journal skips those freed in the last minutes).
        var levels: [[String]] = []
        for path in folders {
            let depth = path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
            while levels.count <= depth { levels.append([]) }
            levels[depth].append(path)
        }
        for level in levels {
            _ = try Parallel.map(level.sorted()) { (path: String) throws(Failure) in
                guard mkdir("\(folder)/\(path)", 0o755) == 0 || errno == EEXIST else {
                    throw Failure(message: "\(folder)/\(path): \(String(cString: strerror(errno)))")
                }
            }
            made.formUnion(level)
        }
        let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let results = Results(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var report = Report(written: 0, unchanged: 0)
            for index in stride(from: worker, to: files.count, by: workers) {
                let file = files[index]
                let target = "\(folder)/\(file.path)"
                if let previous, same(file.contents, asFileAt: "\(previous)/\(file.path)"),
                    link("\(previous)/\(file.path)", target) == 0
                {
                    report.unchanged += 1
                    continue
                }
                if let problem = writeFile(file.contents, to: target) {
                    results.fail(problem)
                    return
                }
                report.written += 1
            }
            results.set(worker, report)
        }
        if let problem = results.failure { throw Failure(message: problem) }
        return results.reports.reduce(Report(written: 0, unchanged: 0)) {
            Report(written: $0.written + $1.written, unchanged: $0.unchanged + $1.unchanged)
        }
    }

    /// Whether the regular file at `path` holds exactly `bytes`.
    static func same(_ bytes: [UInt8], asFileAt path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count else {
            return false
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var old = [UInt8](repeating: 0, count: bytes.count)
        var done = 0
        while done < bytes.count {
            let n = old.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { return false }
            done += n
        }
        // memcmp: `==` on two arrays compares them element by element.
        return old.withUnsafeBytes { a in bytes.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// Creates `path` with `bytes`; nil, or what went wrong.
    static func writeFile(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                return "\(path): \(String(cString: strerror(errno)))"
            }
            done += n
        }
        return nil
    }

    /// What the workers found, behind a lock.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var reports: [Report]
        private(set) var failure: String?

        init(count: Int) { reports = Array(repeating: Report(written: 0, unchanged: 0), count: count) }

        func set(_ worker: Int, _ report: Report) { lock.withLock { reports[worker] = report } }
        func fail(_ message: String) { lock.withLock { if failure == nil { failure = message } } }
    }
}
