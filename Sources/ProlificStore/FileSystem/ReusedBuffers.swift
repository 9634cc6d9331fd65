#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Buffers to read a whole file into, decode, and let go: each is handed back and read into
/// again, so a file read this way needs no new memory once a buffer is big enough for it.
///
/// A rebuild of the large benchmark reads 136 MB of kept projects (`ProjectCache`) only to decode
/// them: into a fresh array each, about a twelfth of its page faults were those arrays' first
/// touch, and a new page is dear on this VM (docs/performance.md, "Fresh memory").
final class ReusedBuffers: Sendable {
    /// The buffers shared by every reader of kept caches.
    static let shared = ReusedBuffers()

    /// Buffers not in use; at most one per thread reading at once.
    private let idle = Mutex<[Buffer]>([])

    /// Memory kept between reads; not `Sendable` on its own, as one thread at a time uses it.
    private final class Buffer: @unchecked Sendable {
        var memory = UnsafeMutableRawBufferPointer(start: nil, count: 0)

        /// At least `size` bytes (their contents are not kept).
        func reserve(_ size: Int) -> UnsafeMutableRawBufferPointer {
            if memory.count < size {
                memory.deallocate()
                // Grown by half again, so a file a little bigger than the last doesn't
                // reallocate each time.
                memory = .allocate(byteCount: max(size, memory.count + memory.count / 2), alignment: 16)
            }
            return memory
        }

        deinit { memory.deallocate() }
    }

    /// Reads the regular file at `path` (not following a link) into a buffer and hands its
    /// bytes to `body`, which must not keep them; nil, without calling `body`, when the file
    /// can't be read or is larger than `limit`.
    func withContents<Result>(of path: String, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
        let buffer = idle.withLock { $0.popLast() } ?? Buffer()
        defer { idle.withLock { $0.append(buffer) } }
        let memory = UnsafeMutableRawBufferPointer(rebasing: buffer.reserve(Int(info.st_size))[0..<Int(info.st_size)])
        let count = FileSystem.readAll(fd, into: memory)
        return body(UnsafeBufferPointer(start: memory.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
    }
}
