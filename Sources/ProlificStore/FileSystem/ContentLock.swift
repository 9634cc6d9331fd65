#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serializes commands that change a content directory.
///
/// An exclusive `flock(2)` on the content folder itself: it leaves no lock file behind, and the
/// kernel releases it when the process ends, however it ends, so a killed command never leaves a
/// stale lock.
public final class ContentLock {
    private let fd: Int32

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): error: \(message)" }
    }

    /// Blocks until the lock on `directory` is held; `waiting` is called once if another command has it.
    public init(directory: String, waiting: () -> Void = {}) throws(Failure) {
        fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(path: directory, message: "cannot open the content folder: \(FileSystem.lastError())")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            waiting()
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let message = FileSystem.lastError()
                    close(fd)
                    throw Failure(path: directory, message: "cannot lock the content folder: \(message)")
                }
            }
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
