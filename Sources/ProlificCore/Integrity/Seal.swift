/// What `close` records about a closed round's files, so that any later change shows.
///
/// Every file in the round's folder except `round.md` (which holds the seal, and whose note and
/// moderation record maintainers may still edit) is listed with the SHA-256 of its bytes: the
/// snippets, the ballots and any images beside them. `digest` is the SHA-256 of `manifest`, the
/// list in `sha256sum` format, so the whole round is named by one hash and anyone can verify it
/// with standard tools:
///
/// ```yaml
/// sealed:
///   sha256: 5d41402abc4b2a76b9719d911017c592…
///   files:
///     submissions/ann-20261102101500.md: 2cf24dba5fb0a30e26e83b2ac5b9e29e…
///     votes/bram.yml: 486ea46224d1bb4fb680f34f7c9ad96a…
/// ```
public struct Seal: Hashable, Sendable {
    /// The one algorithm seals use; the key under `sealed:` names it so another could follow.
    public static let algorithm = "sha256"

    /// The SHA-256 of `manifest(files)`, lowercase hex.
    public var digest: String
    /// Each sealed file, sorted by path.
    public var files: [File]

    public init(digest: String, files: [File]) {
        self.digest = digest
        self.files = files
    }

    /// One sealed file: its path inside the round folder (`submissions/<id>.md`) and its hash.
    public struct File: Hashable, Sendable, Comparable {
        public var path: String
        /// The SHA-256 of the file's bytes, lowercase hex.
        public var digest: String
        /// Where round.md lists it, when read from one, for `check`'s notes. Not part of what the
        /// file is: equality, hashing and order ignore it. Kept here rather than as a key of the
        /// round's positions (`sealed.files.<path>`): a round.md lists 14 files, and building
        /// those keys was a fifth of reading a sealed round.md.
        public var position: TextPosition?

        public init(path: String, digest: String, position: TextPosition? = nil) {
            self.path = path
            self.digest = digest
            self.position = position
        }

        public static func == (a: File, b: File) -> Bool { a.path == b.path && a.digest == b.digest }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(digest)
        }

        public static func < (a: File, b: File) -> Bool { (a.path, a.digest) < (b.path, b.digest) }
    }

    /// The text whose hash is the round's digest: one `<digest>  <path>` line per file, sorted
    /// by path, as `sha256sum` prints it.
    public static func manifest(_ files: [File]) -> String {
        files.sorted().map { "\($0.digest)  \($0.path)\n" }.joined()
    }

    /// Whether `text` is a lowercase hex SHA-256.
    public static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
