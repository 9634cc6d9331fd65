import Foundation
import ProlificCore

/// Markdown rendered once per text, whichever pages and feeds show it, with whether the text
/// needs its images rewritten page by page. Safe to share between workers.
///
/// A snippet's body is asked for by its round page, its project page, two feeds and the search
/// index: hashing a whole body at each ask cost more than the lookup saved. A text long enough
/// to live in its own storage (every body does) is found by the address of that storage, which
/// the entry keeps alive, so no other text can take it over; the entry's text is compared on a
/// hit all the same, which for the same storage costs one comparison of pointers. Shorter texts
/// and texts without native storage are found by their contents.
///
/// The entries are spread over 64 shards, each with its own lock. Under one lock, a worker
/// preempted while holding it (by the site writer's thread: three threads on two cores) left
/// the other asleep until it ran again; a large full build's workers slept there 2,700 times.
/// Even 64 locks put a feed's worker to sleep about 30 times a large full build (`perf`
/// `sched_switch`), so the entries made before the pages are rendered (`settle`) are read
/// without any lock: in a full build, every body without images. (A rebuild stops warming at
/// once, and its few pages take the locks.)
final class HTMLCache: @unchecked Sendable {
    struct Entry {
        /// The text itself: keeps its storage, and so its address, from being reused.
        let markdown: String
        /// Whether it has images or `data:` links (`MarkdownScan.mayNeedRewriting`).
        let needsRewriting: Bool
        /// Its HTML with images as written, once asked for.
        var html: String?
    }

    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        var byAddress: [UInt: Entry] = [:]
        var byText: [String: Entry] = [:]
        /// The entries as `settle` found them: never changed after, so read without the lock.
        var settledByAddress: [UInt: Entry] = [:]
        var settledByText: [String: Entry] = [:]
    }

    private let shards = (0..<64).map { _ in Shard() }

    /// The shard of a text: by its storage's address (past the 16 bytes allocations are aligned
    /// to), or by its contents when it has no storage of its own.
    private func shard(_ markdown: String, _ address: UInt?) -> Shard {
        let mixed = address.map { Int(truncatingIfNeeded: ($0 >> 4) ^ ($0 >> 10)) } ?? markdown.hashValue
        return shards[mixed & 63]
    }

    /// Whether `markdown` has images or `data:` links, worked out once per text.
    func needsRewriting(_ markdown: String) -> Bool {
        // Any entry answers, a settled one without the lock (texts with images settle without
        // their HTML).
        if let entry = lookup(markdown, needingHTML: false) { return entry.needsRewriting }
        let entry = Entry(markdown: markdown, needsRewriting: MarkdownScan.mayNeedRewriting(markdown), html: nil)
        store(entry)
        return entry.needsRewriting
    }

    /// The HTML of `markdown`, images as written, rendered by `render` the first time.
    func html(_ markdown: String, render: (String) -> String) -> String {
        if let hit = lookup(markdown)?.html { return hit }
        let html = render(markdown)
        store(Entry(markdown: markdown, needsRewriting: MarkdownScan.mayNeedRewriting(markdown), html: html))
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

    /// Makes every entry so far readable without a lock. Only while no other thread uses the
    /// cache (the model calls it once it has warmed the cache, before pages are rendered on
    /// every core): the settled entries are never changed after, so reading them needs no lock.
    func settle() {
        for shard in shards {
            shard.lock.withLock {
                shard.settledByAddress.merge(shard.byAddress) { settled, new in settled.html == nil ? new : settled }
                shard.settledByText.merge(shard.byText) { settled, new in settled.html == nil ? new : settled }
                shard.byAddress = [:]
                shard.byText = [:]
            }
        }
    }

    /// The entry of `markdown`: a settled one without taking the lock when it has its HTML or
    /// `needingHTML` is false, else the one made since, else the settled one.
    private func lookup(_ markdown: String, needingHTML: Bool = true) -> Entry? {
        let address = Self.address(of: markdown)
        let shard = shard(markdown, address)
        guard let address else {
            let settled = shard.settledByText[markdown]
            if let settled, settled.html != nil || !needingHTML { return settled }
            return shard.lock.withLock { shard.byText[markdown] } ?? settled
        }
        // Found by address, an entry is this text's only if its text is the same.
        let same = { (entry: Entry) in entry.markdown == markdown ? entry : nil }
        let settled = shard.settledByAddress[address].flatMap(same)
        if let settled, settled.html != nil || !needingHTML { return settled }
        return shard.lock.withLock { shard.byAddress[address] }.flatMap(same) ?? settled
    }

    /// How many entries are settled and how many were made since (for tests).
    var counts: (settled: Int, made: Int) {
        shards.reduce((0, 0)) { sum, shard in
            shard.lock.withLock {
                (sum.0 + shard.settledByAddress.count + shard.settledByText.count,
                 sum.1 + shard.byAddress.count + shard.byText.count)
            }
        }
    }

    /// Keeps the entry; one that already has its HTML is not replaced by one without.
    private func store(_ entry: Entry) {
        let address = Self.address(of: entry.markdown)
        let shard = shard(entry.markdown, address)
        shard.lock.withLock {
            if let address {
                if let old = shard.byAddress[address], old.markdown == entry.markdown, old.html != nil { return }
                shard.byAddress[address] = entry
            } else {
                if shard.byText[entry.markdown]?.html != nil { return }
                shard.byText[entry.markdown] = entry
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
