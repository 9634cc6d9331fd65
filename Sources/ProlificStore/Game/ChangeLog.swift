import Foundation

/// The files a game's actions wrote or removed, in order, each once.
///
/// `--commit` stages exactly these paths, so a commit never sweeps in someone's unrelated edits.
/// Every write of an action goes through `Game.write` or `Game.create`, which record here; an
/// action that removes a file records it itself. A class, because `Game` is a value shared by the
/// actions and the command that commits after them; the lock makes it safe to share.
public final class ChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    public init() {}

    /// Notes that the file or folder at `path` was written or removed.
    public func record(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if !recorded.contains(path) { recorded.append(path) }
    }

    /// Every path recorded, as the actions named them (under the content directory).
    public var paths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
