import ProlificCore

#if canImport(Glibc)
    import Glibc
#endif

/// Removes from a reused staging folder what the new site doesn't have: pages of projects, rounds
/// or users that are gone, and whatever else an earlier site or a killed build left there.
///
/// Walks through folder descriptors like `TreeRemoval`, never following a link or entering
/// another file system; the subtrees two levels down (`projects/<slug>`, `users/<handle>`) on
/// every core, as they hold nearly every entry.
enum StaleEntries {
    /// Removes every entry under `root` that is neither one of `files` nor one of `folders`
    /// (paths relative to `root`); a name that isn't UTF-8 is never one of them.
    static func remove(from root: String, keepingFiles files: Set<String>, folders: Set<String>) {
        let kept = Kept(files: files, folders: folders)
        let top = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard top >= 0 else { return }
        var info = stat()
        guard fstat(top, &info) == 0 else {
            close(top)
            return
        }
        let device = info.st_dev
        var parents: [Int32] = []
        var subtrees: [(parent: Int32, name: [CChar], path: String)] = []
        sweep(top, "", kept, device: device) { parent, name, path in
            // One level down: its folders are swept on their own, later and in parallel.
            sweep(parent, path, kept, device: device) { inner, innerName, innerPath in
                subtrees.append((inner, innerName, innerPath))
            }
            parents.append(parent)
        }
        _ = Parallel.map(subtrees) { subtree in
            if let folder = TreeRemoval.openFolder(subtree.parent, subtree.name, device: device) {
                sweepAll(folder, subtree.path, kept, device: device)
                close(folder)
            }
        }
        for parent in parents { close(parent) }
        close(top)
    }

    struct Kept: Sendable {
        var files: Set<String>
        var folders: Set<String>
    }

    /// Removes what `kept` lacks from the folder open at `folder` (at `path`), and hands each
    /// kept folder to `keptFolder`: opened, when it is the outer level's (the descriptor is then
    /// the caller's to close), or as its parent's descriptor and its name.
    private static func sweep(
        _ folder: Int32, _ path: String, _ kept: Kept, device: dev_t, keptFolder: (Int32, [CChar], String) -> Void
    ) {
        for (name, isFolder) in TreeRemoval.entries(folder) {
            let text = String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let child = path.isEmpty ? text : "\(path)/\(text)"
            if isFolder, kept.folders.contains(child) {
                if path.isEmpty {
                    // The top level: open the folder, so its own folders can be listed next.
                    guard let inner = TreeRemoval.openFolder(folder, name, device: device) else { continue }
                    keptFolder(inner, name, child)
                } else {
                    keptFolder(folder, name, child)
                }
            } else if !isFolder, kept.files.contains(child) {
                continue
            } else {
                remove(name, in: folder, isFolder: isFolder, device: device)
            }
        }
    }

    /// Removes what `kept` lacks from the folder open at `folder` and every folder inside it.
    private static func sweepAll(_ folder: Int32, _ path: String, _ kept: Kept, device: dev_t) {
        sweep(folder, path, kept, device: device) { parent, name, child in
            guard let inner = TreeRemoval.openFolder(parent, name, device: device) else { return }
            sweepAll(inner, child, kept, device: device)
            close(inner)
        }
    }

    private static func remove(_ name: [CChar], in folder: Int32, isFolder: Bool, device: dev_t) {
        if isFolder, let inner = TreeRemoval.openFolder(folder, name, device: device) {
            TreeRemoval.empty(inner, device: device)
        }
        unlinkat(folder, name, isFolder ? AT_REMOVEDIR : 0)
    }
}
