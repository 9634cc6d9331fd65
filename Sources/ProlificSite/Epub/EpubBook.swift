import Foundation
import ProlificCore
import ZIPFoundation

/// The EPUB download of every completed story, `projects/<slug>/<slug>.epub`.
struct EpubBooks {
    let site: SiteModel

    /// One book for each built project that is complete, in slug order. Every book is tried, so a
    /// build reports all of them that failed at once.
    func files() throws(Diagnostics) -> [OutputFile] {
        var files: [OutputFile] = []
        var problems: [Diagnostic] = []
        for project in site.built where site.isComplete(project) {
            let path = SitePath.epub(project)
            do {
                files.append(OutputFile(path: path, contents: try EpubBook(project: project, site: site).zip()))
            } catch {
                problems.append(
                    Diagnostic(path: project.origin.path, message: "cannot make the EPUB '\(path)': \(error)"))
            }
        }
        guard problems.isEmpty else { throw Diagnostics(problems) }
        return files
    }
}

/// One completed story as an EPUB 3 book.
///
/// It is made only of what the site already shows — the chapters, the players' names, cmark's
/// HTML — and nothing that changes between builds: its dates are when the story finished, never
/// the clock, and its identifier is a hash. The same story therefore gives the same bytes, and a
/// reader who downloads it again gets the same book rather than a second copy.
struct EpubBook {
    /// A chapter as the book shows it.
    struct Chapter {
        /// Its file beside `content.opf`, such as `chapter-0003.xhtml`; its stem is its manifest id.
        let file: String
        /// `Opening` or `Chapter 3`.
        let label: String
        let author: String
        /// The chapter's text as XHTML, safe to place in a document as it is.
        let xhtml: String
    }

    let title: String
    let siteTitle: String
    let identifier: String
    /// When the story's last round closed: `dcterms:modified` and the date of every zip entry.
    let finished: Timestamp
    let chapters: [Chapter]
    /// Everyone who wrote a chapter, by name, in the order of their first chapter, with the labels
    /// of the chapters they wrote.
    let contributors: [(name: String, chapters: [String])]

    init(project: Project, site: SiteModel) {
        title = Self.shown(project.title, else: project.slug.rawValue)
        siteTitle = site.config.title
        identifier = Self.identifier(of: site.config.baseURL + SitePath.pretty(SitePath.project(project.slug)))
        finished = site.finished(project)
        var handles: [Handle] = []
        var written: [Handle: [String]] = [:]
        chapters = Story(project).chapters.map { chapter in
            let label = chapter.round.map { "Chapter \($0.value)" } ?? "Opening"
            if written[chapter.author] == nil { handles.append(chapter.author) }
            written[chapter.author, default: []].append(label)
            return Chapter(
                file: chapter.round.map { "chapter-\($0.folderName).xhtml" } ?? "opening.xhtml",
                label: label, author: Self.shown(site.name(chapter.author), else: chapter.author.rawValue),
                xhtml: EpubXHTML.body(site.html(chapter.markdown)))
        }
        contributors = handles.map { handle in
            (Self.shown(site.name(handle), else: handle.rawValue), written[handle, default: []])
        }
    }

    /// The book's zip. `mimetype` comes first and stored, as the OCF spec requires so that a file's
    /// first bytes say what it is; the rest is deflated.
    func zip() throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        let date = Date(timeIntervalSince1970: TimeInterval(finished.secondsSinceEpoch))
        for entry in entries {
            let data = Data(entry.text.utf8)
            try archive.addEntry(
                with: entry.path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                permissions: 0o644, compressionMethod: entry.path == "mimetype" ? .none : .deflate
            ) { position, size in
                let start = min(data.count, Int(position))
                return data.subdata(in: start..<min(data.count, start + size))
            }
        }
        guard let data = archive.data else { throw MemoryFileError.invalidMemoryFile }
        return [UInt8](data)
    }

    /// A `urn:uuid:` that depends only on the story's address, so it survives rebuilds and edits.
    /// An RFC 9562 version 8 (custom) UUID from two 64-bit FNV-1a hashes of that address: stable
    /// across runs and platforms, and without a hashing dependency for a value that is no secret.
    static func identifier(of address: String) -> String {
        let halves = [NeutralOrder.fnv1a("epub 1 " + address), NeutralOrder.fnv1a("epub 2 " + address)]
        var bytes = halves.flatMap { half in (0..<8).map { UInt8(truncatingIfNeeded: half >> (56 - 8 * $0)) } }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }
        return "urn:uuid:" + groups.joined(separator: "-")
    }

    /// `text`, or `fallback` when nothing of it would show (EPUB requires a title and names).
    static func shown(_ text: String, else fallback: String) -> String {
        XML.escape(text).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? fallback : text
    }
}
