import ProlificCore

extension ContentReader {
    /// Images may be at most this big: a story site is read on phones.
    public static let maximumMediaSize = 2 << 20

    /// Every image beside the content files, by its path inside the content directory; too big
    /// or unsafe ones are reported. SVG is refused: an SVG file can carry script, and it would run
    /// when a reader opens the image by its address. So is a file whose bytes are not the kind
    /// its name says (SVG or HTML named `.png`).
    func scanMedia(into problems: inout [Diagnostic]) -> Set<String> {
        var found: Set<String> = []
        func walk(_ relative: String, depth: Int) {
            let folder = relative.isEmpty ? layout.root : "\(layout.root)/\(relative)"
            guard depth < 6, let entries = try? FileSystem.list(folder) else { return }
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = relative.isEmpty ? entry.name : "\(relative)/\(entry.name)"
                switch entry.kind {
                case .directory: walk(path, depth: depth + 1)
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
        }
        walk("", depth: 0)
        return found
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
