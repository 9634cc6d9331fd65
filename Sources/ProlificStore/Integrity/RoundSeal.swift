import Crypto
import ProlificCore

/// Seals closed rounds and checks the seals: the file side of `Seal` and `SealCheck`.
///
/// A round's sealed files are every regular file under its folder except `round.md` and hidden
/// (dot) names, found without following links (the loader refuses links anyway).
public struct RoundSeal: Sendable {
    public let layout: ContentLayout

    public init(layout: ContentLayout) {
        self.layout = layout
    }

    /// The seal of a round's folder as it is now, for `close` to record.
    public func seal(_ slug: Slug, _ number: RoundNumber) throws(Diagnostics) -> Seal {
        let files = try files(in: layout.roundFolder(slug, number))
        return Seal(digest: Self.sha256(Array(Seal.manifest(files).utf8)), files: files)
    }

    /// Every closed round's changes since its seal, as `check` reports them, and any difference
    /// between its recorded ballots and their files (`BallotRecordCheck`). Rounds without a seal
    /// (closed before seals existed) are not checked.
    ///
    /// A file whose digest is in `loaderDigests` is taken by it rather than read again; they must
    /// come from the load that gave `content`, so that the seal is tested against what it parsed.
    public func problems(in content: Content, loaderDigests: ReadDigests? = nil) -> [Diagnostic] {
        let found = Parallel.map(content.projects) { project in
            var problems: [Diagnostic] = []
            for round in project.rounds {
                guard let seal = round.seal else { continue }
                let folder = layout.roundFolder(project.slug, round.number)
                do throws(Diagnostics) {
                    let changes = SealCheck.changes(
                        seal, found: try files(in: folder, loaderDigests: loaderDigests),
                        manifestDigest: Self.sha256(Array(Seal.manifest(seal.files).utf8)))
                    problems += SealCheck.problems(changes, folder: folder, round: round)
                    problems += BallotRecordCheck.problems(
                        round, votesFolder: layout.votesFolder(project.slug, round.number),
                        reported: Set(changes.compactMap(\.path)))
                } catch {
                    problems += error.all
                }
            }
            return problems
        }
        return found.flatMap { $0 }
    }

    /// The files of a round folder with their hashes, sorted by path.
    func files(in folder: String, loaderDigests: ReadDigests? = nil) throws(Diagnostics) -> [Seal.File] {
        var files: [Seal.File] = []
        try collect(folder, prefix: "", loaderDigests: loaderDigests, into: &files)
        return files.sorted()
    }

    private func collect(
        _ folder: String, prefix: String, loaderDigests: ReadDigests?, into files: inout [Seal.File]
    ) throws(Diagnostics) {
        let entries: [FileSystem.Entry]
        do throws(FileSystem.Failure) { entries = try FileSystem.list(folder) ?? [] } catch {
            throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
        }
        let known = loaderDigests?.digests(in: folder) ?? [:]
        for entry in entries where !entry.name.hasPrefix(".") {
            let relative = prefix + entry.name
            switch entry.kind {
            case .file where relative != "round.md":
                if let digest = known[entry.name] {
                    files.append(Seal.File(path: relative, digest: digest))
                    continue
                }
                let bytes: [UInt8]
                do throws(FileSystem.Failure) { bytes = try FileSystem.readBytes("\(folder)/\(entry.name)") } catch {
                    throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
                }
                files.append(Seal.File(path: relative, digest: Self.sha256(bytes)))
            case .directory:
                try collect("\(folder)/\(entry.name)", prefix: relative + "/", loaderDigests: loaderDigests, into: &files)
            default:
                continue
            }
        }
    }

    /// Lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// Lowercase hex SHA-256 of `text`'s UTF-8 bytes: a file's, when `text` is all of it.
    static func sha256(text: String) -> String {
        var text = text
        return text.withUTF8 { hex(SHA256.hash(data: $0)) }
    }

    /// A digest in lowercase hex.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
