#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore

/// Thin, fast wrappers over POSIX file calls.
///
/// Plain `readdir` and `read`, not Foundation's directory enumeration and file reading: the
/// project was begun on the judgement that Foundation's per-entry overhead would cost several
/// times the build floor on large content (no measurement of it is kept in docs/). Paths are
/// plain strings.
public enum FileSystem {
    /// Content files larger than this are refused rather than read: nothing a player writes is that big.
    public static let maximumFileSize = 4 << 20

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        /// Where in the file the problem is, when it is about the file's bytes.
        public var position: TextPosition? = nil
        /// Whether the file isn't there at all (`ENOENT`).
        public var isMissing = false
        public var description: String { "\(path): error: \(message)" }
    }

    /// What a directory holds.
    public struct Entry: Sendable, Hashable {
        public enum Kind: Sendable { case file, directory, symlink, other }
        public var name: String
        public var kind: Kind
    }

    /// The entries of `path` except `.`, `..`, in name order; nil if it does not exist.
    ///
    /// `observe`, if given, hears the folder's own metadata, taken before its entries are
    /// listed, and then each entry's name as bytes (a name that isn't UTF-8 is repaired in its
    /// `Entry`): what a `FileInventory` records of the folder, without stat-ing it again.
    public static func list(_ path: String, observe: Observer? = nil) throws(Failure) -> [Entry]? {
        try withListing(path, observe: observe) { _, entries in entries }
    }

    /// A folder held open while `body` reads the files it listed (`readBytes(_:in:)`).
    ///
    /// A content file's path runs seven folders deep, and opening it by that path has the kernel
    /// look each folder up again: reading the 280,000 snippets and ballots of a large game by
    /// name from their folder's descriptor (`openat`) takes a tenth less time than by path.
    public struct Folder {
        /// The folder's path, which the paths of its files start with.
        public let path: String
        let descriptor: Int32

        /// The metadata of the entry `name` of this folder, without following a link; nil when it
        /// is gone. Looked up from the open folder: no walk of the folders on its path again.
        public func status(of name: String) -> stat? {
            var info = stat()
            return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
        }
    }

    /// `list`, with the folder kept open while `body` works on its entries (`body` gets them in
    /// name order); nil if the folder does not exist.
    public static func withListing<Result>(
        _ path: String, observe: Observer? = nil, _ body: (Folder, [Entry]) -> Result
    ) throws(Failure) -> Result? {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return nil }
            throw Failure(path: path, message: "cannot read folder: \(lastError())")
        }
        defer { closedir(dir) }
        if let observe {
            var info = stat()
            guard fstat(dirfd(dir), &info) == 0 else { throw Failure(path: path, message: "cannot read folder: \(lastError())") }
            observe.folder(info)
        }
        var entries: [Entry] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { cName in
                    if let observe, !(cName[0] == 0x2E && (cName[1] == 0 || cName[1] == 0x2E && cName[2] == 0)) {
                        cName.withMemoryRebound(to: UInt8.self, capacity: 256) {
                            observe.name(UnsafeBufferPointer(start: $0, count: strlen(cName)))
                        }
                    }
                    return String(cString: cName)
                }
            }
            if name == "." || name == ".." { continue }
            var kind: Entry.Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = kindByStat("\(path)/\(name)")
            default: kind = .other
            }
            entries.append(Entry(name: name, kind: kind))
        }
        observe?.done()
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return body(Folder(path: path, descriptor: dirfd(dir)), entries)
    }

    /// The size in bytes of the file at `path` (not following a symlink), nil if there is none.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    static func kindByStat(_ path: String) -> Entry.Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    /// Reads a whole file as bytes, refusing symbolic links and files over the size limit.
    ///
    /// Opened without blocking: a named pipe where a content file should be would otherwise wait
    /// forever for a writer; this way it is refused as not a regular file.
    ///
    /// `observe`, if given, hears the file's metadata, taken before it is read.
    ///
    /// With the open `folder` the file is in (`path` is then the folder's path, a slash and the
    /// file's name), the file is opened by its name from the folder.
    public static func readBytes(
        _ path: String, in folder: Folder? = nil, limit: Int = maximumFileSize, observe: Observer? = nil
    ) throws(Failure) -> [UInt8] {
        let fd = openFile(path, in: folder, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw Failure(path: path, message: "is a symbolic link; content files must be regular files") }
            throw Failure(path: path, message: "cannot read: \(lastError(code))", isMissing: code == ENOENT)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: path, message: "cannot read: \(lastError())") }
        observe?.file(info)
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(path: path, message: "is not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw Failure(path: path, message: "is \(size) bytes; content files may be at most \(limit) bytes")
        }
        // Filled by `read` alone: zeroing the array first wrote every byte twice.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            (count, failure) = readAll(fd, into: UnsafeMutableRawBufferPointer(buffer))
        }
        guard failure == 0 else { throw Failure(path: path, message: "cannot read: \(lastError(failure))") }
        return bytes
    }

    /// The bytes of the regular file at `path` while it is the file `expected` describes: the
    /// same device, inode, size and times, as the open file shows them before and after it is
    /// read. For the previous site's files a build makes again from parts of them, found intact
    /// by their recorded metadata just before: the file read is then the one checked. nil
    /// otherwise, or when it can't be read.
    public static func readIfUnchanged(_ path: String, as expected: stat) -> [UInt8]? {
        withRegularFile(path) { fd, info in
            guard isSameFile(info, expected), let bytes = readUpTo(fd, count: Int(info.st_size)), bytes.count == Int(info.st_size)
            else { return nil }
            var after = stat()
            return fstat(fd, &after) == 0 && isSameFile(after, expected) ? bytes : nil
        }
    }

    /// The first `limit` bytes of the regular file at `path` (all of it when shorter); nil
    /// when it can't be read, or isn't a regular file.
    public static func readStart(of path: String, upTo limit: Int) -> [UInt8]? {
        withRegularFile(path) { fd, info in readUpTo(fd, count: min(Int(info.st_size), limit)) }
    }

    /// `body` with the regular file at `path` opened (without following a link or waiting on a
    /// named pipe) and its metadata; nil when it can't be opened or isn't a regular file.
    private static func withRegularFile<Result>(_ path: String, _ body: (Int32, stat) -> Result?) -> Result? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return body(fd, info)
    }

    /// Up to `count` bytes from `fd`; nil when a read fails.
    private static func readUpTo(_ fd: Int32, count: Int) -> [UInt8]? {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, filled in
            (filled, failure) = readAll(fd, into: UnsafeMutableRawBufferPointer(buffer))
        }
        return failure == 0 ? bytes : nil
    }

    /// A file's time in nanoseconds since 1970, to compare metadata by. Wrapping, not trapping,
    /// past 292 years either side of 1970: any user can date a file 2300 (`touch -d`), and the
    /// build must not crash on it. Two times then share a number only 584 years apart.
    public static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Whether two looks at a file saw the same file, unchanged: device, inode, size and times.
    private static func isSameFile(_ a: stat, _ b: stat) -> Bool {
        a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec
            && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec
    }

    /// Reads from `fd` until `buffer` is full or the file ends: how many bytes were read, and
    /// the `errno` of a read that failed (0 if none did). A file that grew since it was sized is
    /// cut at the buffer's end; one that shrank gives fewer bytes.
    static func readAll(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, error: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var done = 0
        while done < buffer.count {
            let n = read(fd, base + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            guard n > 0 else { break }
            done += n
        }
        return (done, 0)
    }

    /// Reads a whole file as UTF-8 text; invalid UTF-8 is an error, never silently replaced.
    ///
    /// A NUL byte is an error too: no text a player writes has one, the YAML reader refuses it
    /// anyway, and Markdown would turn it into a replacement character. Either way the error
    /// points at the first offending byte, so a long file can be fixed without guessing.
    public static func readText(_ path: String, in folder: Folder? = nil, observe: Observer? = nil) throws(Failure) -> String {
        let bytes = try readBytes(path, in: folder, observe: observe)
        if let nul = bytes.firstIndex(of: 0) {
            throw Failure(path: path, message: "holds a NUL byte; content files are text", position: position(of: nul, in: bytes))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(
                path: path, message: "is not valid UTF-8 text", position: position(of: firstInvalidUTF8(bytes), in: bytes))
        }
        return text
    }

    /// The offset of the first byte that doesn't belong to a valid UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }

    /// The line and column (in characters, from 1) of byte `offset` of a UTF-8 file.
    static func position(of offset: Int, in bytes: [UInt8]) -> TextPosition {
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1
        return TextPosition(line: line, column: column)
    }

    /// What `list` and `readBytes` tell about the folders and files they open, as they open them.
    public struct Observer {
        /// A listed folder's own metadata.
        var folder: (stat) -> Void = { _ in }
        /// Each name in the folder, `.` and `..` left out.
        var name: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }
        /// A read file's metadata.
        var file: (stat) -> Void = { _ in }
        /// The folder's listing is complete.
        var done: () -> Void = {}
    }

    /// Opens `path`, from `folder` by the name after the folder's path when `path` is in it.
    private static func openFile(_ path: String, in folder: Folder?, _ flags: Int32) -> Int32 {
        let prefix = folder?.path.utf8.count ?? 0
        guard let folder, path.utf8.count > prefix + 1, path.utf8.starts(with: folder.path.utf8),
            path.utf8.dropFirst(prefix).first == UInt8(ascii: "/")
        else { return open(path, flags) }
        return path.withCString { openat(folder.descriptor, $0 + prefix + 1, flags) }
    }

    /// `realpath(3)`: absolute, with every symbolic link, `.` and `..` resolved; nil if missing.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` without the slashes that end it (`Site/` is `Site`), but `/` stays `/`.
    public static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Whether `path` itself is a symbolic link.
    public static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and any missing parents.
    public static func makeDirectories(_ path: String) throws(Failure) {
        if isDirectory(path) { return }
        let parent = parentPath(path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw Failure(path: path, message: "cannot create folder: \(lastError())")
        }
    }

    /// Removes a file or a whole folder tree (not following links).
    public static func removeTree(_ path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for entry in try list(path) ?? [] { try removeTree("\(path)/\(entry.name)") }
            guard rmdir(path) == 0 else { throw Failure(path: path, message: "cannot remove: \(lastError())") }
        } else {
            guard unlink(path) == 0 else { throw Failure(path: path, message: "cannot remove: \(lastError())") }
        }
    }

    /// Writes all of `bytes` to `fd`, retrying short and interrupted writes; false on an error
    /// (`errno` tells which).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool { writeAll(fd, bytes[...]) }

    /// Writes all of `bytes` (a part of a larger buffer, written where it lies).
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    public static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastError(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
