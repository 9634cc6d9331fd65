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
    public var files: [File] {
        get {
            switch storage {
            case .files(let files): files
            case .packed(let packed): packed.files
            case .deferred(let seals, let index): seals.files(of: index)
            }
        }
        set { storage = .files(newValue) }
    }
    /// How many files are sealed, without making them.
    public var fileCount: Int {
        switch storage {
        case .files(let files): files.count
        case .packed(let packed): packed.count
        case .deferred(let seals, let index): seals.fileCount(of: index)
        }
    }

    private var storage: Storage

    /// The files as values, packed in one buffer, or left in a kept project's cache entry until
    /// asked for: a rebuild decodes the seals of 18,000 kept rounds of the large benchmark,
    /// 250,000 files, and only `check`, a round page's count and the rounds read again look at
    /// them.
    private enum Storage: Sendable {
        case files([File])
        case packed(PackedFiles)
        /// Seal `index` of a project's `DeferredSeals`.
        case deferred(DeferredSeals, index: Int)
    }

    public init(digest: String, files: [File]) {
        self.digest = digest
        self.storage = .files(files)
    }

    public init(digest: String, packed: PackedFiles) {
        self.digest = digest
        self.storage = .packed(packed)
    }

    /// Seal `index` of `seals`, its files read when first asked for.
    public init(digest: String, deferred seals: DeferredSeals, at index: Int) {
        self.digest = digest
        self.storage = .deferred(seals, index: index)
    }

    /// The files packed (`PackedFiles`) when they can be, for a cache to keep as bytes.
    public var packedFiles: PackedFiles? {
        switch storage {
        case .files(let files): PackedFiles(files)
        case .packed(let packed): packed
        case .deferred(let seals, let index): seals.packed(index) ?? PackedFiles(seals.files(of: index))
        }
    }

    /// Whether the files are left where a kept project's cache entry holds them.
    public var isDeferred: Bool {
        if case .deferred = storage { return true }
        return false
    }

    public static func == (a: Seal, b: Seal) -> Bool { a.digest == b.digest && a.files == b.files }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(files)
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
        var text = text
        return text.withUTF8(isDigest(bytes:))
    }

    /// Whether `bytes` are a lowercase hex SHA-256. Over the bytes in place: a full build reads
    /// and packs the 270,000 digests of the large benchmark's seals, and through the generic
    /// `allSatisfy` of a `Substring`'s view that was about 1 % of its CPU.
    static func isDigest(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 64 else { return false }
        for byte in bytes where !(byte >= 48 && byte <= 57 || byte >= 97 && byte <= 102) { return false }
        return true
    }
}

extension Seal {
    /// A seal's files in one buffer: for each, its path's length (one byte), the path, and
    /// its digest as 32 bytes. Files are made from it each time they are asked for (their
    /// positions are not kept: only a seal read from round.md has them).
    public struct PackedFiles: Sendable, Equatable {
        public let bytes: [UInt8]
        public let count: Int

        /// `files` packed; nil if a path is longer than 255 bytes or a digest is not a
        /// lowercase hex SHA-256.
        public init?(_ files: [File]) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(files.reduce(0) { $0 + 33 + $1.path.utf8.count })
            for file in files {
                var (path, digest) = (file.path, file.digest)
                let packed = path.withUTF8 { path in
                    digest.withUTF8 { digest -> Bool in
                        guard path.count <= 255, isDigest(bytes: digest) else { return false }
                        bytes.append(UInt8(path.count))
                        bytes.append(contentsOf: path)
                        for i in stride(from: 0, to: 64, by: 2) { bytes.append(Self.nibble(digest[i]) << 4 | Self.nibble(digest[i + 1])) }
                        return true
                    }
                }
                guard packed else { return nil }
            }
            self.bytes = bytes
            self.count = files.count
        }

        /// The value of a lowercase hex digit.
        private static func nibble(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }

        /// `count` files packed in `bytes`; nil unless the bytes are exactly that many.
        public init?(bytes: [UInt8], count: Int) {
            var offset = 0
            for _ in 0..<max(0, count) {
                guard offset < bytes.count else { return nil }
                offset += 1 + Int(bytes[offset]) + 32
            }
            guard count >= 0, offset == bytes.count else { return nil }
            self.bytes = bytes
            self.count = count
        }

        /// The files, in the order packed.
        public var files: [File] {
            var files: [File] = []
            files.reserveCapacity(count)
            var offset = 0
            while offset < bytes.count {
                let length = Int(bytes[offset])
                let pathStart = offset + 1, digestStart = offset + 1 + length, end = digestStart + 32
                guard end <= bytes.count else { break }
                let path = String(decoding: bytes[pathStart..<digestStart], as: UTF8.self)
                let digest = String(unsafeUninitializedCapacity: 64) { hex in
                    let digits = Array("0123456789abcdef".utf8)
                    for (i, byte) in bytes[digestStart..<end].enumerated() {
                        hex[2 * i] = digits[Int(byte >> 4)]
                        hex[2 * i + 1] = digits[Int(byte & 15)]
                    }
                    return 64
                }
                files.append(File(path: path, digest: digest))
                offset = end
            }
            return files
        }
    }
}
