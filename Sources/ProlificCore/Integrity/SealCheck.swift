/// Compares a closed round's seal with the files its folder holds now.
///
/// Pure: the caller lists and hashes the files (`RoundSeal` in the store) and hashes the recorded
/// manifest; this decides what changed and says so about each file by name.
public enum SealCheck {
    /// One difference between the seal and the folder.
    public enum Change: Hashable, Sendable {
        /// A file that was not there when the round closed (a warning: see `problems`).
        case added(String)
        /// A sealed file whose bytes differ now.
        case changed(String)
        /// A sealed file that is gone.
        case removed(String)
        /// The list in round.md no longer matches its own digest: it was edited by hand.
        case listEdited

        /// The file's path inside the round's folder; nil for the list itself.
        public var path: String? {
            switch self {
            case .added(let path), .changed(let path), .removed(let path): path
            case .listEdited: nil
            }
        }
    }

    /// Every difference, in path order; empty when the folder is as it was closed.
    ///
    /// - Parameters:
    ///   - seal: what round.md records.
    ///   - found: the files in the round folder now, with their hashes.
    ///   - manifestDigest: the SHA-256 of `Seal.manifest(seal.files)`, computed by the caller.
    public static func changes(_ seal: Seal, found: [Seal.File], manifestDigest: String) -> [Change] {
        var changes: [Change] = manifestDigest == seal.digest ? [] : [.listEdited]
        let recorded = Dictionary(seal.files.map { ($0.path, $0.digest) }, uniquingKeysWith: { first, _ in first })
        let present = Dictionary(found.map { ($0.path, $0.digest) }, uniquingKeysWith: { first, _ in first })
        for path in Set(recorded.keys).union(present.keys).sorted() {
            switch (recorded[path], present[path]) {
            case (nil, _?): changes.append(.added(path))
            case (_?, nil): changes.append(.removed(path))
            case (let old?, let new?) where old != new: changes.append(.changed(path))
            default: break
            }
        }
        return changes
    }

    /// The problems `check` reports about a round whose folder is `folder`, one per change.
    public static func problems(_ changes: [Change], folder: String, round: Round) -> [Diagnostic] {
        let closed = round.closed.map { " on \($0)" } ?? ""
        func sealed(_ path: String) -> [Diagnostic.Note] {
            let listed = round.seal?.files.first { $0.path == path }?.position
            return [
                Diagnostic.Note(
                    path: round.origin.path, position: listed ?? round.origin.position(of: "sealed"),
                    message: "sealed here when the round closed")
            ]
        }
        return changes.map { change in
            switch change {
            case .added(let path):
                // A warning: a stale pull request merged after the close adds a file the tally
                // never saw; it changes nothing recorded (a ballot that would have changed the
                // result fails the re-tally as an error), and removing it restores the round.
                Diagnostic(
                    severity: .warning, path: "\(folder)/\(path)",
                    message: "added after round \(round.number) closed\(closed): it is not part of the sealed round")
            case .changed(let path):
                Diagnostic(path: "\(folder)/\(path)", message: "changed after round \(round.number) closed\(closed): it no longer matches the SHA-256 sealed in round.md",
                    notes: sealed(path))
            case .removed(let path):
                Diagnostic(path: "\(folder)/\(path)", message: "removed after round \(round.number) closed\(closed); it is sealed in round.md", notes: sealed(path))
            case .listEdited:
                round.origin.error(at: "sealed", "the sealed file list was edited: it no longer matches its sha256")
            }
        }
    }
}
