import Foundation
import ProlificCore

/// `search.json`: what the search page's script looks through, one entry per listed story and
/// per player: title, address, tags, authors and the start of the text.
///
/// The text is plain (tags stripped from the rendered Markdown) and cut at `textLimit`
/// characters, so the index stays small enough to fetch on a phone.
struct SearchIndex {
    let site: SiteModel
    static let textLimit = 600

    struct Entry: Encodable {
        var kind: String
        var title: String
        var url: String
        var tags: [String]
        var authors: [String]
        var text: String
    }

    func entries() -> [Entry] {
        // A story whose opening is short is read on into its chapters: a kept project's are made
        // only when asked for (`SnippetText`), so they are made first, on every core.
        _ = Parallel.map(site.listed.filter { $0.starter.utf8.count < 2 * Self.textLimit }) { $0.makeDeferredTexts() }
        var entries: [Entry] = []
        for project in site.listed {
            let story = Story(project)
            var authors: [String] = []
            for chapter in story.chapters where !authors.contains(site.name(chapter.author)) {
                authors.append(site.name(chapter.author))
            }
            entries.append(
                Entry(
                    kind: site.isComplete(project) ? "Completed story" : "Story in progress", title: project.title,
                    url: SitePath.project(project.slug), tags: project.tags, authors: authors,
                    text: Self.plain(chapters: story.chapters.lazy.map { site.html($0.markdown) })))
        }
        for user in site.users {
            entries.append(
                Entry(
                    kind: "Player", title: user.name, url: SitePath.user(user.handle), tags: [],
                    authors: ["@" + user.handle.rawValue], text: Self.plain(site.html(user.bio))))
        }
        return entries
    }

    /// The index, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact.
    func file(memory: PageMemory?) -> OutputFile {
        guard let inputs = inputs() else { return file() }
        let fingerprint = PageFingerprint.of(template: SitePath.searchIndex, inputs: inputs, theme: [])
        if let kept = memory?.kept(SitePath.searchIndex, fingerprint) { return kept }
        var file = file()
        file.fingerprint = fingerprint
        return file
    }

    /// What `entries()` is a function of, apart from the binary: the files of each listed
    /// project (`SiteModel.keysBesideBallots`), the names of the players its story credits (its owner
    /// and its rounds' winners), each player's handle, name and bio, and libcmark's version.
    /// Texts are read as written, images and all, so media don't matter. nil when a project
    /// has no key.
    func inputs() -> PageInputs? {
        var inputs = PageInputs()
        inputs.add(Markdown.version)
        inputs.list(site.listed.count)
        // Read in place, by index: copies of the projects and rounds retained all they hold.
        let listed = site.listed
        for p in listed.indices {
            guard let files = site.keysBesideBallots[listed[p].slug] else { return nil }
            inputs.add(files)
            var credited = [listed[p].owner]
            for r in listed[p].rounds.indices {
                if let winner = listed[p].rounds[r].winnerAuthor { credited.append(winner) }
            }
            inputs.list(credited.count)
            for handle in credited { inputs.add(site.names[handle]) }
        }
        inputs.list(site.users.count)
        for user in site.users {
            inputs.add(user.handle.rawValue)
            inputs.add(user.name)
            inputs.add(user.bio)
        }
        return inputs
    }

    /// What this reads must be in `inputs()`, or a rebuild keeps a stale index.
    func file() -> OutputFile {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(entries())) ?? Data("[]".utf8)
        return OutputFile(path: SitePath.searchIndex, contents: Array(data))
    }

    /// Rendered HTML as plain text: tags dropped, the entities cmark writes decoded, spaces
    /// collapsed, cut at a word boundary near `textLimit` characters. Works on UTF-8 bytes and stops
    /// reading once the text is long enough: stories are long, the index keeps their start.
    static func plain(_ html: String) -> String {
        plain(chapters: CollectionOfOne(html))
    }

    /// The plain text of `chapters` joined by spaces, as `plain(_:)` reads one text; chapters
    /// past the point where the text is long enough are never asked for (nor rendered).
    static func plain(chapters: some Sequence<String>) -> String {
        var words: [[UInt8]] = []
        var word: [UInt8] = []
        var length = 0
        var inTag = false
        var entity: [UInt8]? = nil
        func endWord() {
            guard !word.isEmpty else { return }
            length += (words.isEmpty ? 0 : 1) + String(decoding: word, as: UTF8.self).count
            words.append(word)
            word = []
        }
        /// Reads one byte; false once the text is long enough.
        func read(_ byte: UInt8) -> Bool {
            if length > textLimit { return false }
            if var pending = entity {
                pending.append(byte)
                if byte == UInt8(ascii: ";") || pending.count > 6 {
                    word += decode(pending)
                    entity = nil
                } else {
                    entity = pending
                }
                return true
            }
            switch byte {
            case UInt8(ascii: "<"): inTag = true
            case UInt8(ascii: ">") where inTag:
                inTag = false
                endWord()
            case _ where inTag: break
            case UInt8(ascii: "&"): entity = [byte]
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): endWord()
            default: word.append(byte)
            }
            return true
        }
        var first = true
        scan: for html in chapters {
            if !first, !read(UInt8(ascii: " ")) { break scan }
            first = false
            for byte in html.utf8 where !read(byte) { break scan }
        }
        if let pending = entity { word += pending }
        endWord()
        var out = ""
        for bytes in words {
            let text = String(decoding: bytes, as: UTF8.self)
            let needed = text.count + 1
            // Characters never outnumber bytes: only near the limit are they counted.
            if out.utf8.count + needed > textLimit, out.count + needed > textLimit { return out + "…" }
            if !out.isEmpty { out += " " }
            out += text
        }
        return out
    }

    /// `&amp;` → `&`; an entity cmark doesn't write stays as it is.
    static func decode(_ entity: [UInt8]) -> [UInt8] {
        switch String(decoding: entity, as: UTF8.self) {
        case "&amp;": Array("&".utf8)
        case "&lt;": Array("<".utf8)
        case "&gt;": Array(">".utf8)
        case "&quot;": Array("\"".utf8)
        case "&#39;": Array("'".utf8)
        default: entity
        }
    }
}
