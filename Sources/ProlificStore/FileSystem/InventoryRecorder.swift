import ProlificCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What reading one folder of the content directory (a project's) saw of it: each folder listed,
/// with its metadata and names, and each file read, with its metadata, all taken by the calls
/// that list and read them. `part()` turns that into the entries under the folder as
/// `FileInventory.walk` takes them, stat-ing only what reading did not touch.
///
/// A build inventories the content before reading it, so that a file changed meanwhile differs
/// from its record. Metadata taken by `fstat` on the opened file or folder, before it is read or
/// listed, keeps that promise just as well, and a build that reads everything saves a stat of
/// every entry: 372,000 on the large benchmark, 1.3 s of a 15 s build.
///
/// Used by one thread at a time: each project is read on one core.
final class InventoryRecorder: @unchecked Sendable {
    let root: String
    /// The folder recorded, relative to `root` (`projects/moon`).
    let folder: [UInt8]
    let racyAfter: Int64
    private let prefix: [UInt8]
    private var listed: [PathKey: (stamp: FileInventory.Stamp, names: [[UInt8]])] = [:]
    private var read: [PathKey: FileInventory.Stamp] = [:]
    /// Folders reading leaves unread on purpose (`leaveUnread(_:)`).
    private var unread: Set<PathKey> = []

    init(root: String, folder: [UInt8], racyAfter: Int64) {
        (self.root, self.folder, self.racyAfter) = (root, folder, racyAfter)
        prefix = Array(root.utf8) + [UInt8(ascii: "/")]
    }

    /// `path` relative to `root`, or nil for a path outside the recorded folder.
    ///
    /// Asked for every file a project's reading opens (372,000 on the large benchmark), so it
    /// compares the path's bytes where they lie and copies only the relative part.
    private func relative(_ path: String) -> [UInt8]? {
        var path = path
        return path.withUTF8 { bytes -> [UInt8]? in
            let start = prefix.count, end = start + folder.count
            guard bytes.count >= end, bytes.count == end || bytes[end] == UInt8(ascii: "/"),
                UnsafeBufferPointer(rebasing: bytes[..<start]).elementsEqual(prefix),
                UnsafeBufferPointer(rebasing: bytes[start..<end]).elementsEqual(folder)
            else { return nil }
            return Array(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// What `FileSystem.list(path, observe:)` is to tell this recorder.
    func listing(_ path: String) -> FileSystem.Observer? {
        guard let key = relative(path) else { return nil }
        var stamp = FileInventory.Stamp.never
        var names: [[UInt8]] = []
        return FileSystem.Observer(
            folder: { stamp = FileInventory.Stamp($0) },
            name: { names.append(Array($0)) },
            done: { [self] in listed[PathKey(key)] = (stamp, names) })
    }

    /// What `FileSystem.readBytes(path, observe:)` is to tell this recorder.
    func reading(_ path: String) -> FileSystem.Observer? {
        guard let key = relative(path) else { return nil }
        let path = PathKey(key)
        return FileSystem.Observer(file: { [self] info in read[path] = FileInventory.Stamp(info) })
    }

    /// Tells that the folder at `path` is left unread on purpose, as what is in it can't change
    /// what is read (a sealed round's `votes/`, whose ballots round.md records): it is recorded
    /// by its own entry alone, which the stamp vouches for (`SealedRounds.vouchesForFolder`), so
    /// that a later build doesn't look at it while its project is kept; `check` reads the
    /// files. Taking the 180,000 ballot files of large's sealed rounds into the inventory took a
    /// stat each.
    func leaveUnread(_ path: String) {
        guard let key = relative(path) else { return }
        unread.insert(PathKey(key))
    }

    /// The entries under the recorded folder, depth first in name order as `FileInventory.walk`
    /// takes them, with the metadata reading saw; entries reading didn't open are stat-ed, and
    /// folders it didn't list are walked, but for those left unread (`leaveUnread(_:)`), whose
    /// own entry is all that is taken. nil if an entry is gone or a folder can't be walked.
    func part() -> FileInventory? {
        var part = FileInventory(root: root, skipping: [])
        var pending = [folder]
        while let next = pending.popLast() {
            guard let entries = listed[PathKey(next)] else {
                // Not listed by reading (it reported the folder, or never got there): the same
                // entries from a walk, which takes the whole subtree at this point of the order.
                guard let walked = FileInventory.walk(root, next, racyAfter: racyAfter) else { return nil }
                part.append(walked)
                continue
            }
            var folders: [[UInt8]] = []
            for name in entries.names.sorted(by: FileInventory.precedes) {
                var path: [UInt8] = []
                path.reserveCapacity(next.count + 1 + name.count)
                path += next
                path.append(UInt8(ascii: "/"))
                path += name
                let key = PathKey(path)
                guard let stamp = read[key] ?? listed[key]?.stamp ?? metadata(path) else { return nil }
                part.add(path, stamp, racyAfter: racyAfter)
                if stamp.isDirectory, !unread.contains(key) { folders.append(path) }
            }
            pending += folders.reversed()
        }
        return part
    }

    /// The metadata of the entry at `path` (relative to `root`), not following links.
    private func metadata(_ path: [UInt8]) -> FileInventory.Stamp? {
        var info = stat()
        let found = (prefix + path + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { lstat($0, &info) == 0 } ?? false }
        }
        return found ? FileInventory.Stamp(info) : nil
    }
}
