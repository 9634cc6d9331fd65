#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore
import Synchronization

/// The metadata of an inventory's regular files, looked at in order, ahead of a build's asking
/// (`FileInventory.intactEntries`), in the moments a core would otherwise be idle
/// (`Parallel.whenIdle`).
///
/// A rebuild of the large benchmark after a `close` asks, as its pages are rendered, whether each
/// of the site's 37,000 files is still the one recorded: 98–103 of its 1,088–1,146 `perf` samples
/// (fifty-seventh session), on the two cores the pages keep busy. Yet a fifth of the two cores'
/// time went idle, in short stretches from the load's tail to the end. Looked at from the load
/// on, on a thread the kernel runs only in such stretches, most of the files are known by the
/// time their pages ask; the others are looked at by the page, as before. Fifty-eighth session,
/// two such rebuilds: the look-ahead took 56 and 60 samples, nearly all in the load's tail and
/// the model, and the pages' own checks fell to 11 and 17.
final class LookAhead: @unchecked Sendable {
    /// What the look-ahead found of an entry.
    enum Look {
        /// There and as recorded, with its metadata.
        case intact(stat)
        /// Changed, gone, or of another kind.
        case changed
        /// Not looked at yet, or not at all (a folder, a link, a racy entry).
        case notYet
    }

    private let count: Int
    private let infos: UnsafeMutablePointer<stat>
    /// 1: intact, its metadata in `infos`; 2: changed; 0: not looked at.
    private let states: UnsafeMutablePointer<UInt8>
    /// The entries before this one are looked at: written after their states and metadata,
    /// with release ordering, so that a reader that sees it sees them.
    private let reached = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(count: Int) {
        self.count = count
        infos = .allocate(capacity: max(count, 1))
        states = .allocate(capacity: max(count, 1))
        states.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        infos.deallocate()
        states.deallocate()
    }

    /// A look-ahead over the entries of `paths` (each followed by a NUL; entry 0, the root, is
    /// left out) recorded with `stamps`, under `folder`, started on an idle-time thread; nil
    /// when the folder isn't open or no such thread can be had.
    static func start(paths: [UInt8], stamps: [FileInventory.Stamp], in folder: FileInventory.OpenFolder) -> LookAhead? {
        guard folder.isOpen else { return nil }
        let ahead = LookAhead(count: stamps.count)
        return Parallel.whenIdle { ahead.run(paths: paths, stamps: stamps, in: folder) } ? ahead : nil
    }

    /// What was found of `entry`, if it was looked at.
    func look(_ entry: Int) -> Look {
        guard entry >= 0, entry < reached.load(ordering: .acquiring) else { return .notYet }
        switch states[entry] {
        case 1: return .intact(infos[entry])
        case 2: return .changed
        default: return .notYet
        }
    }

    /// Ends the look-ahead at its next step: nothing asks any more.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Looks at every regular file of `paths`, in order, until stopped.
    func run(paths: [UInt8], stamps: [FileInventory.Stamp], in folder: FileInventory.OpenFolder) {
        let file = Int64(S_IFREG)
        // Published every few entries: each publication is a store other cores must see.
        let step = 32
        var entry = 0, start = 0, isStopped = stopped.load(ordering: .relaxed)
        paths.withUnsafeBufferPointer { bytes in
            // Once stopped, the rest of the paths are only passed over.
            FileInventory.forEachNUL(in: bytes) { end in
                defer { (entry, start) = (entry + 1, end + 1) }
                guard !isStopped, entry < count, let base = bytes.baseAddress else { return }
                let stamp = stamps[entry]
                if entry > 0, stamp.kind == file {
                    var info = stat()
                    let found = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: end - start + 1) {
                        folder.metadata(ofCString: $0, into: &info)
                    }
                    if found, FileInventory.Stamp(info) == stamp {
                        infos[entry] = info
                        states[entry] = 1
                    } else {
                        states[entry] = 2
                    }
                }
                if (entry + 1) % step == 0 {
                    reached.store(entry + 1, ordering: .releasing)
                    isStopped = stopped.load(ordering: .relaxed)
                }
            }
        }
        if !isStopped { reached.store(min(entry, count), ordering: .releasing) }
    }

    /// Holds a look-ahead for the closure that asks it, and stops it when the closure is let go.
    final class Holder: Sendable {
        let lookAhead: LookAhead

        init(_ lookAhead: LookAhead) { self.lookAhead = lookAhead }

        deinit { lookAhead.stop() }
    }
}
