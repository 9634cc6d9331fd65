import Foundation

/// Every file under the watched folders with its size and modification time: cheap to take and
/// compare every half second, and different whenever an editor saves, adds, removes or renames.
///
/// Names starting with a dot are skipped, with everything under them: `.prolific/` caches that a
/// build itself writes, `.git`, and editors' swap files, none of which change the site.
struct Fingerprint: Equatable {
    struct Stamp: Equatable {
        var size: Int64
        var modified: Double
    }

    var files: [String: Stamp] = [:]

    /// Paths added, removed or changed since `old`, sorted.
    func changes(since old: Fingerprint) -> [String] {
        let paths = Set(files.keys).union(old.files.keys)
        return paths.filter { files[$0] != old.files[$0] }.sorted()
    }

    /// `Content/a.md changed`, `Content/a.md and 2 more changed`, for the rebuild line.
    static func describe(_ changes: [String]) -> String {
        guard let first = changes.first else { return "Nothing changed" }
        return changes.count == 1 ? "\(first) changed" : "\(first) and \(changes.count - 1) more changed"
    }

    /// Walks `folders`; a folder that doesn't exist (yet) contributes nothing.
    static func scan(_ folders: [String]) -> Fingerprint {
        var print = Fingerprint()
        for folder in folders { print.walk(folder) }
        return print
    }

    private mutating func walk(_ folder: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            // lstat: a symbolic link is recorded, not followed, so a link cycle can't loop.
            guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                walk(path)
            } else {
                let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                files[path] = Stamp(size: size, modified: modified)
            }
        }
    }
}
