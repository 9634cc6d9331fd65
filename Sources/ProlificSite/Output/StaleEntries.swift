import ProlificCore

#if canImport(Glibc)
    import Glibc
#endif

/// Removes from a reused staging folder what the new site doesn't have: pages of projects, rounds
/// or users that are gone, and whatever else an earlier site or a killed build left there.
///
/// Walks through folder descriptors like `TreeRemoval`, never following a link or entering
/// another file system; the subtrees two levels down (`projects/<slug>`, `users/<handle>`) on
/// every core, as they hold nearly every entry. Names are compared as bytes: a decomposed `é` is
/// not the composed one the new site has.
enum StaleEntries {
    /// Removes every entry under `root` that is neither one of `files` nor one of `folders`
    /// (paths relative to `root`, as bytes); whether all of them are gone, and every kept folder
    /// was looked into.
    static func remove(from root: String, keepingFiles files: Set<PathKey>, folders: Set<PathKey>) -> Bool {
        let kept = Kept(files: files, folders: folders)
        let top = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard top >= 0 else { return false }
        var info = stat()
        guard fstat(top, &info) == 0 else {
            close(top)
            return false
        }
        let device = info.st_dev
        var complete = true
        var parents: [Int32] = []
        var subtrees: [(parent: Int32, name: [CChar], path: [UInt8])] = []
        complete = sweep(top, [], kept, device: device) { parent, name, path in
            // The top level hands its kept folders opened: their own folders are swept on their
            // own, later and in parallel.
            parents.append(parent)
            return sweep(parent, path, kept, device: device) { inner, innerName, innerPath in
                subtrees.append((inner, innerName, innerPath))
                return true
            }
        }
        let swept = Parallel.map(subtrees) { subtree -> Bool in
            guard let folder = TreeRemoval.openFolder(subtree.parent, subtree.name, device: device) else { return false }
            defer { close(folder) }
            return sweepAll(folder, subtree.path, kept, device: device)
        }
        for parent in parents { close(parent) }
        close(top)
        return complete && swept.allSatisfy { $0 }
    }

    /// Removes from `root` (the spare, found as `recorded` says it is) the recorded entries that
    /// are neither one of `files` nor one of `folders`: files and links, then folders, deepest
    /// first. An entry gone already is fine; a folder that is not empty (the writer put nothing
    /// there, so something else did) is removed whole. Whether all of them are gone; `removing`
    /// gets the path of each entry it went for.
    static func remove(
        _ recorded: SiteWriter.RecordedSpare, from root: String, keepingFiles files: Set<PathKey>, folders: Set<PathKey>,
        removing: inout [String]
    ) -> Bool {
        var complete = true
        /// Removes what is at `full` whole, the quick way having failed: whether it is gone.
        func removeWhole(_ full: String) -> Bool {
            TreeRemoval.remove(full)
            var info = stat()
            return lstat(full, &info) != 0
        }
        // What the new site has at a path, as a file or a folder, stays: the writer has put it there.
        // Looked for on every core: the spare's 46,000 entries, one after the other, kept one core
        // busy alone for 10 ms at the end of every large rebuild, to find the few to remove.
        let (staleOthers, gone) = (stale(recorded.others, files, folders), stale(recorded.folders, folders, files))
        removing += staleOthers
        removing += gone
        for path in staleOthers {
            let full = "\(root)/\(path)"
            if unlink(full) == 0 || errno == ENOENT || errno == ENOTDIR { continue }
            complete = (errno == EISDIR || errno == EPERM) && removeWhole(full) && complete
        }
        for path in gone.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            let full = "\(root)/\(path)"
            if rmdir(full) == 0 || errno == ENOENT || errno == ENOTDIR { continue }
            complete = removeWhole(full) && complete
        }
        return complete
    }

    /// The paths of `recorded` in neither `kept` nor `alsoKept`, in their order, found on every core.
    private static func stale(_ recorded: [String], _ kept: Set<PathKey>, _ alsoKept: Set<PathKey>) -> [String] {
        let isStale = Parallel.map(recorded, batch: 1_024) { path in
            let key = PathKey(path)
            return !kept.contains(key) && !alsoKept.contains(key)
        }
        return recorded.indices.filter { isStale[$0] }.map { recorded[$0] }
    }

    struct Kept: Sendable {
        var files: Set<PathKey>
        var folders: Set<PathKey>
    }

    /// Removes what `kept` lacks from the folder open at `folder` (at `path`), and hands each
    /// kept folder to `keptFolder`: opened, at the top level (the descriptor is then the
    /// caller's to close), else as its parent's descriptor and its name. Whether everything
    /// unwanted went and `keptFolder` said so for each.
    private static func sweep(
        _ folder: Int32, _ path: [UInt8], _ kept: Kept, device: dev_t, keptFolder: (Int32, [CChar], [UInt8]) -> Bool
    ) -> Bool {
        var complete = true
        for (name, isFolder) in TreeRemoval.entries(folder) {
            let child = path.isEmpty ? name.dropLast().map { UInt8(bitPattern: $0) } : path + [UInt8(ascii: "/")] + name.dropLast().map { UInt8(bitPattern: $0) }
            if isFolder, kept.folders.contains(PathKey(child)) {
                if path.isEmpty {
                    guard let inner = TreeRemoval.openFolder(folder, name, device: device) else {
                        complete = false
                        continue
                    }
                    complete = keptFolder(inner, name, child) && complete
                } else {
                    complete = keptFolder(folder, name, child) && complete
                }
            } else if !isFolder, kept.files.contains(PathKey(child)) {
                continue
            } else {
                complete = remove(name, in: folder, isFolder: isFolder, device: device) && complete
            }
        }
        return complete
    }

    /// Removes what `kept` lacks from the folder open at `folder` and every folder inside it.
    private static func sweepAll(_ folder: Int32, _ path: [UInt8], _ kept: Kept, device: dev_t) -> Bool {
        sweep(folder, path, kept, device: device) { parent, name, child in
            guard let inner = TreeRemoval.openFolder(parent, name, device: device) else { return false }
            defer { close(inner) }
            return sweepAll(inner, child, kept, device: device)
        }
    }

    /// Removes the entry `name` of the folder open at `folder`, and all it holds; whether it is gone.
    private static func remove(_ name: [CChar], in folder: Int32, isFolder: Bool, device: dev_t) -> Bool {
        if isFolder, let inner = TreeRemoval.openFolder(folder, name, device: device) {
            TreeRemoval.empty(inner, device: device)
        }
        return unlinkat(folder, name, isFolder ? AT_REMOVEDIR : 0) == 0 || errno == ENOENT
    }
}
