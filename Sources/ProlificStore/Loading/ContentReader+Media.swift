import ProlificCore

extension ContentReader {
    /// Images may be at most this big: a story site is read on phones.
    public static let maximumMediaSize = 2 << 20

    /// Every image beside the content files, by its path inside the content directory; too big
    /// or unsafe ones are reported. SVG is refused: an SVG file can carry script, and it would run
    /// when a reader opens the image by its address. So is a file whose bytes are not the kind
    /// its name says (SVG or HTML named `.png`).
    func scanMedia(into problems: inout [Diagnostic]) -> Set<String> {
        // The first two levels are listed here; each folder below them (a project's, say) is
        // scanned on its own core. Problems of the first two levels come first; callers sort them.
        var found: Set<String> = []
        var subtrees: [String] = []
        let top = scanFolder("", into: &problems, found: &found)
        for folder in top {
            for inner in scanFolder(folder, into: &problems, found: &found) { subtrees.append(inner) }
        }
        let scanned = Parallel.map(subtrees) { folder in
            var problems: [Diagnostic] = []
            var found: Set<String> = []
            var pending = [(folder, 2)]
            while let (next, depth) = pending.popLast() {
                guard depth < 6 else { continue }
                // Depth first, in path order: the folders of one listing are pushed in reverse.
                for inner in scanFolder(next, into: &problems, found: &found).reversed() { pending.append((inner, depth + 1)) }
            }
            return (found, problems)
        }
        for (more, reported) in scanned {
            found.formUnion(more)
            problems += reported
        }
        return found
    }

    /// Checks the images directly in `relative` (a folder inside the content directory, "" for
    /// the root), adding good ones to `found`; returns its subfolders, in path order.
    private func scanFolder(_ relative: String, into problems: inout [Diagnostic], found: inout Set<String>) -> [String] {
        let folder = relative.isEmpty ? layout.root : "\(layout.root)/\(relative)"
        guard let entries = try? FileSystem.list(folder) else { return [] }
        var folders: [String] = []
        for entry in entries where !entry.name.hasPrefix(".") {
            let path = relative.isEmpty ? entry.name : "\(relative)/\(entry.name)"
            switch entry.kind {
            case .directory: folders.append(path)
            case .file where ContentLayout.isIgnored(entry.name):
                let shown = "\(layout.root)/\(path)"
                if entry.name.lowercased().hasSuffix(".svg") {
                    problems.append(
                        Diagnostic(path: shown, message: "SVG images are not allowed (they can carry script); use PNG, JPEG, GIF, WebP or AVIF"))
                } else if let size = FileSystem.size(shown), size > Self.maximumMediaSize {
                    problems.append(
                        Diagnostic(path: shown, message: "the image is \(Self.mebibytes(size)) MiB; images may be at most \(Self.maximumMediaSize >> 20) MiB"))
                } else if let dot = entry.name.lastIndex(of: "."),
                    !ImageSignature.matches(ImageSignature.head(of: shown), fileExtension: String(entry.name[entry.name.index(after: dot)...]))
                {
                    problems.append(
                        Diagnostic(path: shown, message: "is not the image its name says: its bytes are not \(Self.kindName(entry.name))"))
                } else {
                    found.insert(path)
                }
            default: continue
            }
        }
        return folders
    }

    /// "a PNG image" for `x.png`.
    static func kindName(_ name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "png": "a PNG image"
        case "jpg", "jpeg": "a JPEG image"
        case "gif": "a GIF image"
        case "webp": "a WebP image"
        default: "an AVIF image"
        }
    }

    public static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The bytes of an image found by the scan.
    public func mediaBytes(_ path: String) throws(Diagnostics) -> [UInt8] {
        do {
            return try FileSystem.readBytes("\(layout.root)/\(path)", limit: Self.maximumMediaSize)
        } catch {
            throw Diagnostics([Diagnostic(path: "\(layout.root)/\(path)", message: error.message)])
        }
    }
}
