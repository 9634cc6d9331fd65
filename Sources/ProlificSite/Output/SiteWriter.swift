import Foundation
import ProlificCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a built site into a fresh sibling folder and swaps it in, so a failed or killed build
/// leaves the previous site as it was: readers see the old site or the new one, never a mix.
public enum SiteWriter {
    public static func write(_ files: [OutputFile], to output: String) throws(Diagnostics) {
        let output = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        let url = URL(fileURLWithPath: output)
        let parent = url.deletingLastPathComponent().path
        let staging = "\(parent)/.\(url.lastPathComponent).building-\(getpid())"
        let retired = "\(parent)/.\(url.lastPathComponent).old-\(getpid())"
        let manager = FileManager.default
        do {
            try? manager.removeItem(atPath: staging)
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
            for file in files {
                let target = URL(fileURLWithPath: "\(staging)/\(file.path)")
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents).write(to: target)
            }
        } catch {
            try? manager.removeItem(atPath: staging)
            throw Diagnostics([Diagnostic(path: output, message: "cannot write the site: \(error.localizedDescription)")])
        }
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: output, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue {
            try? manager.removeItem(atPath: staging)
            throw Diagnostics([Diagnostic(path: output, message: "is a file, not a folder; choose another --out")])
        }
        if exists {
            try? manager.removeItem(atPath: retired)
            guard rename(output, retired) == 0 else {
                try? manager.removeItem(atPath: staging)
                throw Diagnostics([Diagnostic(path: output, message: "cannot replace the old site: \(String(cString: strerror(errno)))")])
            }
        }
        guard rename(staging, output) == 0 else {
            let message = String(cString: strerror(errno))
            if exists { rename(retired, output) }
            try? manager.removeItem(atPath: staging)
            throw Diagnostics([Diagnostic(path: output, message: "cannot move the new site in place: \(message)")])
        }
        if exists { try? manager.removeItem(atPath: retired) }
    }
}
