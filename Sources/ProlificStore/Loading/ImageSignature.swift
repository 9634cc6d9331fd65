#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What an image file's first bytes say it is, so a file named `.png` that holds SVG or HTML
/// (which can carry script) is refused rather than published.
enum ImageSignature {
    /// Enough bytes to tell every allowed kind apart.
    static let length = 16

    /// The kind the bytes begin with, as a lowercase file extension; nil if none allowed.
    static func kind(of bytes: some Collection<UInt8>) -> String? {
        let b = Array(bytes.prefix(length))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "webp" }
        if starts(Array("ftyp".utf8), at: 4) && (starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8)) {
            return "avif"
        }
        return nil
    }

    /// Whether `bytes` are an image of the kind the file extension `fileExtension` names.
    static func matches(_ bytes: some Collection<UInt8>, fileExtension: String) -> Bool {
        let named = fileExtension.lowercased()
        return kind(of: bytes) == (named == "jpg" ? "jpeg" : named)
    }

    /// The first `length` bytes of the file at `path`; empty if it can't be read.
    static func head(of path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: length)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, length) }
        return n > 0 ? Array(bytes.prefix(n)) : []
    }
}
