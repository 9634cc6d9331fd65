#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte scans of Markdown for what a page-aware rendering changes: images (`![`) and `data:`
/// links. In the core, not beside the renderer, because a kept project's cache entry records
/// the answer for each snippet (`SnippetText.mayNeedRewriting`), and a build asks it of every
/// snippet without making the snippets' strings.
public enum MarkdownScan {
    /// Whether `text` holds `data:` in any case: a link target that names no address.
    public static func mentionsData(_ text: String) -> Bool {
        scan(text, images: false)
    }

    /// Whether a document may hold an image (`![`) or a `data:` link, the only things the
    /// page-aware renderer changes. Most bodies have neither, and every feed entry and page
    /// asks: `memchr` finds each `[` and `:`, and only those are looked back from.
    public static func mayNeedRewriting(_ markdown: String) -> Bool {
        scan(markdown, images: true)
    }

    private static func scan(_ text: String, images: Bool) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ scan($0, images: images) }) { return found }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { scan($0, images: images) }
    }

    /// `[` and `:` are rare in prose, and `memchr` skips to each at memory speed: a loop over
    /// every byte of every snippet was 1.8 % of a large rebuild's samples, this is 1.0 %.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, images: Bool) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        if images && occurs(UInt8(ascii: "["), in: bytes, where: { $0 > 0 && base[$0 - 1] == UInt8(ascii: "!") }) {
            return true
        }
        // `| 0x20` lower-cases ASCII letters, and maps no other byte onto d, a or t.
        return occurs(UInt8(ascii: ":"), in: bytes) { i in
            i >= 4 && base[i - 4] | 0x20 == UInt8(ascii: "d") && base[i - 3] | 0x20 == UInt8(ascii: "a")
                && base[i - 2] | 0x20 == UInt8(ascii: "t") && base[i - 1] | 0x20 == UInt8(ascii: "a")
        }
    }

    /// Whether `byte` occurs in `bytes` at an offset `test` accepts.
    private static func occurs(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, where test: (Int) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let hit = memchr(base + offset, Int32(byte), bytes.count - offset) {
            let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if test(at) { return true }
            offset = at + 1
        }
        return false
    }
}
