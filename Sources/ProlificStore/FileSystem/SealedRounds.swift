import ProlificCore

/// The closed rounds whose seal vouches for their files, so that a build checks those files by
/// their folders' times alone (`vouchesFor`).
///
/// A sealed round's files can't change without `check` reporting it: round.md records the
/// SHA-256 of every file in the round's folder but itself and dot files (`RoundSeal`). Whatever
/// replaces, adds, removes or renames such a file (git, `prolific`, rsync, `sed -i`, most editors)
/// moves its folder's times, which are still stat-ed; only an edit in place leaves them, and that
/// is tampering with a closed round. Stat-ing the 280,000 files of the large benchmark's 18,000
/// closed rounds was two thirds of a build that found nothing to do. The decision is written down
/// in `docs/maintaining.md` ("Publishing"). A build with anything else to do still stats every
/// file of the projects it keeps (`RecordedParts`), so it reads such an edit.
public struct SealedRounds: Sendable, Equatable {
    /// Each sealed round's folder under `projects/`: `<slug>/rounds/<NNNN>`.
    private let folders: Set<[UInt8]>

    /// No round vouched for: every file is stat-ed.
    public static let none = SealedRounds(roundFolders: [])

    /// The rounds whose folders are `roundFolders`, each `<slug>/rounds/<NNNN>` under `projects/`.
    init(roundFolders: some Sequence<String>) {
        folders = Set(roundFolders.map { Array($0.utf8) })
    }

    /// The rounds of `content` that have a seal: closed by a `close` that recorded one.
    public init(_ content: Content) {
        self.init(
            roundFolders: content.projects.flatMap { project in
                project.rounds.filter { $0.seal != nil && $0.closed != nil }.map { "\(project.slug)/rounds/\($0.number.folderName)" }
            })
    }

    public var count: Int { folders.count }

    /// Whether the file at `path` (relative to the content directory, without a NUL) is one a
    /// round's seal covers: `projects/<slug>/rounds/<NNNN>/…` of a sealed round, not its
    /// `round.md`, and no part of it a dot name. Such a file's own metadata need not be checked
    /// while its folders' is unchanged. Folders are never vouched for.
    ///
    /// `last` keeps the round the previous call found: a round's entries come one after another.
    func vouchesFor(_ path: UnsafeBufferPointer<UInt8>, last: inout (round: [UInt8], sealed: Bool)) -> Bool {
        guard !folders.isEmpty, path.starts(with: Self.projects) else { return false }
        // `<slug>/rounds/<NNNN>`: up to the third slash after `projects/`.
        var slashes = 0, end = Self.projects.count
        while end < path.count {
            if path[end] == Self.slash {
                slashes += 1
                if slashes == 3 { break }
            }
            end += 1
        }
        guard slashes == 3 else { return false }
        let round = UnsafeBufferPointer(rebasing: path[Self.projects.count..<end])
        if !round.elementsEqual(last.round) {
            let key = Array(round)
            last = (key, folders.contains(key))
        }
        guard last.sealed else { return false }
        let rest = UnsafeBufferPointer(rebasing: path[(end + 1)...])
        guard !rest.isEmpty, !rest.elementsEqual(Self.roundFile), rest.first != Self.dot else { return false }
        // No dot name deeper down (`images/.thumbs/…`): the seal leaves those out.
        for index in rest.indices.dropLast() where rest[index] == Self.slash && rest[index + 1] == Self.dot {
            return false
        }
        return true
    }

    private static let projects = Array("projects/".utf8)
    private static let roundFile = Array("round.md".utf8)
    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
}
