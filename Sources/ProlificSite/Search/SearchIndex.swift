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
        // On every core, in order: rendering 2,000 openings and 5,000 bios was left to one
        // core at the end of a rebuild after a `close`, when all else was done.
        let stories = Parallel.map(site.listed, batch: 32) { project in
            let story = Story(project)
            var authors: [String] = []
            for chapter in story.chapters where !authors.contains(site.name(chapter.author)) {
                authors.append(site.name(chapter.author))
            }
            return Entry(
                kind: site.isComplete(project) ? "Completed story" : "Story in progress", title: project.title,
                url: SitePath.project(project.slug), tags: project.tags, authors: authors,
                text: Self.plain(chapters: story.chapters.lazy.map { site.html($0.markdown) }))
        }
        let players = Parallel.map(site.users, batch: 64) { user in
            Entry(
                kind: "Player", title: user.name, url: SitePath.user(user.handle), tags: [],
                authors: ["@" + user.handle.rawValue], text: Self.plain(site.html(user.bio)))
        }
        return stories + players
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
        OutputFile(path: SitePath.searchIndex, contents: Self.json(entries()))
    }

    /// `entries` as JSON, byte for byte what `JSONEncoder` writes with sorted keys and slashes
    /// unescaped (a test compares the two): written straight into bytes, it took a tenth of the
    /// encoder's time, which a rebuild after a `close` spent on one core at its end.
    static func json(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(2) { $0 + 64 + $1.text.utf8.count + $1.title.utf8.count + $1.url.utf8.count })
        out.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += #"{"authors":["#.utf8
            list(entry.authors, into: &out)
            out += #"],"kind":"#.utf8
            string(entry.kind, into: &out)
            out += #","tags":["#.utf8
            list(entry.tags, into: &out)
            out += #"],"text":"#.utf8
            string(entry.text, into: &out)
            out += #","title":"#.utf8
            string(entry.title, into: &out)
            out += #","url":"#.utf8
            string(entry.url, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private static func list(_ strings: [String], into out: inout [UInt8]) {
        for (index, text) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(text, into: &out)
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\b`, `\t`, `\n`, `\f`, `\r`
    /// or `\u00xx`, everything else as it is.
    private static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape, nearly all of a text, are copied whole.
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                escape(byte, into: &out)
                run = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        switch byte {
        case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        default: out += [UInt8(ascii: "\\"), byte]
        }
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
