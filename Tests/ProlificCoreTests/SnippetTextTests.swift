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

        let strings = DeferredTexts { ["one", "two"] }
        #expect((0..<3).map { SnippetText(deferred: strings, at: $0, mayNeedRewriting: true).string } == ["one", "two", ""])
        #expect(SnippetText(deferred: strings, at: 0, mayNeedRewriting: true).mayNeedRewriting)
    }
}
