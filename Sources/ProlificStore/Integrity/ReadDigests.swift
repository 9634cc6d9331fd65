import ProlificCore
import Synchronization

/// The SHA-256 of each snippet and ballot of a sealed round the reader read, so that `check`
/// tests the seals against the bytes it parsed instead of opening and reading all of them a
/// second time (on the large bench content, 280,000 files: the second read was an eighth of
/// `check`'s CPU).
///
/// A file is recorded once it is read as text, whether or not it then parses: a seal covers
/// bytes, not meaning. `RoundSeal` reads any file it finds no digest for: images, files named
/// as no snippet or ballot is, and files that couldn't be read as text (a NUL byte, invalid
/// UTF-8, too big). Kept by folder, each folder's recorded at once, as the loading threads
/// finish it: one lock and one small table a folder rather than a table of every file.
public final class ReadDigests: Sendable {
    private let folders = Mutex<[String: [String: String]]>([:])

    public init() {}

    /// Records the digests of the files read in `folder`, by name: all of them at once.
    func record(_ digests: [String: String], in folder: String) {
        guard !digests.isEmpty else { return }
        folders.withLock { $0[folder] = digests }
    }

    /// The digests of the files read in `folder`, by name (empty when none was).
    func digests(in folder: String) -> [String: String] {
        folders.withLock { $0[folder] ?? [:] }
    }
}
