import Dispatch
import Foundation
import ProlificStore

#if canImport(Glibc)
    import Glibc
#endif

/// The changes under the watched folders as the kernel reports them (Linux's inotify), so that
/// `serve` sees an edit at once and costs nothing while nothing changes. Scanning instead
/// (`Fingerprint`) stats every file at each look: on a large game's 300,000 files that kept a
/// core a third busy and saw an edit only seconds later.
///
/// What counts as a change is what a scan would see: any file or folder added, removed, renamed,
/// written or given new times, except under names starting with a dot (`.prolific/`, which a
/// build writes itself; `.git`; editors' swap files), which are neither watched nor reported. Every
/// folder is watched on its own (inotify doesn't watch a tree), folders made later as they
/// appear. A watched folder that doesn't exist yet (`Templates`, say) is waited for in its
/// parent. When the kernel's queue overflowed, or a watched folder itself was removed, moved or
/// replaced, everything is reported changed and watched afresh.
///
/// One task at a time calls `next()` (`Rebuilder`); the kernel queues events while a build runs,
/// so an edit made meanwhile causes the next rebuild.
final class FolderEvents: @unchecked Sendable {
    /// Why the kernel's events can't be had; `serve` then scans instead.
    struct Unavailable: Error {
        var reason: String
    }

    /// The folders as given (their paths start every path reported).
    let roots: [String]
    private var descriptor: Int32 = -1
    /// The folder each watch is on, by the watch's descriptor.
    private var folders: [Int32: String] = [:]
    /// The watches on the roots themselves.
    private var rootWatches: Set<Int32> = []
    /// Roots that don't exist yet, by the watch on their parent: the name each would appear as.
    private var awaited: [Int32: [(name: String, root: String)]] = [:]
    /// The thread that waits on the kernel, off Swift's cooperative pool.
    private let waiting = DispatchQueue(label: "prolific.serve.events")
    /// Why watching afresh failed, if it did: `next()` then throws it, and `serve` scans instead.
    private var broken: Unavailable?

    /// Watches `roots` and every folder under them; nil where there are no such events (not
    /// Linux). Throws when there are, but not enough for these folders (the kernel's limit of
    /// watches, `fs.inotify.max_user_watches`).
    init?(watching roots: [String]) throws(Unavailable) {
        self.roots = roots
        #if os(Linux)
            try watchAll()
        #else
            return nil
        #endif
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// How many folders are watched (the roots' parents for missing roots included).
    var watchCount: Int { folders.count + awaited.count }

    /// The paths changed since the last call (or since watching began), sorted: once a change
    /// comes, what follows within a tenth of a second is taken with it (a `git pull` or an
    /// editor's save is one rebuild, not many), for a second at most. Throws `CancellationError`
    /// when the task is cancelled while waiting, `Unavailable` when the folders could no longer
    /// all be watched (the changes until then are lost: the caller builds anyway).
    func next() async throws -> [String] {
        var changes = Set<String>()
        while changes.isEmpty {
            try await waitForEvents()
            changes.formUnion(drain())
            if let broken { throw broken }
        }
        let clock = ContinuousClock()
        let began = clock.now
        while clock.now - began < .seconds(1) {
            try await Task.sleep(for: .milliseconds(100))
            let more = drain()
            if more.isEmpty { break }
            changes.formUnion(more)
        }
        return changes.sorted()
    }

    // MARK: Watching

    #if os(Linux)
        /// Inotify's event bits (linux/inotify.h), which the C module imports with no fixed type.
        private enum Mask {
            static let modify: UInt32 = 0x2, attributes: UInt32 = 0x4, movedFrom: UInt32 = 0x40
            static let movedTo: UInt32 = 0x80, create: UInt32 = 0x100, delete: UInt32 = 0x200
            static let deleteSelf: UInt32 = 0x400, moveSelf: UInt32 = 0x800, overflow: UInt32 = 0x4000
            static let ignored: UInt32 = 0x8000, onlyFolder: UInt32 = 0x0100_0000
            static let dontFollow: UInt32 = 0x0200_0000, excludeUnlinked: UInt32 = 0x0400_0000
            static let isFolder: UInt32 = 0x4000_0000
            /// What a folder is watched for: any change to its entries or to a file in it.
            static let folder =
                modify | attributes | movedFrom | movedTo | create | delete | deleteSelf | moveSelf | onlyFolder
                | dontFollow | excludeUnlinked
            /// What a missing root's parent is watched for: the root appearing.
            static let parent = movedTo | create | onlyFolder | dontFollow
        }

        /// A new inotify instance watching every root (or its parent, for one not there yet).
        private func watchAll() throws(Unavailable) {
            if descriptor >= 0 { close(descriptor) }
            (folders, rootWatches, awaited) = ([:], [], [:])
            descriptor = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
            guard descriptor >= 0 else { throw Unavailable(reason: "inotify: \(String(cString: strerror(errno)))") }
            for root in roots {
                if let watch = try add(root) {
                    rootWatches.insert(watch)
                    try addFolders(under: root)
                } else {
                    try waitFor(root)
                }
            }
        }

        /// The kernel's limit of watches is reached (for this user, all its programs together).
        private static var overLimit: Unavailable {
            let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let setting = "fs.inotify.max_user_watches" + (limit.map { " (\($0))" } ?? "")
            return Unavailable(reason: "more folders than the kernel lets one user watch; raise \(setting)")
        }

        /// Watches `folder` alone; nil when it is not a folder one can watch (gone, a link, not
        /// readable). Throws only when the kernel's limit of watches is reached.
        private func add(_ folder: String) throws(Unavailable) -> Int32? {
            let watch = inotify_add_watch(descriptor, folder, Mask.folder)
            guard watch >= 0 else {
                if errno == ENOSPC { throw Self.overLimit }
                return nil
            }
            // The same folder reached by a new path (moved) keeps its watch: the path is updated.
            folders[watch] = folder
            return watch
        }

        /// Watches every folder under `folder` (itself already watched), as a scan would walk
        /// them: never into a name starting with a dot, never through a link.
        private func addFolders(under folder: String) throws(Unavailable) {
            guard let entries = try? FileSystem.list(folder) else { return }
            for entry in entries where entry.kind == .directory && !entry.name.hasPrefix(".") {
                let path = Self.join(folder, entry.name)
                if try add(path) != nil { try addFolders(under: path) }
            }
        }

        /// Waits for `root`, which doesn't exist, in its parent (if that exists).
        private func waitFor(_ root: String) throws(Unavailable) {
            let (parent, name) = Self.split(root)
            let watch = inotify_add_watch(descriptor, parent, Mask.parent)
            guard watch >= 0 else {
                if errno == ENOSPC { throw Self.overLimit }
                return
            }
            awaited[watch, default: []].append((name, root))
        }

        /// Stops watching `folder` and every folder under it (moved out of the way: a folder moved
        /// elsewhere inside is watched again where it arrives).
        private func remove(_ folder: String) {
            let prefix = folder + "/"
            for (watch, path) in folders where path == folder || path.hasPrefix(prefix) {
                inotify_rm_watch(descriptor, watch)
                folders[watch] = nil
            }
        }

        /// Blocks a thread of `waiting` until the kernel has events, a quarter of a second at a
        /// time, so that cancellation is noticed.
        private func waitForEvents() async throws {
            let descriptor = self.descriptor
            while true {
                try Task.checkCancellation()
                let ready = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    waiting.async {
                        var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                        continuation.resume(returning: poll(&wanted, 1, 250) > 0)
                    }
                }
                if ready { return }
            }
        }

        /// Reads every event queued, keeps the watches up to date and returns the paths changed.
        private func drain() -> Set<String> {
            var changes = Set<String>()
            var rewatch = false
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = read(descriptor, buffer, size)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                var offset = 0
                // Each event: its watch, mask, cookie and name's length (4 bytes each), then the
                // name, padded with NULs to that length.
                while offset + 16 <= count {
                    let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + 16, count: min(length, count - offset - 16))
                    let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += 16 + length
                    rewatch = handle(watch: watch, mask: mask, name: name, into: &changes) || rewatch
                }
            }
            if rewatch {
                do throws(Unavailable) { try watchAll() } catch { broken = error }
            }
            return changes
        }

        /// Takes one event into `changes`; true when everything must be watched afresh (the
        /// roots are then in `changes`).
        private func handle(watch: Int32, mask: UInt32, name: String, into changes: inout Set<String>) -> Bool {
            if mask & Mask.overflow != 0 {
                // Events were lost: anything may have changed.
                changes.formUnion(roots)
                return true
            }
            if let waits = awaited[watch] {
                // A root that didn't exist has appeared.
                guard let root = waits.first(where: { $0.name == name })?.root else { return false }
                changes.insert(root)
                return true
            }
            guard let folder = folders[watch] else { return false }
            if mask & (Mask.ignored | Mask.deleteSelf | Mask.moveSelf) != 0 {
                // A folder inside is reported by its parent; a root has none watched: it was
                // removed, moved or replaced.
                if mask & Mask.ignored != 0 { folders[watch] = nil }
                guard rootWatches.contains(watch) else { return false }
                changes.insert(folder)
                return true
            }
            guard !name.isEmpty, !name.hasPrefix(".") else { return false }
            let path = Self.join(folder, name)
            changes.insert(path)
            if mask & Mask.isFolder != 0 {
                if mask & Mask.movedFrom != 0 { remove(path) }
                if mask & (Mask.create | Mask.movedTo) != 0 {
                    do {
                        if try add(path) != nil { try addFolders(under: path) }
                    } catch {
                        // Over the kernel's limit: watching afresh fails the same way, and says so.
                        return true
                    }
                }
            }
            return false
        }
    #else
        private func waitForEvents() async throws {}
        private func drain() -> Set<String> { [] }
    #endif

    /// `folder/name`, as a scan spells it.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// A path's parent folder (`.` for a bare name) and last name.
    static func split(_ path: String) -> (parent: String, name: String) {
        let trimmed = FileSystem.trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let parent = String(trimmed[..<slash])
        return (parent.isEmpty ? "/" : parent, String(trimmed[trimmed.index(after: slash)...]))
    }
}
