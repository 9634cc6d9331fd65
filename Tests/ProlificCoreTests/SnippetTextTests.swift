import ProlificCore
import Synchronization
import Testing

@Suite struct SnippetTextTests {
    /// Deferred texts are loaded once, on the first ask, whether as strings or as packed bytes
    /// with each text's place; an index the loader gave no text for (or a place outside the
    /// bytes) is an empty text, never a trap. Equality is the text's.
    @Test func deferredTextsAreLoadedOnceAsStringsOrPackedBytes() {
        let bytes = Array("Ann wrote.Bo é".utf8)
        let loads = Mutex(0)
        let packed = DeferredTexts { () -> DeferredTexts.Loaded in
            loads.withLock { $0 += 1 }
            return .packed(bytes: bytes, ranges: [0..<9, 10..<bytes.count, 3..<3, 0..<(bytes.count + 1)])
        }
        let texts = (0..<5).map { SnippetText(deferred: packed, at: $0, mayNeedRewriting: false) }
        #expect(texts.map(\.string) == ["Ann wrote", "Bo é", "", "", ""])
        #expect(texts[1] == SnippetText("Bo é") && texts.allSatisfy(\.isDeferred))
        #expect(loads.withLock { $0 } == 1)
        // A text is made once: asked again, it is the same string, storage and all.
        let long = DeferredTexts { () -> DeferredTexts.Loaded in .packed(bytes: Array(String(repeating: "long text ", count: 8).utf8), ranges: [0..<80]) }
        var first = SnippetText(deferred: long, at: 0, mayNeedRewriting: false).string
        var again = SnippetText(deferred: long, at: 0, mayNeedRewriting: false).string
        let sameStorage = first.withUTF8 { a in again.withUTF8 { b in a.baseAddress == b.baseAddress } }
        #expect(first.utf8.count == 80 && sameStorage)

        let strings = DeferredTexts { .strings(["one", "two"]) }
        #expect((0..<3).map { SnippetText(deferred: strings, at: $0, mayNeedRewriting: true).string } == ["one", "two", ""])
        #expect(SnippetText(deferred: strings, at: 0, mayNeedRewriting: true).mayNeedRewriting)
    }
}
