import Dispatch
import Foundation
import ProlificStore

/// The changes under the watched folders as the kernel reports them (Linux's inotify), so that
/// `serve` sees an edit at once and costs nothing while nothing changes. Scanning instead
/// (`Fingerprint`) stats every file at each look: on a large game's 300,000 files that kept a
/// core a third busy and saw an edit only seconds later.
///
/// What counts as a change is what a scan would see: any file or folder added, removed, renamed,
/// written or given new times, except under names starting with a dot (`.prolific/`, which a
/// build writes itself; `.git`; editors' swap files), which are neither watched nor reported. Every
/// folder is watched on its own (inotify doesn't watch a tree), folders made later as they
/// appear, and a folder that couldn't be read once its permissions change; a root may be a link,
/// as a scan follows it, a folder inside never is. A root that
/// doesn't exist yet (`Templates`, say) is waited for in its parent. When the kernel's queue
/// overflowed, or a root itself was removed, moved or replaced, the roots are reported changed
/// and watched afresh.
///
/// `@unchecked Sendable`: its state is touched only inside `next()`, which one task at a time
/// calls (`Rebuilder`). The kernel queues events while a build runs, so an edit made meanwhile
/// causes the next rebuild.
final class FolderEvents: @unchecked Sendable {
    /// Why the kernel's events can't be had; `serve` then scans instead.
    struct Unavailable: Error {
        var reason: String
    }

    /// The folders as given (their paths start every path reported).
    let roots: [String]
    /// Why watching afresh failed, if it did: `next()` then throws it.
    private var broken: Unavailable?
    /// The thread that waits on the kernel, off Swift's cooperative pool.
    private let waiting = DispatchQueue(label: "prolific.serve.events")
    #if os(Linux)
        private var inotify: Inotify?
        /// The folder each watch is on, by the watch's number (a root's as given).
        private var folders: [Int32: String] = [:]
        /// Roots that don't exist yet, by the watch on their parent: the name each would appear as.
        private var awaited: [Int32: [(name: String, root: String)]] = [:]
    #endif

    /// Watches `roots` and every folder under them; nil where there are no such events (not
    /// Linux). Throws when there are, but not for these folders: the kernel's limit of watches
    /// (`fs.inotify.max_user_watches`) or of instances is reached, or a root can't be watched.
    init?(watching roots: [String]) throws(Unavailable) {
        self.roots = roots
        #if os(Linux)
            try watchAll()
        #else
            return nil
        #endif
    }

    /// The paths changed since the last call (or since watching began), sorted: once a change
    /// comes, what follows within a tenth of a second is taken with it (a `git pull` or an
    /// editor's save is one rebuild, not many), for a second at most. Throws `CancellationError`
    /// when the task is cancelled while waiting, `Unavailable` once the folders can no longer
    /// all be watched (what changed meanwhile is unknown: the caller builds anyway).
    func next() async throws -> [String] {
        var changes = Set<String>()
        while changes.isEmpty {
            if let broken { throw broken }
            try await waitForEvents()
            changes.formUnion(drain())
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

    #if os(Linux)
        private typealias Mask = Inotify.Mask

        /// What a folder is watched for: any change to its entries or to a file in it.
        private static let folderMask =
            Mask.modify | Mask.attributes | Mask.movedFrom | Mask.movedTo | Mask.create | Mask.delete
            | Mask.deleteSelf | Mask.moveSelf | Mask.onlyFolder | Mask.excludeUnlinked
        /// What a missing root's parent is watched for, added to what it may already be watched for
        /// (`--templates Content/theme`): the root appearing.
        private static let parentMask = Mask.movedTo | Mask.create | Mask.onlyFolder | Mask.add

        /// How many folders are watched, the parents of missing roots included.
        var watchCount: Int { Set(folders.keys).union(awaited.keys).count }

        /// A new instance watching every root (or its parent, for one not there yet); on failure,
        /// none at all, so no watch is left counting against the user's limit.
        private func watchAll() throws(Unavailable) {
            (inotify, folders, awaited) = (nil, [:], [:])
            guard let inotify = Inotify() else {
                throw Unavailable(reason: "the kernel gives no more inotify instances; raise fs.inotify.max_user_instances")
            }
            self.inotify = inotify
            do throws(Unavailable) {
                for root in roots where try !watchTree(root, isRoot: true) {
                    try waitFor(root)
                }
            } catch {
                (self.inotify, folders, awaited) = (nil, [:], [:])
                throw error
            }
        }

        /// Watches `folder` alone; nil when there is nothing there, or (inside a root) nothing one
        /// can watch, which a scan can't read either. A root is followed if it is a link, as a scan
        /// follows it; one that exists but can't be watched makes the events unavailable.
        /// `unlessWatched`: nil for a folder watched already (the kernel gives it the number it
        /// has), whose path, perhaps a root's spelling of it, is kept.
        private func add(_ folder: String, isRoot: Bool = false, unlessWatched: Bool = false) throws(Unavailable) -> Int32? {
            guard let inotify else { return nil }
            do throws(Inotify.Refusal) {
                let watch = try inotify.add(folder, isRoot ? Self.folderMask : Self.folderMask | Mask.dontFollow)
                if unlessWatched, folders[watch] != nil { return nil }
                // The same folder reached by a new path (moved) keeps its number: the path is updated.
                folders[watch] = folder
                return watch
            } catch {
                switch error {
                case .limit: throw Self.overLimit
                case .missing: return nil
                case .other(let message):
                    if isRoot { throw Unavailable(reason: "cannot watch \(folder): \(message)") }
                    return nil
                }
            }
        }

        /// Watches `folder` and every folder under it, as a scan would walk them: never into a
        /// name starting with a dot, never through a link but a root's. False when `folder` itself
        /// can't be watched, or (`unlessWatched`) is watched already (`add`).
        @discardableResult
        private func watchTree(_ folder: String, isRoot: Bool = false, unlessWatched: Bool = false) throws(Unavailable) -> Bool {
            guard try add(folder, isRoot: isRoot, unlessWatched: unlessWatched) != nil else { return false }
            guard let entries = try? FileSystem.list(folder) else { return true }
            for entry in entries where entry.kind == .directory && !entry.name.hasPrefix(".") {
                try watchTree(Fingerprint.join(folder, entry.name))
            }
            return true
        }

        /// Waits for `root`, which doesn't exist, in its parent; unavailable when that doesn't
        /// exist either (a scan would still find the root once both are made).
        private func waitFor(_ root: String) throws(Unavailable) {
            guard let inotify else { return }
            let trimmed = FileSystem.trimmingTrailingSlashes(root)
            let (parent, name) = (FileSystem.parentPath(trimmed), String(trimmed.split(separator: "/").last ?? ""))
            do throws(Inotify.Refusal) {
                awaited[try inotify.add(parent, Self.parentMask), default: []].append((name, root))
            } catch {
                if case .limit = error { throw Self.overLimit }
                throw Unavailable(reason: "neither \(root) nor the folder it would be in exists")
            }
        }

        /// The kernel's limit of watches is reached (for this user, all its programs together).
        private static var overLimit: Unavailable {
            let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let setting = "fs.inotify.max_user_watches" + (limit.map { " (\($0))" } ?? "")
            return Unavailable(reason: "more folders than the kernel lets one user watch; raise \(setting)")
        }

        /// Stops watching `folder` and every folder under it (moved out of the way: a folder moved
        /// elsewhere inside is watched again where it arrives).
        private func remove(_ folder: String) {
            let prefix = folder + "/"
            for (watch, path) in folders where path == folder || path.hasPrefix(prefix) {
                inotify?.remove(watch)
                folders[watch] = nil
            }
        }

        /// Blocks a thread of `waiting` until the kernel has events, a quarter of a second at a
        /// time, so that cancellation is noticed.
        private func waitForEvents() async throws {
            guard let inotify else { throw broken ?? Unavailable(reason: "no folder is watched") }
            while true {
                try Task.checkCancellation()
                let ready = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    waiting.async { continuation.resume(returning: inotify.waitForEvents(milliseconds: 250)) }
                }
                if ready { return }
            }
        }

        /// Reads every event queued, keeps the watches up to date and returns the paths changed.
        private func drain() -> Set<String> {
            guard let inotify else { return [] }
            var changes = Set<String>()
            var rewatch = false
            for event in inotify.queued() {
                rewatch = handle(event, into: &changes) || rewatch
            }
            if rewatch {
                do throws(Unavailable) { try watchAll() } catch { broken = error }
            }
            return changes
        }

        /// Takes one event into `changes`; true when everything must be watched afresh.
        private func handle(_ event: Inotify.Event, into changes: inout Set<String>) -> Bool {
            if event.mask & Mask.overflow != 0 {
                // Events were lost: anything may have changed.
                changes.formUnion(roots)
                return true
            }
            var rewatch = false
            if let waits = awaited[event.watch] {
                if let root = waits.first(where: { $0.name == event.name })?.root {
                    // A root that didn't exist has appeared.
                    changes.insert(root)
                    rewatch = true
                } else if event.mask & Mask.ignored != 0 {
                    // The folder it would appear in is gone.
                    rewatch = true
                }
            }
            // The parent of a missing root may be watched as a folder too.
            guard let folder = folders[event.watch] else { return rewatch }
            if event.mask & (Mask.ignored | Mask.deleteSelf | Mask.moveSelf) != 0 {
                // A folder inside is reported by its parent; a root has none watched: it was
                // removed, moved or replaced.
                if event.mask & Mask.ignored != 0 { folders[event.watch] = nil }
                guard roots.contains(folder) else { return rewatch }
                changes.insert(folder)
                return true
            }
            guard !event.name.isEmpty, !event.name.hasPrefix(".") else { return rewatch }
            let path = Fingerprint.join(folder, event.name)
            changes.insert(path)
            if event.mask & Mask.isFolder != 0 {
                if event.mask & Mask.movedFrom != 0 { remove(path) }
                if event.mask & Mask.attributes != 0 {
                    // New permissions may let a folder that couldn't be read be watched now (a
                    // scan would read it from then on). Asked of the kernel, one call: looking for
                    // the path among the watched ones took time in proportion to them for each
                    // folder given new metadata, and a `chmod -R` or `cp -a` gives every one.
                    do throws(Unavailable) { try watchTree(path, unlessWatched: true) } catch { broken = error }
                }
                if event.mask & (Mask.create | Mask.movedTo) != 0 {
                    // Over the kernel's limit, watching afresh would fail the same way.
                    do throws(Unavailable) { try watchTree(path) } catch {
                        broken = error
                    }
                }
            }
            return rewatch
        }
    #else
        var watchCount: Int { 0 }
        private func waitForEvents() async throws { throw Unavailable(reason: "no inotify here") }
        private func drain() -> Set<String> { [] }
    #endif
}
