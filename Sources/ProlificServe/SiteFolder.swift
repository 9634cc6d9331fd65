import Foundation
import ProlificStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a requested file inside the built site, at request time, never outside it.
///
/// Looked up on every request rather than cached: `build` swaps a whole new folder in on each
/// rebuild. Both the folder and the file are resolved to real paths first, so a symbolic link that
/// leads out of the site is treated as missing, wherever it sits.
struct SiteFolder: Sendable {
    /// The output folder as given (`--out`), made absolute.
    var root: String

    enum Lookup: Equatable {
        /// A regular file inside the site, by its real path.
        case file(String)
        /// A folder asked for without its slash: the browser should come back with one, so the
        /// page's relative links resolve from inside the folder.
        case folder
        case missing
    }

    func lookup(_ components: [String]) -> Lookup {
        guard let base = FileSystem.realPath(root) else { return .missing }
        let candidate = ([base] + components).joined(separator: "/")
        guard let real = FileSystem.realPath(candidate), Self.isInside(real, base) else { return .missing }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else { return .missing }
        if isDirectory.boolValue {
            return lookup(components + ["index.html"]) == .missing ? .missing : .folder
        }
        return .file(real)
    }

    /// Whether `path` is `folder` or below it; both must be real paths.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

}
