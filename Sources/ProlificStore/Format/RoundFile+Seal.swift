import ProlificCore
import Yams

/// round.md's `sealed`: the SHA-256 of every file in a closed round's folder (see `Seal`).
///
/// ```yaml
/// sealed:
///   sha256: 5d41402abc4b2a76b9719d911017c592…
///   files:
///     submissions/ann-20261102101500.md: 2cf24dba5fb0a30e26e83b2ac5b9e29e…
/// ```
extension RoundFile {
    static func parseSeal(_ fields: inout YAMLFields) -> Seal? {
        guard var nested = fields.mapping("sealed") else { return nil }
        defer { fields.absorb(nested, prefix: "sealed") }
        let digest = nested.string(Seal.algorithm)
        if let digest, !Seal.isDigest(Substring(digest)) {
            nested.report("'\(Seal.algorithm)' must be 64 lowercase hex digits", at: Seal.algorithm)
        }
        var files: [Seal.File] = []
        if var listed = nested.mapping("files", required: true) {
            for pair in listed.scalarPairs() {
                guard Self.isSealedPath(pair.key) else {
                    listed.report("'\(pair.key)' is not a path inside the round folder", at: pair.key)
                    continue
                }
                guard let value = pair.value, Seal.isDigest(Substring(value)) else {
                    listed.report("the hash of '\(pair.key)' must be 64 lowercase hex digits", at: pair.key)
                    continue
                }
                files.append(Seal.File(path: pair.key, digest: value, position: pair.position))
            }
            // Each file keeps its own position (`Seal.File.position`), not a key of the round's.
            nested.absorbDiagnostics(listed)
        }
        nested.finish()
        guard let digest, nested.isValid else { return nil }
        return Seal(digest: digest, files: files.sorted())
    }

    static func sealNode(_ seal: Seal) -> Node {
        var nested = YAMLWriter()
        nested.text(Seal.algorithm, seal.digest)
        var files = YAMLWriter()
        for file in seal.files.sorted() { files.text(file.path, file.digest) }
        nested.node("files", files.isEmpty ? Node([(Node, Node)]()) : files.mapping)
        return nested.mapping
    }

    /// A relative path of plain names: no `..`, no leading `/`, no empty or hidden parts.
    ///
    /// Byte by byte: a sealed round.md lists a dozen paths, and splitting each into parts was
    /// 1 % of a large build's CPU.
    static func isSealedPath(_ path: String) -> Bool {
        // Names are judged by Characters, as `RoundSeal` lists them (`.` or `/` followed by a
        // combining mark is another Character): beyond ASCII, the rule is asked as written.
        guard path.utf8.allSatisfy({ $0 < 0x80 }) else { return hasPlainNames(path) }
        var atPartStart = true
        for byte in path.utf8 {
            // An empty part (a leading, doubled or trailing `/`), a hidden one, a NUL.
            if (atPartStart && (byte == UInt8(ascii: "/") || byte == UInt8(ascii: "."))) || byte == 0 { return false }
            atPartStart = byte == UInt8(ascii: "/")
        }
        return !atPartStart
    }

    private static func hasPlainNames(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.utf8.contains(0) }
    }
}
