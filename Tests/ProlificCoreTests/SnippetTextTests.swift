import ProlificCore
import Synchronization
import Testing

@Suite struct SnippetTextTests {
    /// The first two texts asked for are read alone, each once; the next one, one that can't be
    /// read alone, or `loadAll` loads them all at once, and a text read alone keeps its string.
    @Test func theFirstTextsAskedForAreReadAloneThenTheRestAtOnce() {
        let calls = Mutex((alone: [Int](), loads: 0))
        func texts(failingAlone: Set<Int> = []) -> DeferredTexts {
            DeferredTexts(
                load: {
                    calls.withLock { $0.loads += 1 }
                    return .strings(["a (whole)", "b (whole)", "c (whole)", "d (whole)"])
                },
                one: { index in
                    calls.withLock { $0.alone.append(index) }
                    return failingAlone.contains(index) ? nil : ["a", "b", "c", "d"][index]
                })
        }
        func text(_ texts: DeferredTexts, _ index: Int) -> String {
            SnippetText(deferred: texts, at: index, mayNeedRewriting: false).string
        }
        let four = texts()
        #expect([text(four, 2), text(four, 2), text(four, 0)] == ["c", "c", "a"])
        #expect(calls.withLock { $0.alone } == [2, 0] && calls.withLock { $0.loads } == 0)
        #expect([text(four, 1), text(four, 3), text(four, 2), text(four, 0)] == ["b (whole)", "d (whole)", "c", "a"])
        #expect(calls.withLock { $0.alone } == [2, 0] && calls.withLock { $0.loads } == 1)

        calls.withLock { $0 = ([], 0) }
        let failing = texts(failingAlone: [1])
        #expect([text(failing, 1), text(failing, 0)] == ["b (whole)", "a (whole)"])
        #expect(calls.withLock { $0.alone } == [1] && calls.withLock { $0.loads } == 1)

        calls.withLock { $0 = ([], 0) }
        let project = texts()
        project.loadAll()
        #expect(text(project, 0) == "a (whole)")
        #expect(calls.withLock { $0.alone }.isEmpty && calls.withLock { $0.loads } == 1)
    }

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
