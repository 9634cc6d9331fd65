import Foundation
import ProlificCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a built site into a sibling folder and swaps it in, so a failed or killed build leaves
/// the previous site as it was: readers see the old site or the new one, never a mix.
///
/// A file whose bytes are the same as in the previous site is hard-linked from it instead of
/// written: its modification time stays, so `rsync` and web caches see only what changed.
/// Files are written on every core.
///
/// The site a build replaces is kept beside the new one as `.NAME.spare`, and the next build
/// writes into it instead of into an empty folder: a rebuild then only replaces the files that
/// differ and removes those the new site lacks, rather than making every folder again (9,350 on
/// the large benchmark) and deleting the old tree, which took most of a small rebuild's time.
public enum SiteWriter {
    /// What a write did.
    public struct Report: Sendable, Equatable {
        /// Files whose bytes are new or changed.
        public var written: Int
        /// Files kept from the previous site.
        public var unchanged: Int
    }

    /// An entry of the written site and its metadata (`lstat`) as the build left it; for a folder
    /// taken from the spare's record (`withFolders`), only what a stamp holds (kind, inode, size,
    /// times), the rest zero.
    public typealias Entry = (path: String, info: stat)

    /// What the build before last recorded of the site that is now the spare: its entries, and a
    /// check that a folder still holds exactly those (`isAsRecorded`, given its path). When the
    /// spare passes, a rebuild removes what the new site lacks by the record instead of listing
    /// the spare's folders (27,000 on the large benchmark when round pages were folders), which
    /// took 0.3 s, and 1.3 s more in a rebuild measured once the host had dropped them from its
    /// cache.
    public struct RecordedSpare: Sendable {
        public var folders: [String]
        /// Each of `folders`' metadata as recorded, where it is known (`Staging.finish`).
        public var folderInfo: [stat?]
        /// Files and links.
        public var others: [String]
        public var isAsRecorded: @Sendable (String) -> Bool

        public init(
            folders: [String], folderInfo: [stat?] = [], others: [String], isAsRecorded: @escaping @Sendable (String) -> Bool
        ) {
            (self.folders, self.folderInfo, self.others, self.isAsRecorded) = (folders, folderInfo, others, isAsRecorded)
        }
    }

    @discardableResult
    public static func write(_ files: [OutputFile], to output: String) throws(Diagnostics) -> Report {
        let staging = try Staging(output: output)
        do {
            try staging.write(files)
            return try staging.finish()
        } catch {
            staging.discard()
            throw error
        }
    }

    /// A site being written: files go into a fresh sibling folder batch by batch, as they are
    /// rendered, so a build never holds the whole site in memory; `finish` swaps it in.
    public final class Staging {
        let output: String
        let staging: String
        /// The site being replaced, whose unchanged files are linked rather than written.
        let previous: String?
        /// Whether `staging` started as an earlier site (the spare, or a killed build's folder)
        /// rather than empty: its files are then compared and replaced, and `finish` removes what
        /// the new site doesn't have.
        let reused: Bool
        /// The entries `staging` holds, when it is the spare and the spare is as recorded: what
        /// the new site lacks is then removed by the record (`finish`).
        let known: RecordedSpare?
        /// The folders `staging` has, when it is `known`, by their bytes (a decomposed `é` is
        /// not the composed one), each with its recorded metadata where known.
        private let existing: [PathKey: stat?]
        /// Folders of `staging` this build may have added an entry to or removed one from, when
        /// it is `known`: those of the files it put there (all but the ones left in place) and of
        /// the entries it removed. The folders made new are found by `existing`.
        private var touched: Set<String> = []
        /// Folders known to exist inside `staging`: every folder of the new site written so far.
        private var folders: Set<String> = []
        /// The files of the new site written so far, when `staging` was reused, by their bytes
        /// (`String` equality would take a decomposed `é` for a composed one).
        private var files: Set<PathKey> = []
        private var report = Report(written: 0, unchanged: 0)
        /// Every file written so far with its metadata once written, then (`finish`) the
        /// folders; nil once one could not be looked at.
        private var written: [Entry]? = []
        /// The site's entries as `finish` left them, the root first, for the build stamp: taken
        /// as the files were written instead of walking the new site again (47,000 entries on
        /// the large benchmark). nil when one could not be looked at.
        public private(set) var entries: [Entry]?

        /// `spare`: what the build before last recorded of the site that is now the spare.
        public init(output given: String, spare recorded: RecordedSpare? = nil) throws(Diagnostics) {
            let output = given.hasSuffix("/") && given.count > 1 ? String(given.dropLast()) : given
            let url = URL(fileURLWithPath: output)
            let parent = url.deletingLastPathComponent().path
            let manager = FileManager.default
            var isDirectory: ObjCBool = false
            let exists = manager.fileExists(atPath: output, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue {
                throw Diagnostics([Diagnostic(path: output, message: "is a file, not a folder; choose another --out")])
            }
            self.output = output
            staging = SiteWriter.sibling(of: output, "building")
            previous = exists ? output : nil
            TreeRemoval.remove(staging)
            do {
                try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw Diagnostics([Diagnostic(path: output, message: "cannot make its folder: \(error.localizedDescription)")])
            }
            let taken = SiteWriter.reuse(into: staging, output: output)
            reused = taken != nil
            known = taken == .spare && recorded?.isAsRecorded(staging) == true ? recorded : nil
            var existing: [PathKey: stat?] = [:]
            if let known {
                existing.reserveCapacity(known.folders.count)
                for (index, path) in known.folders.enumerated() {
                    existing.updateValue(index < known.folderInfo.count ? known.folderInfo[index] : nil, forKey: PathKey(path))
                }
            }
            self.existing = existing
            SiteWriter.removeLeftovers(of: url.lastPathComponent, in: parent)
            guard reused || mkdir(staging, 0o755) == 0 else {
                throw Diagnostics([Diagnostic(path: output, message: "cannot write the site: \(staging): \(String(cString: strerror(errno)))")])
            }
        }

        /// Whether `finish` replaced a site at `output` and kept it as the spare.
        public private(set) var replacedASite = false

        /// Writes `files` (paths unique across all batches) into the staging folder.
        public func write(_ files: [OutputFile]) throws(Diagnostics) {
            if reused { self.files.formUnion(files.lazy.map { PathKey($0.path) }) }
            if known != nil {
                for file in files where !SiteWriter.isLeftInPlace(file, reused: reused, spareAsRecorded: true) {
                    touched.insert(SiteWriter.folder(of: file.path))
                }
            }
            do {
                var stamped: [Entry]? = []
                let batch = try SiteWriter.fill(
                    staging, with: files, previous: previous, made: &folders, reused: reused, existing: existing,
                    spareAsRecorded: known != nil, stamped: &stamped)
                report.written += batch.written
                report.unchanged += batch.unchanged
                if let stamped { written? += stamped } else { written = nil }
            } catch {
                throw Diagnostics([Diagnostic(path: output, message: "cannot write the site: \(error.message)")])
            }
        }

        /// Swaps the written site in; the staging folder is gone after this unless it throws (then
        /// `discard` it).
        public func finish() throws(Diagnostics) -> Report {
            let keptFolders = Set(folders.map(PathKey.init))
            var gone: [String] = []
            let removed =
                !reused
                || (known.map { StaleEntries.remove($0, from: staging, keepingFiles: files, folders: keptFolders, removing: &gone) }
                    ?? StaleEntries.remove(from: staging, keepingFiles: files, folders: keptFolders))
            touched.formUnion(gone.lazy.map(SiteWriter.folder(of:)))
            if !removed {
                throw Diagnostics([
                    Diagnostic(path: output, message: "cannot remove the old pages from \(staging), the site this build rewrote; the next build starts afresh")
                ])
            }
            let spareKept = try SiteWriter.swapIn(staging, at: output, replacing: previous != nil)
            // A replaced site that had to be deleted (it could not become the spare) took a link
            // from each file it shared with the new one, which moves those files' ctime: the new
            // site is then walked for the stamp instead.
            replacedASite = previous != nil && spareKept
            entries =
                spareKept
                ? written.flatMap { SiteWriter.withFolders($0, folders: folders, at: output, recorded: existing, touched: touched) }
                : nil
            written = nil
            return report
        }

        /// The build failed; the previous site stays. A folder that started empty is set aside as
        /// the next build's spare; a reused one is removed, so that a folder this build could not
        /// rewrite never fails the next build too.
        public func discard() {
            if reused {
                SiteWriter.removeAside(staging, output: output)
            } else {
                SiteWriter.keepAsSpare(staging, output: output)
            }
        }
    }

    /// Moves the finished `staging` folder to `output`.
    ///
    /// An existing site is exchanged with the new one in a single `renameat2(RENAME_EXCHANGE)`, so
    /// `output` is never missing, not even for an instant or after a kill; the previous site, now
    /// at `staging`, becomes the spare. Where the filesystem can't exchange, the old site is
    /// renamed aside first: a build killed between the two renames leaves no `output` until the
    /// next build, but the old and new sites are still whole.
    ///
    /// Whether the replaced site, if any, became the spare (else it was deleted).
    @discardableResult
    static func swapIn(_ staging: String, at output: String, replacing exists: Bool) throws(Diagnostics) -> Bool {
        if exists {
            switch exchange(staging, output) {
            case 0:
                return keepAsSpare(staging, output: output)
            case EINVAL, ENOSYS, ENOTSUP:
                break
            case let code:
                TreeRemoval.remove(staging)
                throw Diagnostics([Diagnostic(path: output, message: "cannot swap the new site in: \(String(cString: strerror(code)))")])
            }
        }
        let retired = sibling(of: output, "old")
        if exists {
            TreeRemoval.remove(retired)
            guard rename(output, retired) == 0 else {
                TreeRemoval.remove(staging)
                throw Diagnostics([Diagnostic(path: output, message: "cannot replace the old site: \(String(cString: strerror(errno)))")])
            }
        }
        guard rename(staging, output) == 0 else {
            let message = String(cString: strerror(errno))
            if exists { rename(retired, output) }
            TreeRemoval.remove(staging)
            throw Diagnostics([Diagnostic(path: output, message: "cannot move the new site in place: \(message)")])
        }
        return exists ? keepAsSpare(retired, output: output) : true
    }

    /// `files` with the root and every folder of `folders` (relative to `output`) before them,
    /// each with its metadata now, the writing done: adding or removing an entry moves a
    /// folder's times. nil if one can't be looked at. The root comes first, the rest in no
    /// particular order: the stamp's inventory sorts every entry by its bytes (sorting the
    /// folders here too, 27,000 then, cost 15 ms on one core at the end of every rebuild).
    ///
    /// A folder of `recorded` (the spare's, found as recorded) that is not `touched` and holds
    /// no folder made new has had no entry added or removed since: its recorded metadata is
    /// taken without looking (large's site has 9,351 folders: looking at them all took 17-25
    /// samples of a rebuild after a ballot, 5-8 since). Should anything else have changed it,
    /// the next build finds it unlike its record and looks again.
    static func withFolders(
        _ files: [Entry], folders: Set<String>, at output: String, recorded: [PathKey: stat?] = [:], touched: Set<String> = []
    ) -> [Entry]? {
        var root = stat()
        guard lstat(output, &root) == 0 else { return nil }
        let base = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return nil }
        defer { close(base) }
        var entries: [Entry] = [("", root)]
        entries.reserveCapacity(1 + folders.count + files.count)
        var paths = Array(folders)
        if !recorded.isEmpty {
            // A folder made new is an entry added to its parent.
            let found = paths.map { recorded[PathKey($0)] }
            var touched = touched
            for (path, info) in zip(paths, found) where info == nil { touched.insert(folder(of: path)) }
            var looked: [String] = []
            for (path, info) in zip(paths, found) {
                if let info = info ?? nil, !touched.contains(path) { entries.append((path, info)) } else { looked.append(path) }
            }
            paths = looked
        }
        let stamped = Parallel.map(paths) { path -> stat? in
            var info = stat()
            return fstatat(base, path, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
        }
        for (path, info) in zip(paths, stamped) {
            guard let info else { return nil }
            entries.append((path, info))
        }
        entries.append(contentsOf: files)
        return entries
    }

    /// The folder holding the entry at `path` (relative to a site's root, "" for the root).
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(Substring(path)[..<slash])
    }

    /// Whether `fill` leaves `file` where it is without looking at it: a kept file the recorded
    /// spare holds (`Previous.inSpare`), when the folder being filled is that spare (`reused`)
    /// and its folders are as recorded.
    static func isLeftInPlace(_ file: OutputFile, reused: Bool, spareAsRecorded: Bool) -> Bool {
        file.keepsPrevious && reused && spareAsRecorded && file.previous?.inSpare != nil
    }

    /// `.NAME.spare` beside `output`: the site the last build replaced, which the next build
    /// rewrites instead of starting from an empty folder.
    public static func spare(of output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return "\(url.deletingLastPathComponent().path)/.\(url.lastPathComponent).spare"
    }

    /// Moves `folder` to the spare; removes it when that fails (another build's spare is there).
    /// Whether it became the spare.
    @discardableResult
    static func keepAsSpare(_ folder: String, output: String) -> Bool {
        if rename(folder, spare(of: output)) == 0 { return true }
        TreeRemoval.remove(folder)
        return false
    }

    /// Which earlier folder a build rewrites.
    enum Reused { case spare, leftover }

    /// Moves a folder an earlier build left beside `output` to `staging`, to be rewritten rather
    /// than filled from nothing: the spare, else the folder of a build that no longer runs.
    /// Which one was taken, if any. Any state will do, since every file is compared and what the
    /// new site lacks is removed; but only a real folder (a link is never followed) that this
    /// user owns (not one a `sudo` build left). Renaming is atomic, so two builds never take the
    /// same folder, and `removeLeftovers` renames a folder before removing it.
    static func reuse(into staging: String, output: String) -> Reused? {
        let url = URL(fileURLWithPath: output)
        let parent = url.deletingLastPathComponent().path
        let leftovers = deadLeftovers(of: url.lastPathComponent, in: parent, kinds: ["building", "old"])
        for (index, candidate) in ([spare(of: output)] + leftovers.map({ "\(parent)/\($0)" })).enumerated() {
            var info = stat()
            guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(),
                rename(candidate, staging) == 0
            else { continue }
            if lstat(staging, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return index == 0 ? .spare : .leftover }
            // Swapped for something else between the two looks: removed as it is, never followed.
            TreeRemoval.remove(staging)
        }
        return nil
    }

    /// Renames `folder` to this process's `.NAME.removing-PID` and removes it there: a folder
    /// being removed is never one another build could take.
    static func removeAside(_ folder: String, output: String) {
        let aside = sibling(of: output, "removing")
        TreeRemoval.remove(aside)
        if rename(folder, aside) == 0 { TreeRemoval.remove(aside) }
    }

    /// `.NAME.KIND-PID` beside `output`: this process's folder of that kind.
    static func sibling(of output: String, _ kind: String) -> String {
        let url = URL(fileURLWithPath: output)
        return "\(url.deletingLastPathComponent().path)/.\(url.lastPathComponent).\(kind)-\(getpid())"
    }

    /// Exchanges two paths atomically with `renameat2(2)`: 0, or the `errno` (ENOSYS where the C
    /// library lacks the call). Glibc has had it since 2.28, but Swift's Glibc module doesn't
    /// import it, so it is looked up by name.
    static func exchange(_ a: String, _ b: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE, from <linux/fs.h>
        guard let program = dlopen(nil, RTLD_NOW) else { return ENOSYS }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0 ? 0 : errno
    }

    /// Removes the `.NAME.building-PID`, `.NAME.old-PID` and `.NAME.removing-PID` folders that
    /// builds killed before they finished left beside `NAME`: those whose process no longer runs.
    /// A build still running for the same output keeps its folder. Each is renamed aside first,
    /// so a build that takes it for its staging folder at the same moment either has it whole
    /// or doesn't have it.
    static func removeLeftovers(of name: String, in parent: String) {
        let output = "\(parent)/\(name)"
        for entry in deadLeftovers(of: name, in: parent, kinds: ["building", "old", "removing"]) {
            removeAside("\(parent)/\(entry)", output: output)
        }
    }

    /// The names of the `.NAME.KIND-PID` entries in `parent`, for each of `kinds`, whose process
    /// no longer runs, in name order.
    static func deadLeftovers(of name: String, in parent: String, kinds: [String]) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        return entries.sorted().filter { entry in
            kinds.map { ".\(name).\($0)-" }.contains { prefix in
                guard entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0, pid != getpid() else {
                    return false
                }
                return kill(pid, 0) != 0 && errno == ESRCH
            }
        }
    }

    struct Failure: Error {
        var message: String
    }

    /// Writes every file under `folder`, linking the unchanged ones from `previous`; `made` holds
    /// the folders already made, and gets those this batch needed.
    ///
    /// In a `reused` folder (an earlier site) a file already holding the right bytes stays, and
    /// anything else at a file's or a folder's path is replaced: a file written beside it and
    /// renamed over it, a link to the previous site's file likewise, a file or link where a folder
    /// belongs removed.
    static func fill(
        _ folder: String, with files: [OutputFile], previous: String?, made: inout Set<String>, reused: Bool = false
    ) throws(Failure) -> Report {
        var stamped: [Entry]? = nil
        return try fill(folder, with: files, previous: previous, made: &made, reused: reused, stamped: &stamped)
    }

    /// The same, adding to `stamped` (when it is not nil) each file's path and metadata once it
    /// is in place (a link or a rename moves a file's ctime, so it is looked at after them), or
    /// setting it to nil when one can't be looked at. Folders in `existing` (the recorded
    /// spare's) are there already and are not made again. `spareAsRecorded`: `folder` is the
    /// spare, and every folder of it still has its recorded metadata (no entry was added,
    /// removed or renamed), so a kept file the spare's record holds (`Previous.inSpare`) is there.
    static func fill(
        _ folder: String, with files: [OutputFile], previous: String?, made: inout Set<String>, reused: Bool,
        existing: [PathKey: stat?] = [:], spareAsRecorded: Bool = false, stamped: inout [Entry]?
    ) throws(Failure) -> Report {
        // Each file's folders, found in its UTF-8 (`String.lastIndex(of:)` steps by characters:
        // a large rebuild's 37,000 kept files spent 1 % of its samples there); a file in the same
        // folder as the one before it, as most are, needs no look-up at all.
        var folders: Set<String> = []
        var lastFolder: [UInt8]? = nil
        for file in files {
            let utf8 = file.path.utf8
            let isLast = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return true }
                let own = UnsafeBufferPointer(rebasing: bytes[..<slash])
                if let last = lastFolder, last.count == own.count,
                    last.withUnsafeBufferPointer({ last in
                        guard let a = last.baseAddress, let b = own.baseAddress else { return own.isEmpty }
                        return memcmp(a, b, own.count) == 0
                    })
                {
                    return true
                }
                lastFolder = Array(own)
                return false
            }
            guard isLast != true, var end = utf8.lastIndex(of: UInt8(ascii: "/")) else { continue }
            while true {
                let path = String(Substring(file.path)[..<end])
                if made.contains(path) || !folders.insert(path).inserted { break }
                guard let up = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) else { break }
                end = up
            }
        }
        // Level by level, so a folder exists before the folders inside it; each level on every
        // core. Making folders is the slow part of writing where the file system hunts for free
        // inodes (ext4 without a journal skips those freed in the last minutes).
        var levels: [[String]] = []
        for path in folders {
            let depth = path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
            while levels.count <= depth { levels.append([]) }
            levels[depth].append(path)
        }
        for level in levels {
            _ = try Parallel.map(level.filter { existing.index(forKey: PathKey($0)) == nil }.sorted()) { (path: String) throws(Failure) in
                if let problem = makeFolder("\(folder)/\(path)") { throw Failure(message: problem) }
            }
            made.formUnion(level)
        }
        let workers = min(8, Parallel.workers)
        let results = Results(count: workers)
        let stamping = stamped != nil
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var report = Report(written: 0, unchanged: 0)
            var entries: [Entry]? = stamping ? [] : nil
            /// Records the file's metadata as it is now: `info` when the caller just took it, else `lstat`.
            func stamp(_ file: OutputFile, _ target: String, _ info: stat? = nil) {
                guard entries != nil else { return }
                if let info {
                    entries?.append((file.path, info))
                    return
                }
                var now = stat()
                if lstat(target, &now) == 0 { entries?.append((file.path, now)) } else { entries = nil }
            }
            for index in stride(from: worker, to: files.count, by: workers) {
                let file = files[index]
                if isLeftInPlace(file, reused: reused, spareAsRecorded: spareAsRecorded), let info = file.previous?.inSpare {
                    // Already in place, as the spare's record and the intact check found it:
                    // nothing to do but record it (most files of a rebuild).
                    report.unchanged += 1
                    if entries != nil { entries?.append((file.path, info)) }
                    continue
                }
                let target = "\(folder)/\(file.path)"
                if file.keepsPrevious {
                    report.unchanged += 1
                    switch keep(file.path, of: previous, in: folder, reused: reused, known: file.previous) {
                    case .failure(let problem):
                        results.fail(problem.message)
                        return
                    case .success(let info):
                        stamp(file, target, info)
                    }
                    continue
                }
                if let previous, let kept = identity(ifSame: file.contents, asFileAt: "\(previous)/\(file.path)") {
                    report.unchanged += 1
                    if let placed = place("\(previous)/\(file.path)", identified: kept, at: target, reused: reused) {
                        stamp(file, target, placed.known)
                        continue
                    }
                } else {
                    report.written += 1
                }
                if reused, let same = identity(ifSame: file.contents, asFileAt: target) {
                    stamp(file, target, same.info)
                    continue
                }
                if let problem = reused ? replace(target, with: file.contents) : writeFile(file.contents, to: target) {
                    results.fail(problem)
                    return
                }
                stamp(file, target)
            }
            results.set(worker, report, entries)
        }
        if let problem = results.failure { throw Failure(message: problem) }
        if stamping {
            for entries in results.entries {
                if let entries { stamped? += entries } else { stamped = nil }
            }
        }
        return results.reports.reduce(Report(written: 0, unchanged: 0)) {
            Report(written: $0.written + $1.written, unchanged: $0.unchanged + $1.unchanged)
        }
    }

    /// Puts the previous site's file at `path` into `folder`: left alone when it already is that
    /// file, else linked, else copied. The file's metadata where it is known without looking
    /// again (it was left alone), or what went wrong. `known` is the file's device and inode when
    /// the check that found it intact looked at them: it is then not looked at again (a large
    /// rebuild keeps 37,000 files).
    static func keep(
        _ path: String, of previous: String?, in folder: String, reused: Bool, known: OutputFile.Previous? = nil
    ) -> Result<stat?, Failure> {
        guard let previous else { return .failure(Failure(message: "\(folder)/\(path): no previous site to keep it from")) }
        let source = "\(previous)/\(path)", target = "\(folder)/\(path)"
        if let kept = known.map(FileIdentity.init) ?? identity(of: source),
            let placed = place(source, identified: kept, at: target, reused: reused)
        {
            return .success(placed.known)
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            return .failure(Failure(message: "\(source): cannot read the page to keep"))
        }
        let bytes = [UInt8](data)
        if let problem = reused ? replace(target, with: bytes) : writeFile(bytes, to: target) { return .failure(Failure(message: problem)) }
        return .success(nil)
    }

    /// How `place` put a file in.
    enum Placement {
        /// It already was that file: its metadata, as found.
        case alreadyThere(stat)
        /// Linked, which moves the file's ctime: look at it again.
        case linked

        /// The file's metadata where it is known without looking again.
        var known: stat? {
            if case .alreadyThere(let info) = self { return info }
            return nil
        }
    }

    /// Puts the previous site's file `source` (whose identity is `kept`) at `target` as a link:
    /// in a `reused` folder, left alone when it already is that file, else linked over what is
    /// there; in a fresh one, linked. nil when it didn't work (the caller writes the bytes).
    static func place(_ source: String, identified kept: FileIdentity, at target: String, reused: Bool) -> Placement? {
        if reused {
            if let there = identity(of: target), there == kept { return .alreadyThere(there.info) }
            return replace(target, withLinkTo: source) ? .linked : nil
        }
        return link(source, target) == 0 ? .linked : nil
    }

    /// Makes the folder at `path`, or keeps the folder there, or replaces the file or link there;
    /// nil, or what went wrong.
    static func makeFolder(_ path: String) -> String? {
        if mkdir(path, 0o755) == 0 { return nil }
        if errno == EEXIST {
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return nil }
            if unlink(path) == 0, mkdir(path, 0o755) == 0 { return nil }
        }
        return "\(path): \(String(cString: strerror(errno)))"
    }

    /// What tells two names of one file apart from two files: its device and inode (with the
    /// rest of its metadata, which equality ignores).
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var info: stat

        init(_ info: stat) {
            (device, inode, self.info) = (UInt64(info.st_dev), UInt64(info.st_ino), info)
        }

        /// A file known by its device and inode alone (`info` is then empty): only compared.
        init(_ file: OutputFile.Previous) {
            (device, inode, info) = (file.device, file.inode, stat())
        }

        static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }
    }

    /// The identity of the regular file at `path` (not following a link); nil for anything else.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(info)
    }

    /// Puts a link to the file at `source` at `target` in one step, replacing what is there.
    static func replace(_ target: String, withLinkTo source: String) -> Bool {
        let temporary = temporaryName(for: target)
        unlink(temporary)
        guard link(source, temporary) == 0 else { return false }
        let moved = moveReplacing(temporary, target)
        // `rename` does nothing when both names already lead to one file, and leaves the other.
        unlink(temporary)
        return moved == nil
    }

    /// Puts `bytes` at `target` in one step, replacing what is there; nil, or what went wrong.
    static func replace(_ target: String, with bytes: [UInt8]) -> String? {
        let temporary = temporaryName(for: target)
        unlink(temporary)
        if let problem = writeFile(bytes, to: temporary) {
            unlink(temporary)
            return problem
        }
        if let problem = moveReplacing(temporary, target) {
            unlink(temporary)
            return problem
        }
        return nil
    }

    /// Renames `source` over `target`, removing a folder that stands there first; nil, or what
    /// went wrong.
    private static func moveReplacing(_ source: String, _ target: String) -> String? {
        if rename(source, target) == 0 { return nil }
        if errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST {
            TreeRemoval.remove(target)
            if rename(source, target) == 0 { return nil }
        }
        return "\(target): \(String(cString: strerror(errno)))"
    }

    /// A name beside `target` for writing it: this process's, and no page's (the sweep at the end
    /// of a build removes one a killed build left).
    private static func temporaryName(for target: String) -> String {
        "\(target).prolific-tmp-\(getpid())"
    }

    /// The identity of the regular file at `path` if it holds exactly `bytes`, else nil.
    static func identity(ifSame bytes: [UInt8], asFileAt path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count else {
            return nil
        }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var old = [UInt8](repeating: 0, count: bytes.count)
        var done = 0
        while done < bytes.count {
            let n = old.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { return nil }
            done += n
        }
        // memcmp: `==` on two arrays compares them element by element.
        let same = old.withUnsafeBytes { a in
            bytes.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return same ? FileIdentity(info) : nil
    }

    /// Creates `path` with `bytes`; nil, or what went wrong.
    static func writeFile(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                return "\(path): \(String(cString: strerror(errno)))"
            }
            done += n
        }
        return nil
    }

    /// What the workers found, behind a lock.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var reports: [Report]
        private(set) var entries: [[Entry]?]
        private(set) var failure: String?

        init(count: Int) {
            reports = Array(repeating: Report(written: 0, unchanged: 0), count: count)
            entries = Array(repeating: [], count: count)
        }

        func set(_ worker: Int, _ report: Report, _ stamped: [Entry]?) {
            lock.withLock {
                reports[worker] = report
                entries[worker] = stamped
            }
        }
        func fail(_ message: String) { lock.withLock { if failure == nil { failure = message } } }
    }
}
