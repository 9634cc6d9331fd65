import ProlificStore

/// Every file under the watched folders with its size and its modification and change times:
/// cheap to take and compare (every half second on a small game), and different whenever an
/// editor saves, adds, removes or renames, or a tool puts a file in place with its old time kept.
///
/// Names starting with a dot are skipped, with everything under them: `.prolific/` caches that a
/// build itself writes, `.git`, and editors' swap files, none of which change the site.
struct Fingerprint: Equatable {
    struct Stamp: Equatable {
        var size: Int64
        var modified: Double
        /// The inode's change time, which `cp -p`, `rsync -t` or `tar` can't set back.
        var changed: Double = 0
    }

    /// Each file and its stamp, in the order the walk met them (sorted by path when made from a
    /// dictionary): two scans of unchanged folders give equal arrays, compared without hashing.
    private(set) var entries: [(path: String, stamp: Stamp)] = []

    init() {}

    init(files: [String: Stamp]) {
        entries = files.sorted { $0.key < $1.key }.map { (path: $0.key, stamp: $0.value) }
    }

    var files: [String: Stamp] { Dictionary(entries, uniquingKeysWith: { first, _ in first }) }

    static func == (a: Fingerprint, b: Fingerprint) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.path == $1.path && $0.stamp == $1.stamp }
    }

    /// Paths added, removed or changed since `old`, sorted. Nearly every scan finds nothing
    /// changed: that is one pass over the two arrays (a large game's 300,000 files); only a
    /// change costs the sets.
    func changes(since old: Fingerprint) -> [String] {
        if self == old { return [] }
        let (files, before) = (self.files, old.files)
        let paths = Set(files.keys).union(before.keys)
        return paths.filter { files[$0] != before[$0] }.sorted()
    }

    /// `Content/a.md changed`, `Content/a.md and 2 more changed`, for the rebuild line.
    static func describe(_ changes: [String]) -> String {
        guard let first = changes.first else { return "Nothing changed" }
        return changes.count == 1 ? "\(first) changed" : "\(first) and \(changes.count - 1) more changed"
    }

    /// `folder/name`, as every path a scan (or `FolderEvents`) reports is spelt.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Walks `folders`; a folder that doesn't exist (yet) contributes nothing.
    static func scan(_ folders: [String]) -> Fingerprint {
        var print = Fingerprint()
        for folder in folders { print.walk(folder) }
        return print
    }

    /// Lists with `readdir`, whose entries say which are folders, and stats only the files, by
    /// name from their open folder: a symbolic link is recorded, not followed, so a link cycle
    /// can't loop. (Foundation's `attributesOfItem` also looked up each file's owner by name: 17 s
    /// a scan of a large game.)
    private mutating func walk(_ folder: String) {
        var subfolders: [String] = []
        _ = try? FileSystem.withListing(folder) { opened, listed in
            for entry in listed where !entry.name.hasPrefix(".") {
                let path = Self.join(folder, entry.name)
                if entry.kind == .directory {
                    subfolders.append(path)
                } else if let info = opened.status(of: entry.name) {
                    let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                    let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
                    entries.append((path: path, stamp: Stamp(size: Int64(info.st_size), modified: modified, changed: changed)))
                }
            }
        }
        for subfolder in subfolders { walk(subfolder) }
    }
}
