import ProlificCore

extension ContentReader {
    /// Images may be at most this big: a story site is read on phones.
    public static let maximumMediaSize = 2 << 20

    /// Every image beside the content files, by its path inside the content directory; too big
    /// or unsafe ones are reported. SVG is refused: an SVG file can carry script, and it would run
    /// when a reader opens the image by its address. So is a file whose bytes are not the kind
    /// its name says (SVG or HTML named `.png`).
    ///
    /// With an `inventory` of the content directory (taken before reading, as a build does), the
    /// images are picked from it instead of listing every folder again: the same files, the same
    /// problems.
    func scanMedia(into problems: inout [Diagnostic], inventory: FileInventory? = nil) -> Set<String> {
        if let inventory, inventory.root == layout.root { return mediaListed(in: inventory, into: &problems) }
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
                guard depth <= Self.deepestMediaFolder else { continue }
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

    /// Images are found at most this many folders down: `projects/<slug>/rounds/<n>/submissions/`,
    /// where snippets and their images sit, is five.
    static let deepestMediaFolder = 5

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
                if let problem = mediaProblem(path, name: entry.name) { problems.append(problem) } else { found.insert(path) }
            default: continue
            }
        }
        return folders
    }

    /// The scan's result from an inventory: every regular file named as an image, in no hidden
    /// folder and at most `deepestMediaFolder` folders down. Each is checked on every core, as
    /// the check reads the file's first bytes.
    private func mediaListed(in inventory: FileInventory, into problems: inout [Diagnostic]) -> Set<String> {
        var candidates: [String] = []
        inventory.forEachFile { bytes in
            // Most files are snippets and ballots (`.md`, `.yml`), told apart by their last bytes
            // before the whole path is looked at: 370,000 paths on large, scanned on one core.
            guard let last = bytes.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }),
                bytes[last] == UInt8(ascii: "."), Self.imageExtensionLengths.contains(bytes.endIndex - last - 1),
                Self.imageExtensionStarts.contains(bytes[last + 1] | 0x20)
            else { return }
            var folders = 0
            var nameStart = bytes.startIndex
            var lastDot: Int?
            for index in bytes.indices {
                if bytes[index] == UInt8(ascii: "/") {
                    folders += 1
                    nameStart = index + 1
                    lastDot = nil
                } else if bytes[index] == UInt8(ascii: ".") {
                    if index == nameStart { return }  // a hidden file, or inside a hidden folder
                    lastDot = index
                }
            }
            guard folders <= Self.deepestMediaFolder, let lastDot,
                Self.imageExtensionLengths.contains(bytes.endIndex - lastDot - 1),
                Self.imageExtensionStarts.contains(bytes[lastDot + 1] | 0x20)
            else { return }
            let name = String(decoding: bytes[nameStart...], as: UTF8.self)
            guard ContentLayout.isIgnored(name) else { return }
            candidates.append(String(decoding: bytes, as: UTF8.self))
        }
        // Looked at again: an entry racy in the inventory (changed too recently for it to vouch
        // for its kind), or an image removed or replaced since, is what it is now, as the scan
        // would list it.
        let checked = Parallel.map(candidates) { path -> (String, Diagnostic?)? in
            guard FileSystem.kindByStat("\(layout.root)/\(path)") == .file else { return nil }
            return (path, mediaProblem(path, name: String(path.split(separator: "/").last ?? "")))
        }
        var found: Set<String> = []
        for case let (path, problem)? in checked {
            if let problem { problems.append(problem) } else { found.insert(path) }
        }
        return found
    }

    /// The lengths of image extensions, and their first letters (lower case), which other
    /// files' names are told apart by before any String is made of them.
    private static let imageExtensionLengths = Set(ContentLayout.mediaExtensions.map(\.utf8.count))
    private static let imageExtensionStarts = Set(ContentLayout.mediaExtensions.compactMap(\.utf8.first))

    /// What is wrong with the image at `path` (inside the content directory) named `name`, if
    /// anything: SVG, too big, or bytes of another kind than its name says.
    private func mediaProblem(_ path: String, name: String) -> Diagnostic? {
        let shown = "\(layout.root)/\(path)"
        if name.lowercased().hasSuffix(".svg") {
            return Diagnostic(path: shown, message: "SVG images are not allowed (they can carry script); use PNG, JPEG, GIF, WebP or AVIF")
        } else if let size = FileSystem.size(shown), size > Self.maximumMediaSize {
            return Diagnostic(path: shown, message: "the image is \(Self.mebibytes(size)) MiB; images may be at most \(Self.maximumMediaSize >> 20) MiB")
        } else if let dot = name.lastIndex(of: "."),
            !ImageSignature.matches(ImageSignature.head(of: shown), fileExtension: String(name[name.index(after: dot)...]))
        {
            return Diagnostic(path: shown, message: "is not the image its name says: its bytes are not \(Self.kindName(name))")
        }
        return nil
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
