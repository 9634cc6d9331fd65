import Synchronization

/// A snippet's Markdown as the model holds it: a string, or one that a kept project's cache
/// entry holds and that is made only when something asks for it (`DeferredTexts`).
///
/// A rebuild decodes every kept project and shows the text of a handful of them. Making
/// 100,000 strings that nothing reads was about a tenth of a large rebuild after a ballot, and
/// 100 MB of its memory (docs/performance-log.md). Equality and hashing are the string's, so a
/// deferred text equals the same text made at once.
public struct SnippetText: Hashable, Sendable {
    private enum Storage: Sendable {
        case string(String)
        /// Text `index` of `texts`, and whether it may hold an image or a `data:` link.
        case deferred(DeferredTexts, index: Int, mayNeedRewriting: Bool)
    }

    private let storage: Storage

    public init(_ string: String) { storage = .string(string) }

    /// Text `index` of `texts`, made when first asked for; `mayNeedRewriting` is what
    /// `MarkdownScan.mayNeedRewriting` says of it, kept beside it.
    public init(deferred texts: DeferredTexts, at index: Int, mayNeedRewriting: Bool) {
        storage = .deferred(texts, index: index, mayNeedRewriting: mayNeedRewriting)
    }

    public var string: String {
        switch storage {
        case .string(let string): string
        case .deferred(let texts, let index, _): texts.text(at: index)
        }
    }

    /// Loads every text of a deferred text's project, whole (`DeferredTexts.loadAll`).
    func loadAllDeferred() {
        if case .deferred(let texts, _, _) = storage { texts.loadAll() }
    }

    /// Whether the text is made only when asked for.
    public var isDeferred: Bool {
        if case .deferred = storage { return true }
        return false
    }

    /// Whether the text may hold an image or a `data:` link (`MarkdownScan`), answered for a
    /// deferred text without making it: a build asks it of every snippet.
    public var mayNeedRewriting: Bool {
        switch storage {
        case .string(let string): MarkdownScan.mayNeedRewriting(string)
        case .deferred(_, _, let flag): flag
        }
    }

    public static func == (a: SnippetText, b: SnippetText) -> Bool { a.string == b.string }

    public func hash(into hasher: inout Hasher) { hasher.combine(string) }
}

/// The texts of one project's snippets, in order, by loaders the cache that decoded the project
/// gives. The first `readAlone` texts asked for are read one by one when the cache can (a feed
/// shows one snippet of a story); the third text asked for, one that can't be read alone, or
/// `loadAll` loads them all at once (the cache reads its entry again, or the project's files).
/// A text keeps the string it was first given; those read alone come from the entry and the rest
/// may then come from the files, when the entry was replaced or damaged meanwhile. Safe to ask
/// from any thread; a second asker waits for the first's loading.
public final class DeferredTexts: Sendable {
    /// What a loader gives: the texts, or their UTF-8 bytes one after the other with where each
    /// one is, a string made of one only when it is asked for (the search index reads on past
    /// short openings into each story's first chapters, and a project has hundreds of snippets).
    public enum Loaded: Sendable {
        case strings([String])
        case packed(bytes: [UInt8], ranges: [Range<Int>])
    }

    private let load: @Sendable () -> Loaded
    /// Text `index` read alone; nil when it can't be (the texts are then loaded whole). Called
    /// under the lock: it must not ask this `DeferredTexts` for anything.
    private let one: (@Sendable (Int) -> String?)?
    private let texts = Mutex<Texts>(Texts())

    /// How many texts are read one by one before the rest are loaded at once. A player's feed
    /// shows one or two snippets of each story they wrote in; a page that shows a whole story asks
    /// for all of them, and each text read alone costs it a few more calls to the kernel.
    static let readAlone = 2

    /// What was loaded, and each text made so far: a text keeps one string however often it is
    /// asked (`HTMLCache` knows a long text by its storage, and the project's page, round page
    /// and feed each ask).
    private struct Texts {
        var loaded: Loaded?
        var made: [String?] = []
        /// Texts read alone, by index, before the rest were loaded.
        var alone: [Int: String] = [:]
    }

    public init(load: @escaping @Sendable () -> Loaded, one: (@Sendable (Int) -> String?)? = nil) {
        (self.load, self.one) = (load, one)
    }

    /// Text `index`; empty if the loader gave fewer texts (it gives as many as it was made for).
    func text(at index: Int) -> String {
        texts.withLock { texts in
            if let made = texts.alone[index] { return made }
            if texts.loaded == nil, texts.alone.count < Self.readAlone, let text = one?(index) {
                texts.alone[index] = text
                return text
            }
            return Self.text(at: index, loadingWith: load, &texts)
        }
    }

    /// Loads the texts whole now, if they aren't: for work that reads most of them.
    public func loadAll() {
        texts.withLock { texts in
            if texts.loaded == nil { texts.loaded = load() }
        }
    }

    private static func text(at index: Int, loadingWith load: () -> Loaded, _ texts: inout Texts) -> String {
        let loaded = texts.loaded ?? load()
        texts.loaded = loaded
        switch loaded {
        case .strings(let strings):
            return strings.indices.contains(index) ? strings[index] : ""
        case .packed(let bytes, let ranges):
            guard ranges.indices.contains(index), ranges[index].lowerBound >= 0, ranges[index].upperBound <= bytes.count
            else { return "" }
            if texts.made.isEmpty { texts.made = Array(repeating: nil, count: ranges.count) }
            if let made = texts.made[index] { return made }
            let made = String(decoding: bytes[ranges[index]], as: UTF8.self)
            texts.made[index] = made
            return made
        }
    }
}

extension Project {
    /// Loads the project's deferred snippet texts now (they are loaded all at once, so one
    /// text's loader is enough): for work that reads most texts of most projects, such as a
    /// replay of the whole game, which can load them on every core first.
    public func makeDeferredTexts() {
        for r in rounds.indices {
            guard let first = rounds[r].submissions.first(where: { $0.text.isDeferred }) else { continue }
            first.text.loadAllDeferred()
            return
        }
    }
}
