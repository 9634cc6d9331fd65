#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file mapped read-only into memory, for a cache read at the start of every build:
/// its bytes are the page cache's pages, not copied into fresh ones. Reading the large build
/// stamp (15 MB) into an array took 8–14 ms of a 0.45 s no-op build; mapping it takes 0.1 ms.
/// Where a file system can't map it (some FUSE or network ones), it is read whole instead.
///
/// A mapping keeps the file it was made of when another takes its name (`AtomicFile.write`), but
/// would see the file change, or fault past its end, were it written in place, as a cache's
/// spare is (`AtomicFile.write(parts:to:reusing:)`: the stamp of two builds ago, which a
/// long build may still have mapped). So a mapping holds a shared `flock` on its
/// file for as long as it lives, and the spare is written in place only under an exclusive
/// one; a file locked by such a writer is not mapped (a miss).
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid as long as this object lives (never written while it does).
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether `bytes` are mapped (else allocated and read).
    private let isMapped: Bool
    /// The file, open and locked (shared) while it is mapped; -1 when it was read.
    private let descriptor: Int32
    /// The file's metadata when it was opened: what tells this version of it from another.
    let stamp: FileInventory.Stamp

    /// The file at `path`, if it is a regular file (not a link) of 1 to `limit` bytes that can be
    /// mapped or read. `mapping: false` reads it, as when mapping fails.
    init?(_ path: String, limit: Int, mapping: Bool = true) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        // Locked before its size is taken: a writer that held the lock has finished. Where the
        // file system has no locks, no one writes in place either (`AtomicFile.rewrite`).
        let isBeingWritten = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
        guard !isBeingWritten, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, info.st_size <= limit
        else {
            close(fd)
            return nil
        }
        let size = Int(info.st_size)
        stamp = FileInventory.Stamp(info)
        if mapping, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED {
            bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
            isMapped = true
            descriptor = fd
            return
        }
        defer { close(fd) }
        descriptor = -1
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var done = 0
        while done < size {
            let n = read(fd, buffer + done, size - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        guard done == size else {
            buffer.deallocate()
            return nil
        }
        bytes = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: size)
        isMapped = false
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
            close(descriptor)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}
