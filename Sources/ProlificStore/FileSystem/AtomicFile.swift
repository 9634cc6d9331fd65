#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes that never leave a half-written file: a temporary file in the same folder, flushed to
/// disk, then renamed (replace) or linked (create-only) into place.
///
/// A command killed mid-write leaves its temporary file behind. The content ignores it (its name
/// starts with a dot), and the next write to the same folder removes it: the name carries the
/// writer's process id, so only files of processes that no longer run are removed.
public enum AtomicFile {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Create-only: something is already at the path.
        case exists(path: String)
        case io(path: String, message: String)

        public var description: String {
            switch self {
            case .exists(let path): "\(path): error: already exists"
            case .io(let path, let message): "\(path): error: \(message)"
            }
        }
    }

    /// Replaces (or creates) the file at `path` with `text`, atomically.
    public static func write(_ text: String, to path: String) throws(Failure) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Replaces (or creates) the file at `path` with `bytes`, atomically.
    ///
    /// `durable: false` skips flushing the file and its folder to disk, for caches: a crash may
    /// then leave the old file, the new one, or an empty or short one, which their readers
    /// refuse; a cache lost only costs speed, and flushing the build's 37 MB stamp took a
    /// rebuild up to 0.2 s.
    public static func write(bytes: [UInt8], to path: String, durable: Bool = true) throws(Failure) {
        try write(parts: [bytes], to: path, durable: durable)
    }

    /// The same, the file being `parts` one after the other: a file made of parts made apart
    /// (the build's stamp) needn't be put together in memory first.
    static func write(parts: [[UInt8]], to path: String, durable: Bool = true) throws(Failure) {
        let temporary = try writeTemporary(parts.map { $0[...] }, beside: path, durable: durable)
        guard rename(temporary, path) == 0 else {
            let message = FileSystem.lastError()
            unlink(temporary)
            throw .io(path: path, message: "cannot replace: \(message)")
        }
        if durable { syncDirectory(of: path) }
    }

    /// The same for a cache (not durable), written into the file at `spare` (a file this user
    /// owns, with no other link: the one a previous call replaced) instead of a new one, and the
    /// file replaced kept at `spare` for the next call. A new file's pages are fresh memory, dear
    /// on the machines measured (docs/performance.md, "Fresh memory"): writing the large site's
    /// 15 MB build stamp into a new file took 18–20 ms at the end of every build, over the
    /// spare's pages, still cached, 3 ms. Without a spare it is written as `write` writes.
    ///
    /// The spare is taken by renaming it to a temporary name of this process and file, so two
    /// writers never share it, and is written only under an exclusive `flock`: a process that
    /// still has it mapped holds a shared one (`MappedFile`), and the bytes then go to a new
    /// file instead. The file at `path` is whole at every moment: the replaced file is linked at
    /// `spare` before the new one is renamed over it. A spare that is not a regular file, or has
    /// another link (a call killed between the two), is not written into but removed.
    static func write(parts: [[UInt8]], to path: String, reusing spare: String) throws(Failure) {
        try write(parts: parts.map { $0[...] }, to: path, reusing: spare)
    }

    /// The same, each part where it lies: a part of a larger buffer (the replay cache's kept
    /// rounds, 19 MB on large, as the file was read) is written without a copy.
    static func write(parts: [ArraySlice<UInt8>], to path: String, reusing spare: String) throws(Failure) {
        let folder = FileSystem.parentPath(path)
        let claimed = "\(folder)/\(temporaryPrefix)\(getpid())-\(path.split(separator: "/").last.map(String.init) ?? "file")-reused"
        let written: String
        if rename(spare, claimed) == 0 {
            if rewrite(claimed, with: parts) {
                // What killed writers left (`writeTemporary` sweeps it on the other paths).
                removeLeftovers(in: folder)
                written = claimed
            } else {
                // Whatever it is (a folder is left aside, by its temporary name, until removed).
                if unlink(claimed) != 0 { rmdir(claimed) }
                written = try writeTemporary(parts, beside: path, durable: false)
            }
        } else {
            written = try writeTemporary(parts, beside: path, durable: false)
        }
        _ = link(path, spare)
        guard rename(written, path) == 0 else {
            let message = FileSystem.lastError()
            unlink(written)
            throw .io(path: path, message: "cannot replace: \(message)")
        }
    }

    /// Writes `parts` over the file at `path`, when it is a regular file of this user's with no
    /// other link that no one has locked (mapped); false when it is not, can't be locked (a file
    /// system without locks), or can't be written.
    private static func rewrite(_ path: String, with parts: [ArraySlice<UInt8>]) -> Bool {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
            info.st_uid == geteuid()
        else { return false }
        return parts.allSatisfy { FileSystem.writeAll(fd, $0) } && ftruncate(fd, off_t(parts.reduce(0) { $0 + $1.count })) == 0
    }

    /// Creates the file at `path` with `text`; fails with `.exists` rather than overwrite anything.
    public static func create(_ text: String, at path: String) throws(Failure) {
        try create(bytes: Array(text.utf8), at: path)
    }

    /// Creates the file at `path` with `bytes`; fails with `.exists` rather than overwrite anything.
    public static func create(bytes: [UInt8], at path: String) throws(Failure) {
        let temporary = try writeTemporary([bytes[...]], beside: path)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST { throw .exists(path: path) }
            throw .io(path: path, message: "cannot create: \(FileSystem.lastError(code))")
        }
        syncDirectory(of: path)
    }

    private static func writeTemporary(_ parts: [ArraySlice<UInt8>], beside path: String, durable: Bool = true) throws(Failure) -> String {
        let folder = FileSystem.parentPath(path)
        do { try FileSystem.makeDirectories(folder) } catch { throw .io(path: folder, message: error.message) }
        removeLeftovers(in: folder)
        var template = Array("\(folder)/\(temporaryPrefix)\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(path: path, message: "cannot write: \(FileSystem.lastError())") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = parts.allSatisfy { FileSystem.writeAll(fd, $0) }
        let message = ok ? "" : FileSystem.lastError()
        if ok && durable && fsync(fd) != 0 { ok = false }
        fchmod(fd, 0o644)
        close(fd)
        guard ok else {
            unlink(temporary)
            throw .io(path: path, message: "cannot write: \(message.isEmpty ? FileSystem.lastError() : message)")
        }
        return temporary
    }

    /// Temporary files are `.prolific-tmp-PID-XXXXXX`.
    static let temporaryPrefix = ".prolific-tmp-"

    /// Removes the temporary files in `folder` of processes that no longer run: left by a command
    /// killed mid-write. Harmless as content, but `git status` would show them and
    /// `git add Content` would commit them.
    private static func removeLeftovers(in folder: String) {
        guard let entries = try? FileSystem.list(folder) else { return }
        for entry in entries where entry.kind == .file && entry.name.hasPrefix(temporaryPrefix) {
            let rest = entry.name.dropFirst(temporaryPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink("\(folder)/\(entry.name)")
        }
    }

    /// Makes the rename itself durable.
    private static func syncDirectory(of path: String) {
        let fd = open(FileSystem.parentPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
