import Foundation
import ProlificCore
import Synchronization
import ZIPFoundation

#if canImport(CZlib)
    import CZlib
#endif

/// The EPUB download of every completed story, `projects/<slug>/<slug>.epub`.
struct EpubBooks {
    let site: SiteModel

    /// One book for each built project that is complete, in slug order: a site whose stories
    /// are mostly complete has as many books as projects. A book whose inputs are those the last
    /// build recorded (`memory`) keeps the previous site's file. The others are made on every
    /// core, 256 at a time, then zipped one by one (see `EpubBook.zip`; zipping is a fifth of a
    /// book's cost). Every book is tried, so a build reports all of them that failed at once.
    func files(memory: PageMemory? = nil) throws(Diagnostics) -> [OutputFile] {
        enum Made {
            case kept(OutputFile)
            case book(EpubBook, path: String, fingerprint: [UInt8]?)
        }
        let complete = site.built.indices.filter { site.isComplete(site.built[$0]) }
        var files: [OutputFile] = []
        var problems: [Diagnostic] = []
        for start in stride(from: 0, to: complete.count, by: 256) {
            let batch = Array(complete[start..<min(complete.count, start + 256)])
            let made = Parallel.map(batch) { p -> Made in
                let project = site.built[p]
                let path = SitePath.epub(project)
                let fingerprint = inputs(of: project).map { PageFingerprint.of(template: "book.epub", inputs: $0, theme: []) }
                if let kept = memory?.kept(path, fingerprint) { return .kept(kept) }
                return .book(EpubBook(project: project, site: site), path: path, fingerprint: fingerprint)
            }
            for (p, book) in zip(batch, made) {
                switch book {
                case .kept(let file):
                    files.append(file)
                case .book(let book, let path, let fingerprint):
                    do {
                        files.append(OutputFile(path: path, contents: try book.zip(), fingerprint: fingerprint))
                    } catch {
                        problems.append(
                            Diagnostic(path: site.built[p].origin.path, message: "cannot make the EPUB '\(path)': \(error)"))
                    }
                }
            }
        }
        guard problems.isEmpty else { throw Diagnostics(problems) }
        return files
    }

    /// What `EpubBook(project:site:)` and its zip are a function of, apart from the binary: the
    /// site's title and address, the project's files (its title, its chapters, when it
    /// finished), libcmark's version, the deflate library's (the system's zlib: an upgrade may
    /// deflate the same text to other bytes) and the name of each player who wrote a chapter, or
    /// their having none. A book uses no template: its fingerprint leaves the theme out. Media
    /// files are not among them: a book shows an image as its alt text and keeps only web links.
    /// nil (the book is made at every build) without a key for the project's files.
    func inputs(of project: Project) -> PageInputs? {
        guard let files = site.keysBesideBallots[project.slug] else { return nil }
        var inputs = PageInputs()
        inputs.add(site.config.title)
        inputs.add(site.config.baseURL)
        inputs.add(SitePath.epub(project))
        inputs.add(files)
        inputs.add(Markdown.version)
        inputs.add(EpubBook.deflateVersion)
        let authors = Story(project).chapters.map(\.author)
        inputs.list(authors.count)
        for author in authors {
            inputs.add(author.rawValue)
            inputs.add(site.names[author])
        }
        return inputs
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
        finished = SiteModel.finished(project)
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
    ///
    /// One book is zipped at a time: ZIPFoundation spells each entry's date with `gmtime`,
    /// whose result is shared by every thread, so two books zipped at once could swap their
    /// dates (seen on a site of 500 complete stories). Anything else in the process that writes
    /// a zip with ZIPFoundation must hold the same lock (`withZipLock`).
    func zip() throws -> [UInt8] {
        try Self.withZipLock { try zipAlone() }
    }

    private static let zipping = Mutex(())

    /// Runs `body` while no book is being zipped (see `zip`).
    static func withZipLock<T>(_ body: () throws -> T) rethrows -> T {
        try zipping.withLock { _ in try body() }
    }

    /// The deflate library a book's zip is made with, as the running process has it.
    static let deflateVersion: String = {
        #if canImport(CZlib)
            "zlib " + String(cString: zlibVersion())
        #else
            "platform compression"
        #endif
    }()

    private func zipAlone() throws -> [UInt8] {
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
