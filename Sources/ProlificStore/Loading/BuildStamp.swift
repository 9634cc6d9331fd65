#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore
import Synchronization

/// What the last build was made from and what it wrote, in `.prolific/build.stamp` inside the
/// content directory: when nothing of it changed, the site on disk is already what a build would
/// write, and `build` ends at once instead of reading and rendering everything again.
///
/// The inputs are every file under the content directory and the templates folder (by their
/// metadata, `FileInventory`; a file a closed round's seal lists by its folders' metadata,
/// `SealedRounds`), and a key for the rest: the binary itself, `--now`, `--out`, which
/// templates, and git's `HEAD` (tallies weigh who committed what). The output is every file of the
/// site, so a site edited or deleted by hand is built again. Like `HistoryCache`, it is only speed:
/// anything unreadable, missing or different means a full build, and a linked `.prolific/` is
/// neither read nor written.
public struct BuildStamp: Sendable {
    static let magic: Int64 = 0x5052_4F4C_4255_4909  // "PROLBUI" v9: a recorded round's votes/ folder vouched for
    static let file = ".prolific/build.stamp"
    /// The stamp before last, whose file the next stamp is written into (`AtomicFile.write(parts:to:reusing:)`).
    static let spareFile = ".prolific/build.stamp.spare"

    /// The inputs that are not files: see `key(now:out:templates:layout:)`.
    public var key: [String]
    public var content: FileInventory
    /// The closed rounds whose files are checked by their folders' times alone (`SealedRounds`).
    public var sealed: SealedRounds
    /// The templates folder, when the theme came from one (the built-in theme is in the binary).
    public var templates: FileInventory?
    /// What the build worked out of each project's folder in `content`, by its path: the next
    /// build takes them for a folder whose entries are still as recorded (`SubtreeKeys`).
    public var subtreeKeys: [String: SubtreeKeys]
    public var site: FileInventory
    /// The last build's counts, for its summary line.
    public var pages: Int
    public var files: Int
    /// The fingerprints and the spare: decoded when first asked for, as a build that finds its
    /// site up to date never needs them (37,000 fingerprints and 47,000 entries on large).
    private let tail: Tail

    /// Each page's fingerprint (`PageFingerprint`), by path: a page whose values are the same at
    /// the next build keeps its file in `site`, if that file is intact. Kept in the stamp so the
    /// two always describe the same build.
    public var fingerprints: PageFingerprints { tail.value.fingerprints }
    /// The site the build replaced, as the build before recorded it: that site is now the spare
    /// the next build rewrites (`SiteWriter.RecordedSpare`). nil when there was none.
    public var spare: FileInventory? { tail.value.spare }

    /// The fingerprints' part of the file, when it was encoded ahead (`EncodedFingerprints`).
    private let encodedFingerprints: [UInt8]?

    public init(
        key: [String], content: FileInventory, sealed: SealedRounds = .empty, templates: FileInventory?,
        subtreeKeys: [String: SubtreeKeys] = [:], site: FileInventory, pages: Int, files: Int,
        fingerprints: PageFingerprints = .empty, spare: FileInventory? = nil
    ) {
        self.init(
            key: key, content: content, sealed: sealed, templates: templates, subtreeKeys: subtreeKeys, site: site,
            pages: pages, files: files, fingerprints: EncodedFingerprints(fingerprints), spare: spare)
    }

    /// The same, with the fingerprints encoded ahead.
    public init(
        key: [String], content: FileInventory, sealed: SealedRounds = .empty, templates: FileInventory?,
        subtreeKeys: [String: SubtreeKeys] = [:], site: FileInventory, pages: Int, files: Int,
        fingerprints: EncodedFingerprints, spare: FileInventory? = nil
    ) {
        (self.key, self.content, self.templates, self.site, self.pages, self.files) = (key, content, templates, site, pages, files)
        (self.sealed, self.subtreeKeys) = (sealed, subtreeKeys)
        tail = Tail(decoded: (fingerprints.fingerprints, spare))
        encodedFingerprints = fingerprints.bytes
    }

    /// The pages' fingerprints with their part of the stamp file, encoded as soon as the last
    /// page is made, while the writer still works: sorting 25,000 paths was 20–30 ms on one core
    /// at the very end of every rebuild of the large site, with nothing beside it. (A rebuild now
    /// sorts only the fingerprints that changed, `PageFingerprints.Recorder`; a full build, all.)
    public struct EncodedFingerprints: Sendable {
        public let fingerprints: PageFingerprints
        let bytes: [UInt8]

        public init(_ fingerprints: PageFingerprints) {
            self.fingerprints = fingerprints
            bytes = BuildStamp.encode(fingerprints)
        }
    }

    /// The fingerprints' part: each page's path and fingerprint, in the byte order of the paths
    /// (`PageFingerprints` keeps them so: the file's bytes depend only on what it records).
    static func encode(_ fingerprints: PageFingerprints) -> [UInt8] {
        var w = BinaryWriter(capacity: 80 * fingerprints.count + 16)
        w.integer(Int64(fingerprints.count))
        fingerprints.forEach { path, fingerprint in
            w.varint(UInt64(path.count))
            w.raw(path)
            w.raw(fingerprint)
        }
        return w.bytes
    }

    private init(
        key: [String], content: FileInventory, templates: FileInventory?, subtreeKeys: [String: SubtreeKeys], site: FileInventory,
        pages: Int, files: Int, tail: Tail
    ) {
        (self.key, self.content, self.templates, self.site, self.pages, self.files) = (key, content, templates, site, pages, files)
        self.subtreeKeys = subtreeKeys
        self.tail = tail
        encodedFingerprints = nil
        // Which files were vouched for is not decoded: a build saves the stamp of the content it
        // read, with that content's sealed rounds.
        sealed = .empty
    }

    /// The end of a loaded stamp, as its bytes until first asked for (the checksum vouched for
    /// them; what can't be decoded keeps no page and has no spare).
    private final class Tail: Sendable {
        typealias Value = (fingerprints: PageFingerprints, spare: FileInventory?)

        private enum State {
            case encoded(file: MappedFile, range: Range<Int>)
            case decoded(Value)
        }

        private let state: Mutex<State>

        init(decoded: Value) { state = Mutex(.decoded(decoded)) }

        init(file: MappedFile, range: Range<Int>) { state = Mutex(.encoded(file: file, range: range)) }

        var value: Value {
            state.withLock { state in
                switch state {
                case .decoded(let value):
                    return value
                case .encoded(let file, let range):
                    var r = ByteReader(file.bytes, range: range)
                    let value = Self.decode(&r) ?? (.empty, nil)
                    state = .decoded(value)
                    return value
                }
            }
        }

        static func decode<Bytes>(_ r: inout ByteReader<Bytes>) -> Value? {
            guard let fingerprintCount = r.count(minimumSize: 17) else { return nil }
            // Each entry's path and fingerprint, copied into one buffer as they lie.
            var entries: [UInt8] = []
            var starts = [0]
            starts.reserveCapacity(fingerprintCount + 1)
            for _ in 0..<fingerprintCount {
                guard let count = r.varint(), count <= UInt64(r.remaining), let range = r.skip(Int(count) + 16) else { return nil }
                r.withAll { entries.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
                starts.append(entries.count)
            }
            guard let fingerprints = PageFingerprints(entries: entries, starts: starts) else { return nil }
            guard let hasSpare = r.integer() else { return nil }
            var spare: FileInventory? = nil
            if hasSpare == 1 {
                guard let inventory = FileInventory.decode(from: &r) else { return nil }
                spare = inventory
            }
            guard r.isAtEnd else { return nil }
            return (fingerprints, spare)
        }
    }

    /// The content directory as a build reads it: all but `.prolific/` (where this stamp and the
    /// other caches live) and a `.git` folder (`HEAD` is in the key).
    public static func inventory(of layout: ContentLayout) -> FileInventory? {
        FileInventory.take(of: layout.root, skipping: skipped)
    }

    /// What a build doesn't read of the content directory.
    static let skipped: Set<String> = [".prolific", ".git"]

    /// The non-file inputs of a build: the running binary (its build ID, `RunningBinary`: a
    /// rebuilt prolific may render differently), the moment, the output and templates folders as given,
    /// and the commit git's evidence comes from ("" outside a repository).
    public static func key(now: Timestamp, out: String, templates: String?, head: String) -> [String] {
        [
            "binary \(runningBinary ?? "unknown")",
            "now \(now.iso8601)",
            "out \(out)",
            "templates \(templates ?? "(built-in)")",
            "git \(head)",
        ]
    }

    /// The running binary (`RunningBinary`): a rebuilt prolific may read and render
    /// differently, so every cache that outlives a process names it. nil if unknown.
    static var runningBinary: String? { RunningBinary.name }

    /// What the next build may keep of the site this stamp describes: its pages' fingerprints,
    /// with a check that a file of the site is still the one recorded (the same inode, size and
    /// times), which gives its metadata when it is, and whether the spare's record holds the same
    /// file at the same path (`FileInventory.intactEntries`). nil when the stamp is of another
    /// binary, or of a site folder `isOut` doesn't take for the build's (it is given the folder
    /// as the stamp's build spelt it), or holds no fingerprints.
    public func pageMemory(
        isOut: (String) -> Bool, key: [String]
    ) -> (fingerprints: PageFingerprints, intact: @Sendable (String) -> (info: stat, inSpare: Bool)?)? {
        guard !fingerprints.isEmpty, Self.isOfKnownBinary(key), key.first == self.key.first, isOut(site.root) else { return nil }
        return (fingerprints, site.intactEntries(spare: spare.flatMap { isOut($0.root) ? $0 : nil }, lookingAhead: true))
    }

    /// The keys this stamp's build worked out of each project's folder (`subtreeKeys`), for a
    /// build whose `key` names the same, known binary: another may hash otherwise. Empty when not.
    public func subtreeKeys(forKey key: [String]) -> [String: SubtreeKeys] {
        Self.isOfKnownBinary(key) && key.first == self.key.first ? subtreeKeys : [:]
    }

    /// Whether `key` (as `key(now:out:templates:layout:)` makes it, the binary first) names the
    /// running binary: without it, nothing recorded can be trusted to be what this build makes.
    private static func isOfKnownBinary(_ key: [String]) -> Bool {
        key.first.map { !$0.hasSuffix("unknown") } ?? false
    }

    static func path(_ layout: ContentLayout) -> String { "\(layout.root)/\(file)" }

    /// The last build's stamp, decoded; nil when there is none that can be read.
    public static func load(_ layout: ContentLayout) -> BuildStamp? {
        Saved(layout)?.decoded()
    }

    /// The stamp as the last build saved it, the file mapped into memory and its inventories
    /// found in place: enough to tell whether the site is up to date (`isCurrent`) without
    /// decoding them, which a build does only when it is not (`decoded`). Decoding them first
    /// took a large no-op build 40 ms of its 0.45 s, on one core, before the first `stat`.
    public struct Saved: Sendable {
        private let file: MappedFile
        /// The inputs that are not files: see `key(now:out:templates:layout:)`.
        public let key: [String]
        private let content: FileInventory.Encoded, templates: FileInventory.Encoded?, site: FileInventory.Encoded
        /// Where the projects' keys are (decoded only by `decoded`).
        private let subtreeKeys: Range<Int>
        /// The last build's counts, for its summary line.
        public let pages: Int, files: Int
        /// Where the fingerprints and the spare are.
        private let tail: Range<Int>

        /// The site folder as the stamp's build spelt it.
        public var siteRoot: String { site.root }

        /// The stamp file's metadata as it was read: this version of it (`HandedTallies`).
        var fileStamp: FileInventory.Stamp { file.stamp }

        /// The stamp in `layout`, if there is one whose checksum holds.
        public init?(_ layout: ContentLayout) {
            guard HistoryCache.isUsable(layout), let file = MappedFile(BuildStamp.path(layout), limit: 1 << 31),
                let body = CacheSeal.body(of: file.bytes)
            else { return nil }
            var r = ByteReader(file.bytes, range: body)
            guard r.integer() == magic, let keyCount = r.count(minimumSize: 8) else { return nil }
            var key: [String] = []
            for _ in 0..<keyCount {
                guard let part = r.string() else { return nil }
                key.append(part)
            }
            guard let content = FileInventory.Encoded.read(from: &r), let hasTemplates = r.integer() else { return nil }
            var templates: FileInventory.Encoded? = nil
            if hasTemplates == 1 {
                guard let inventory = FileInventory.Encoded.read(from: &r) else { return nil }
                templates = inventory
            }
            guard let keysLength = r.shortCount(), let keys = r.skip(keysLength),
                let site = FileInventory.Encoded.read(from: &r), let pages = r.integer(), let files = r.integer()
            else { return nil }
            (self.file, self.key, self.content, self.templates, self.site) = (file, key, content, templates, site)
            subtreeKeys = keys
            (self.pages, self.files, tail) = (Int(pages), Int(files), r.position..<body.upperBound)
        }

        /// Whether a build with `key` would write exactly the site that is there.
        public func isCurrent(key: [String]) -> Bool {
            guard key == self.key, isOfKnownBinary(key) else { return false }
            return FileInventory.Encoded.areUnchanged([content] + (templates.map { [$0] } ?? []) + [site], in: file.bytes)
        }

        /// The whole stamp; nil when an inventory can't be decoded.
        public func decoded() -> BuildStamp? {
            guard let content = content.decoded(from: file), let site = site.decoded(in: file.bytes) else { return nil }
            var decodedTemplates: FileInventory? = nil
            if let templates {
                guard let inventory = templates.decoded(in: file.bytes) else { return nil }
                decodedTemplates = inventory
            }
            var r = ByteReader(file.bytes, range: subtreeKeys)
            guard let keys = BuildStamp.decodeSubtreeKeys(&r), r.isAtEnd else { return nil }
            return BuildStamp(
                key: key, content: content, templates: decodedTemplates, subtreeKeys: keys, site: site, pages: pages,
                files: files, tail: Tail(file: file, range: tail))
        }
    }

    /// The part of a stamp known once the content is read: the key and the inventories of the
    /// content and templates, encoded while the site is built (encoding the large content's
    /// 370,000 entries at the end of a build kept one core busy and the other idle).
    public struct EncodedInputs: Sendable {
        let bytes: [UInt8]
        /// What was encoded: a stamp saved with these inputs must have them (arrays compare by
        /// their storage first, so this costs nothing when they are the same values).
        fileprivate let key: [String], content: FileInventory, templates: FileInventory?
        fileprivate let subtreeKeys: [String: SubtreeKeys]
        /// The sealed rounds whose files were written as vouched for.
        public let sealed: SealedRounds

        public init(
            key: [String], content: FileInventory, sealed: SealedRounds = .empty, templates: FileInventory?,
            subtreeKeys: [String: SubtreeKeys] = [:]
        ) {
            (self.key, self.content, self.sealed, self.templates) = (key, content, sealed, templates)
            self.subtreeKeys = subtreeKeys
            var w = BinaryWriter(capacity: 32 * content.count + 160 * subtreeKeys.count + 4096)
            w.integer(BuildStamp.magic)
            w.integer(Int64(key.count))
            for part in key { w.string(part) }
            content.encode(into: &w, sealed: sealed)
            w.integer(templates == nil ? 0 : 1)
            templates?.encode(into: &w)
            let keys = BuildStamp.encode(subtreeKeys)
            w.varint(UInt64(keys.count))
            w.raw(keys)
            bytes = w.bytes
        }
    }

    /// The projects' keys: each folder's path and key (32 bytes), then, if it has one, the path
    /// its other digest leaves out and that digest, by path (the file's bytes depend only on what
    /// it records).
    static func encode(_ keys: [String: SubtreeKeys]) -> [UInt8] {
        var w = BinaryWriter(capacity: 160 * keys.count + 16)
        w.varint(UInt64(keys.count))
        for (path, keys) in keys.sorted(by: { $0.key < $1.key }) {
            w.text(path)
            w.raw(keys.key)
            if let leftOut = keys.leftOut {
                w.flag(true)
                w.text(leftOut.path)
                w.text(leftOut.digest)
            } else {
                w.flag(false)
            }
        }
        return w.bytes
    }

    /// The projects' keys `encode(_:)` wrote; nil when they can't be read.
    static func decodeSubtreeKeys<Bytes>(_ r: inout ByteReader<Bytes>) -> [String: SubtreeKeys]? {
        guard let count = r.shortCount(minimumSize: 34) else { return nil }
        var keys: [String: SubtreeKeys] = [:]
        keys.reserveCapacity(count)
        for _ in 0..<count {
            guard let path = r.text(), let key = r.raw(32), let hasLeftOut = r.flag() else { return nil }
            var found = SubtreeKeys(key: key)
            if hasLeftOut {
                guard let leftOut = r.text(), let digest = r.text() else { return nil }
                found.leftOut = SubtreeKeys.LeftOut(path: leftOut, digest: digest)
            }
            keys[path] = found
        }
        return keys
    }

    /// Saves the stamp atomically; a failure to save only costs speed next time.
    public func save(_ layout: ContentLayout) {
        save(layout, inputs: EncodedInputs(key: key, content: content, sealed: sealed, templates: templates, subtreeKeys: subtreeKeys))
    }

    /// The same, with this stamp's key, content and templates encoded ahead (inputs of other
    /// values are encoded again).
    public func save(_ layout: ContentLayout, inputs: EncodedInputs) {
        guard HistoryCache.isUsable(layout) else { return }
        guard inputs.key == key, inputs.content == content, inputs.sealed == sealed, inputs.templates == templates,
            inputs.subtreeKeys == subtreeKeys
        else {
            return save(
                layout, inputs: EncodedInputs(key: key, content: content, sealed: sealed, templates: templates, subtreeKeys: subtreeKeys))
        }
        // The site, the pages' fingerprints and the spare are encoded side by side (they end a
        // build, with nothing else left to keep the other cores busy), then put together.
        let encoders: [() -> [UInt8]] = [
            {
                var w = BinaryWriter(capacity: 40 * site.count + 64)
                site.encode(into: &w)
                w.integer(Int64(pages))
                w.integer(Int64(files))
                return w.bytes
            },
            { encodedFingerprints ?? Self.encode(fingerprints) },
            {
                var w = BinaryWriter(capacity: 40 * (spare?.count ?? 0) + 64)
                w.integer(spare == nil ? 0 : 1)
                spare?.encode(into: &w)
                return w.bytes
            },
        ]
        // Written part after part, sealed (`CacheSeal`) by a checksum of them all: put together
        // first, the large site's 15 MB stamp was copied into as much fresh memory, at the end
        // of every build, with nothing beside it.
        let parts = [inputs.bytes] + Parallel.map(encoders, batch: 1) { $0() }
        let seal = CacheSeal.seal(of: parts.map { $0[...] })
        try? FileSystem.makeDirectories("\(layout.root)/.prolific")
        try? AtomicFile.write(parts: parts + [seal], to: Self.path(layout), reusing: "\(layout.root)/\(Self.spareFile)")
    }
}
