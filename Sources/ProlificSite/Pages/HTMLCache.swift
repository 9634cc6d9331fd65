import Foundation

/// Markdown rendered once per text, whichever pages and feeds show it, with whether the text
/// needs its images rewritten page by page. Safe to share between workers.
///
/// A snippet's body is asked for by its round page, its project page, two feeds and the search
/// index: hashing a whole body at each ask cost more than the lookup saved. A text long enough
/// to live in its own storage (every body does) is found by the address of that storage, which
/// the entry keeps alive, so no other text can take it over; the entry's text is compared on a
/// hit all the same, which for the same storage costs one comparison of pointers. Shorter texts
/// and texts without native storage are found by their contents.
final class HTMLCache: @unchecked Sendable {
    struct Entry {
        /// The text itself: keeps its storage, and so its address, from being reused.
        let markdown: String
        /// Whether it has images or `data:` links (`Markdown.mayNeedRewriting`).
        let needsRewriting: Bool
        /// Its HTML with images as written, once asked for.
        var html: String?
    }

    private let lock = NSLock()
    private var byAddress: [UInt: Entry] = [:]
    private var byText: [String: Entry] = [:]

    /// Whether `markdown` has images or `data:` links, worked out once per text.
    func needsRewriting(_ markdown: String) -> Bool {
        if let entry = lookup(markdown) { return entry.needsRewriting }
        let entry = Entry(markdown: markdown, needsRewriting: Markdown.mayNeedRewriting(markdown), html: nil)
        store(entry)
        return entry.needsRewriting
    }

    /// The HTML of `markdown`, images as written, rendered by `render` the first time.
    func html(_ markdown: String, render: (String) -> String) -> String {
        if let hit = lookup(markdown)?.html { return hit }
        let html = render(markdown)
        store(Entry(markdown: markdown, needsRewriting: Markdown.mayNeedRewriting(markdown), html: html))
        return html
    }

    /// Renders each of `texts` that has no images or `data:` links (the others are rendered page
    /// by page) and isn't cached yet, until `flag` is raised: work for a core that would
    /// otherwise wait.
    func warm(_ texts: some Sequence<String>, render: (String) -> String, until flag: Flag) {
        for text in texts {
            if flag.isRaised { return }
            if !needsRewriting(text) { _ = html(text, render: render) }
        }
    }

    /// Raised once, by one thread, for others to see.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false

        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    private func lookup(_ markdown: String) -> Entry? {
        if let address = Self.address(of: markdown) {
            return lock.withLock { byAddress[address] }.flatMap { $0.markdown == markdown ? $0 : nil }
        }
        return lock.withLock { byText[markdown] }
    }

    /// Keeps the entry; one that already has its HTML is not replaced by one without.
    private func store(_ entry: Entry) {
        lock.withLock {
            if let address = Self.address(of: entry.markdown) {
                if let old = byAddress[address], old.markdown == entry.markdown, old.html != nil { return }
                byAddress[address] = entry
            } else {
                if byText[entry.markdown]?.html != nil { return }
                byText[entry.markdown] = entry
            }
        }
    }

    /// Where a text's bytes live, for a text in storage of its own: more than 15 bytes (shorter
    /// ones are stored inside the `String` value, and their bytes are lent from a copy).
    private static func address(of text: String) -> UInt? {
        guard text.utf8.count > 15 else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
    }
}
