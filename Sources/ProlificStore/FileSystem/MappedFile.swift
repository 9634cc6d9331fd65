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
/// Only for files replaced whole (`AtomicFile`): a mapping keeps the file it was made of even
/// when another takes its name, but a file cut short in place while mapped would fault.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid as long as this object lives (never written).
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether `bytes` are mapped (else allocated and read).
    private let isMapped: Bool

    /// The file at `path`, if it is a regular file (not a link) of 1 to `limit` bytes that can be
    /// mapped or read. `mapping: false` reads it, as when mapping fails.
    init?(_ path: String, limit: Int, mapping: Bool = true) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, info.st_size <= limit else {
            return nil
        }
        let size = Int(info.st_size)
        if mapping, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED {
            bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
            isMapped = true
            return
        }
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
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}
