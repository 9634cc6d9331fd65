#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if os(Linux)
    /// One inotify instance (Linux): folders watched by number, their events read in batches.
    /// Closed when the value is freed.
    final class Inotify: Sendable {
        /// One event: the watch it came from, what happened, and the entry's name inside the
        /// watched folder (empty for the folder itself).
        struct Event {
            var watch: Int32
            var mask: UInt32
            var name: String
        }

        /// The event bits of linux/inotify.h, which the C module imports with no fixed type.
        enum Mask {
            /// `IN_MODIFY`: a file in the folder was written.
            static let modify: UInt32 = 0x0000_0002
            /// `IN_ATTRIB`: an entry's metadata (times, permissions, links) changed.
            static let attributes: UInt32 = 0x0000_0004
            /// `IN_MOVED_FROM`, `IN_MOVED_TO`: an entry was renamed out of, or into, the folder.
            static let movedFrom: UInt32 = 0x0000_0040
            static let movedTo: UInt32 = 0x0000_0080
            /// `IN_CREATE`, `IN_DELETE`: an entry was made or removed.
            static let create: UInt32 = 0x0000_0100
            static let delete: UInt32 = 0x0000_0200
            /// `IN_DELETE_SELF`, `IN_MOVE_SELF`: the watched folder itself was removed or moved.
            static let deleteSelf: UInt32 = 0x0000_0400
            static let moveSelf: UInt32 = 0x0000_0800
            /// `IN_Q_OVERFLOW`: events were lost (the kernel's queue was full).
            static let overflow: UInt32 = 0x0000_4000
            /// `IN_IGNORED`: the watch is gone (its folder removed, or the watch taken off).
            static let ignored: UInt32 = 0x0000_8000
            /// `IN_ONLYDIR`: watch the path only if it is a folder.
            static let onlyFolder: UInt32 = 0x0100_0000
            /// `IN_DONT_FOLLOW`: don't follow the path if it is a symbolic link.
            static let dontFollow: UInt32 = 0x0200_0000
            /// `IN_EXCL_UNLINK`: no events for entries after they are unlinked.
            static let excludeUnlinked: UInt32 = 0x0400_0000
            /// `IN_MASK_ADD`: add to the events of a watch the inode already has.
            static let add: UInt32 = 0x2000_0000
            /// `IN_ISDIR`: the entry is a folder.
            static let isFolder: UInt32 = 0x4000_0000
        }

        /// Why a watch could not be added.
        enum Refusal: Error {
            /// The kernel's limit of watches for this user is reached (`ENOSPC`).
            case limit
            /// There is nothing at the path (`ENOENT`).
            case missing
            /// Anything else (not a folder, not readable), with the system's message.
            case other(String)
        }

        private let descriptor: Int32

        /// A new instance, non-blocking; nil when the kernel gives none (too many instances).
        init?() {
            descriptor = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }

        /// Watches the folder at `path` for `mask`; the watch's number (the same for every path
        /// that leads to one folder).
        func add(_ path: String, _ mask: UInt32) throws(Refusal) -> Int32 {
            let watch = inotify_add_watch(descriptor, path, mask)
            guard watch < 0 else { return watch }
            switch errno {
            case ENOSPC: throw .limit
            case ENOENT: throw .missing
            case let code: throw .other(String(cString: strerror(code)))
            }
        }

        func remove(_ watch: Int32) {
            inotify_rm_watch(descriptor, watch)
        }

        /// Whether events are waiting, after waiting `milliseconds` at most.
        func waitForEvents(milliseconds: Int32) -> Bool {
            var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&wanted, 1, milliseconds) > 0
        }

        /// Every event queued now (none without waiting).
        func queued() -> [Event] {
            var events: [Event] = []
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            let header = MemoryLayout<inotify_event>.size
            while true {
                let count = read(descriptor, buffer, size)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return events }
                var offset = 0
                // Each event: its watch, mask, cookie and name's length (`inotify_event`), then the
                // name, padded with NULs to that length.
                while offset + header <= count {
                    let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let bytes = UnsafeRawBufferPointer(
                        start: buffer + offset + header, count: max(0, min(length, count - offset - header)))
                    events.append(Event(watch: watch, mask: mask, name: String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)))
                    offset += header + length
                }
            }
        }
    }
#endif
