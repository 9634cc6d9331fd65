import ProlificCore
import Testing

@testable import ProlificSite

@Suite struct HTMLCacheTests {
    /// Counts renderings, to see what the cache saves.
    final class Counter: @unchecked Sendable {
        var count = 0
        func render(_ markdown: String) -> String {
            count += 1
            return Markdown.html(markdown)
        }
    }

    @Test func eachTextIsRenderedOnceWhetherFoundByStorageOrByContents() {
        let cache = HTMLCache()
        let counter = Counter()
        let long = "A snippet long enough to have storage of its own, *with emphasis*."
        let copy = long  // the same storage
        let sameWords = String(decoding: Array(long.utf8), as: UTF8.self)  // other storage
        let short = "*tiny*"
        #expect(cache.html(long, render: counter.render) == Markdown.html(long))
        #expect(cache.html(copy, render: counter.render) == Markdown.html(long))
        #expect(counter.count == 1)
        #expect(cache.html(sameWords, render: counter.render) == Markdown.html(long))
        #expect(cache.html(short, render: counter.render) == "<p><em>tiny</em></p>\n")
        #expect(cache.html(String(short), render: counter.render) == "<p><em>tiny</em></p>\n")
        // The same words in other storage, and the short text, are rendered once each.
        #expect(counter.count == 3)
    }

    @Test func whetherATextNeedsRewritingIsRememberedWithItsHTML() {
        let cache = HTMLCache()
        let counter = Counter()
        let image = "A picture of the moon, drawn by hand: ![moon](moon.png)"
        let plain = "No picture here, only a long enough line of words."
        #expect(cache.needsRewriting(image))
        #expect(!cache.needsRewriting(plain))
        // Asking whether first, then for the HTML, still renders it (once).
        #expect(cache.html(plain, render: counter.render) == Markdown.html(plain))
        #expect(cache.html(plain, render: counter.render) == Markdown.html(plain))
        #expect(counter.count == 1)
        // Rendering first, then asking whether, keeps the HTML.
        let other = "Another long line of words, rendered before it is asked about."
        _ = cache.html(other, render: counter.render)
        #expect(!cache.needsRewriting(other))
        _ = cache.html(other, render: counter.render)
        #expect(counter.count == 2)
        #expect(cache.needsRewriting(image))
    }

    @Test func warmingRendersTextsWithoutImagesUntilTheFlagIsRaised() {
        let cache = HTMLCache()
        let counter = Counter()
        let texts = [
            "The first snippet, long enough to have storage of its own.",
            "A snippet with a picture in it: ![moon](moon.png), drawn by hand.",
            "The first snippet, long enough to have storage of its own.",
            "A third snippet, plain words only, *with emphasis* though.",
        ]
        cache.warm(texts, render: counter.render, until: HTMLCache.Flag())
        // The text with an image is rendered page by page; the repeated one once.
        #expect(counter.count == 2)
        _ = cache.html(texts[3], render: counter.render)
        #expect(counter.count == 2)

        let raised = HTMLCache.Flag()
        raised.raise()
        let other = HTMLCache()
        other.warm(texts, render: counter.render, until: raised)
        #expect(counter.count == 2)
        #expect(raised.isRaised)
    }

    /// Texts spread over the shards: asked for from every core, each comes back as its own HTML,
    /// and once cached it is found again without rendering.
    @Test func textsAskedForFromEveryCoreComeBackAsTheirOwn() {
        let cache = HTMLCache()
        let texts = (0..<600).map { "Snippet number \($0), long enough for storage of its own, *with emphasis*." }
        let shorts = (0..<60).map { "*\($0)*" }
        let all = texts + shorts
        let first = Parallel.map(all + all) { cache.html($0, render: Markdown.html) }
        #expect(first == (all + all).map(Markdown.html))
        let counter = Counter()
        #expect(all.map { cache.html($0, render: counter.render) } == all.map(Markdown.html))
        #expect(counter.count == 0)
    }

    /// Settled entries are read without a lock: each text, settled or made since, long or short,
    /// with or without its HTML when it settled, still comes back as its own HTML, rendered once.
    @Test func settledTextsAndTextsMadeSinceAreEachRenderedOnce() {
        let cache = HTMLCache()
        let counter = Counter()
        let rendered = (0..<300).map { "Snippet \($0), rendered before the cache settles, *with emphasis*." }
        let asked = (0..<100).map { "Snippet \($0), only asked about before the cache settles, in plain words." }
        let later = (0..<300).map { "Snippet \($0), first rendered after the cache settles, **in bold**." }
        let shorts = (0..<40).map { "*\($0)*" }
        for text in rendered + shorts { _ = cache.html(text, render: counter.render) }
        for text in asked { #expect(!cache.needsRewriting(text)) }
        #expect(counter.count == 340)
        cache.settle()
        // Every entry is settled: read without a lock from now on.
        #expect(cache.counts.settled == 440 && cache.counts.made == 0)
        #expect((rendered + shorts).map { cache.html($0, render: counter.render) } == (rendered + shorts).map(Markdown.html))
        #expect(counter.count == 340)
        // From every core, settled texts and texts new since.
        let all = rendered + asked + later + shorts
        #expect(Parallel.map(all + all) { cache.html($0, render: Markdown.html) } == (all + all).map(Markdown.html))
        #expect(all.map { cache.html($0, render: counter.render) } == all.map(Markdown.html))
        #expect(counter.count == 340)
        // The texts new since, and those asked about that got their HTML since, were made anew.
        #expect(cache.counts.made == 400)
        // Settling again keeps every entry, HTML included.
        cache.settle()
        #expect(cache.counts.settled == 740 && cache.counts.made == 0)
        #expect(all.map { cache.html($0, render: counter.render) } == all.map(Markdown.html))
        #expect(counter.count == 340)
        #expect(all.allSatisfy { !cache.needsRewriting($0) })
        #expect(!cache.needsRewriting("*7*") && cache.needsRewriting("A long line with a picture: ![moon](moon.png)"))
    }
}
