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

    /// One entry to make: a listed project's story or a player, by index into `site.listed` or
    /// `site.users`. Stories come first, then players, in the model's orders.
    enum Item {
        case story(Int)
        case player(Int)
    }

    var items: [Item] { site.listed.indices.map(Item.story) + site.users.indices.map(Item.player) }

    func entries() -> [Entry] { entries(items) }

    /// The entries of `items`, in order, made on every core.
    func entries(_ items: [Item]) -> [Entry] {
        // A story whose opening is short is read on into its chapters: a kept project's are made
        // only when asked for (`SnippetText`), so they are made first, on every core.
        let readOn = items.compactMap { item -> Project? in
            guard case .story(let p) = item, site.listed[p].starter.utf8.count < 2 * Self.textLimit else { return nil }
            return site.listed[p]
        }
        _ = Parallel.map(readOn) { $0.makeDeferredTexts() }
        // On every core, in order: rendering 2,000 openings and 5,000 bios was left to one
        // core at the end of a rebuild after a `close`, when all else was done.
        return Parallel.map(items, batch: 32) { entry($0) }
    }

    func entry(_ item: Item) -> Entry {
        switch item {
        case .story(let p):
            let project = site.listed[p]
            let story = Story(project)
            var authors: [String] = []
            for chapter in story.chapters where !authors.contains(site.name(chapter.author)) {
                authors.append(site.name(chapter.author))
            }
            return Entry(
                kind: site.isComplete(project) ? "Completed story" : "Story in progress", title: project.title,
                url: SitePath.project(project.slug), tags: project.tags, authors: authors,
                text: Self.plain(chapters: story.chapters.lazy.map { site.html($0.markdown) }))
        case .player(let u):
            let user = site.users[u]
            return Entry(
                kind: "Player", title: user.name, url: SitePath.user(user.handle), tags: [],
                authors: ["@" + user.handle.rawValue], text: Self.plain(site.html(user.bio)))
        }
    }

    /// How many entries, one after the other, are recorded under one key (`runKeys`).
    static let runLength = 16

    /// The index, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact.
    ///
    /// Otherwise, a run of entries whose key is the one the last build recorded is copied from
    /// the previous site's file, and only the other runs are made: after a `close`, or a pull
    /// request merged, one story's entry changes, and making all 7,000 of a large game's (every
    /// story's opening and player's bio rendered and read as plain text) was 6–7 % of the
    /// rebuild's `perf` samples.
    ///
    /// A run with no key (a story whose project has none: its files changed too recently to
    /// vouch for, as `close` leaves them when `build` follows at once) is made and not recorded;
    /// the others are still copied. Before, one such project had every entry made again: the
    /// search index was 14 % of a rebuild right after a `close`.
    func file(memory: PageMemory?, runLength: Int = Self.runLength) -> OutputFile {
        let items = self.items
        let runs = runKeys(of: items, length: runLength)
        var records: [OutputFile.Record] = []
        for (run, key) in runs.enumerated() {
            if let key { records.append(OutputFile.Record(path: SitePath.searchIndexRun(run), fingerprint: key)) }
        }
        var fingerprint: [UInt8]?
        if records.count == runs.count {
            var whole = PageInputs()
            whole.list(runs.count)
            for record in records { whole.add(record.fingerprint[...]) }
            fingerprint = PageFingerprint.of(template: SitePath.searchIndex, inputs: whole, theme: [])
        }
        if let fingerprint, var kept = memory?.kept(SitePath.searchIndex, fingerprint) {
            kept.alsoRecorded = records
            return kept
        }
        let recorded = runs.indices.filter { run in
            guard let key = runs[run] else { return false }
            return memory?.fingerprints[SitePath.searchIndexRun(run)] == key
        }
        var previous: (bytes: [UInt8], entries: [Range<Int>])?
        if !recorded.isEmpty, let bytes = memory?.previousContents(SitePath.searchIndex), let entries = Self.entryRanges(bytes) {
            previous = (bytes, entries)
        }
        // A run is copied when the previous file has as many entries as its key says it had.
        var copied = [Bool](repeating: false, count: runs.count)
        if let previous {
            for run in recorded where Self.span(run, of: items.count, length: runLength).upperBound <= previous.entries.count {
                copied[run] = true
            }
        }
        let made = entries(runs.indices.filter { !copied[$0] }.flatMap { items[Self.span($0, of: items.count, length: runLength)] })
        var out: [UInt8] = [UInt8(ascii: "[")]
        var next = made.startIndex
        for run in runs.indices {
            for index in Self.span(run, of: items.count, length: runLength) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if copied[run], let previous {
                    out += previous.bytes[previous.entries[index]]
                } else {
                    Self.json(made[next], into: &out)
                    next += 1
                }
            }
        }
        out.append(UInt8(ascii: "]"))
        var file = OutputFile(path: SitePath.searchIndex, contents: out, fingerprint: fingerprint)
        file.alsoRecorded = records
        return file
    }

    /// Where run number `run` of `length` entries is among `count` entries (the last one may be
    /// short).
    private static func span(_ run: Int, of count: Int, length: Int) -> Range<Int> {
        run * length..<min(count, (run + 1) * length)
    }

    /// The key of each run of `length` entries: what they are a function of, apart from the
    /// binary (libcmark's version; each story's project (its slug and files,
    /// `SiteModel.keysBesideBallots`) and the names of the players it credits, its owner and its
    /// rounds' winners; each player's handle, name and bio). Texts are read as written, images
    /// and all, so media don't matter. A run's key is nil when a story in it has a project with
    /// no key.
    func runKeys(of items: [Item], length: Int) -> [[UInt8]?] {
        // Read in place, by index: copies of the projects and rounds retained all they hold.
        let listed = site.listed
        var keys: [[UInt8]?] = []
        keys.reserveCapacity(items.count / length + 1)
        runs: for start in stride(from: 0, to: items.count, by: length) {
            let run = items[start..<min(items.count, start + length)]
            var inputs = PageInputs()
            inputs.add(Markdown.version)
            inputs.list(run.count)
            for item in run {
                switch item {
                case .story(let p):
                    guard let files = site.keysBesideBallots[listed[p].slug] else {
                        keys.append(nil)
                        continue runs
                    }
                    inputs.add(listed[p].slug.rawValue)
                    inputs.add(files)
                    var credited = [listed[p].owner]
                    for r in listed[p].rounds.indices {
                        if let winner = listed[p].rounds[r].winnerAuthor { credited.append(winner) }
                    }
                    inputs.list(credited.count)
                    for handle in credited { inputs.add(site.names[handle]) }
                case .player(let u):
                    inputs.add(site.users[u].handle.rawValue)
                    inputs.add(site.users[u].name)
                    inputs.add(site.users[u].bio)
                }
            }
            keys.append(PageFingerprint.of(template: "search-run", inputs: inputs, theme: []))
        }
        return keys
    }

    /// What this reads must be in `runKeys(of:length:)`, or a rebuild keeps a stale index.
    func file() -> OutputFile {
        OutputFile(path: SitePath.searchIndex, contents: Self.json(entries()))
    }

    /// Where each entry is in an index `json` wrote, in order; nil when `bytes` is not one.
    static func entryRanges(_ bytes: [UInt8]) -> [Range<Int>]? {
        bytes.withUnsafeBufferPointer { bytes -> [Range<Int>]? in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]") else { return nil }
            var ranges: [Range<Int>] = []
            var index = 1
            guard bytes.count > 2 else { return ranges }
            while true {
                guard bytes[index] == UInt8(ascii: "{") else { return nil }
                let start = index
                var depth = 0
                var inString = false
                repeat {
                    if inString {
                        // To the string's closing quote: the next quote after an even run of
                        // backslashes (an odd run escapes it), found by `memchr`. Byte by byte,
                        // this loop took about 10 ms of CPU in a large rebuild after a `close` (3 MB).
                        guard let closing = Self.closingQuote(in: bytes, from: index, before: bytes.count - 1) else { return nil }
                        index = closing + 1
                        inString = false
                        continue
                    }
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") {
                        inString = true
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        depth -= 1
                    }
                } while depth > 0 && index < bytes.count - 1
                guard depth == 0, index < bytes.count else { return nil }
                ranges.append(start..<index)
                if bytes[index] == UInt8(ascii: "]") { return index == bytes.count - 1 ? ranges : nil }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
                guard index < bytes.count - 1 else { return nil }
            }
        }
    }

    /// Where the string whose text starts at `start` ends: its first quote before `end` that
    /// follows an even run of backslashes (counted back to `start`); nil when there is none.
    private static func closingQuote(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var from = start
        while from < end, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), end - from) {
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return nil
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
            json(entry, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// One entry as `json(_:)` writes it.
    static func json(_ entry: Entry, into out: inout [UInt8]) {
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
