/// How `{{value}}` is escaped in every template: the five HTML special characters, byte by byte.
///
/// Escaping UTF-8 bytes has no gap for a `"` that shares a grapheme cluster with a combining mark
/// (`"\u{301}`) or a U+200D joiner: an escaper that compares whole Swift `Character`s (as
/// swift-mustache's did) misses it, and a player's name could end an attribute and add an event
/// handler. It is faster, too.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` escaped to `output`: runs without special characters are copied whole,
    /// found sixteen bytes at a time (`cleanChunks`): every value a page shows goes through here,
    /// and byte by byte that was about 1 % of a full build.
    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var run = 0, index = 0
            while index < bytes.count {
                index = cleanChunks(bytes, from: index)
                // Byte by byte to the end of the chunk that holds something to look at.
                let end = min(index + 16, bytes.count)
                while index < end {
                    let replacement: StaticString
                    switch bytes[index] {
                    case 0x26: replacement = "&amp;"
                    case 0x3C: replacement = "&lt;"
                    case 0x3E: replacement = "&gt;"
                    case 0x22: replacement = "&quot;"
                    case 0x27: replacement = "&#39;"
                    default:
                        index += 1
                        continue
                    }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                    output.append(
                        contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                    index += 1
                    run = index
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    /// Where the first 16-byte chunk from `start` holding one of the five characters HTML and
    /// XML escape begins (or the last bytes, fewer than 16, begin). `orControls`: a chunk
    /// holding a control character (tab and line breaks included, to keep this simple) or an
    /// `EF` stops the scan too, for `XML.append(escaped:to:)`, which drops what XML forbids.
    static func cleanChunks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, orControls: Bool = false) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        let amp = SIMD16<UInt8>(repeating: 0x26), lt = SIMD16<UInt8>(repeating: 0x3C), gt = SIMD16<UInt8>(repeating: 0x3E)
        let quot = SIMD16<UInt8>(repeating: 0x22), apos = SIMD16<UInt8>(repeating: 0x27)
        let space = SIMD16<UInt8>(repeating: 0x20), ef = SIMD16<UInt8>(repeating: 0xEF)
        while index + 16 <= bytes.count {
            let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            var stop = (chunk .== amp) .| (chunk .== lt) .| (chunk .== gt) .| (chunk .== quot) .| (chunk .== apos)
            if orControls { stop = stop .| (chunk .< space) .| (chunk .== ef) }
            if any(stop) { break }
            index += 16
        }
        return index
    }
}
