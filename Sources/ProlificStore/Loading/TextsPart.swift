/// The second part of a project's cache entry (`ProjectCache`): the first part's checksum, a
/// table of the texts (the snippets' and, last, the seals' packed files: where each one is among
/// them, and its checksum) sealed on its own, then the texts as
/// `ProjectCodec.encode(_:into:texts:)` wrote them, the whole part sealed again.
///
/// The whole part's seal checks every text at once, for a reader of them all; the table's seal
/// and each text's checksum check only what a reader of one text reads: a feed shows one
/// snippet of a story, and a rebuild's feeds had read a few hundred stories' texts whole for it.
enum TextsPart {
    /// How many texts the part holds for a project of `snippets` snippets: theirs, then the
    /// seals' packed files (`DeferredSeals`), which are text number `snippets`.
    static func count(snippets: Int) -> Int { snippets + 1 }

    /// The bytes before the texts: the first part's checksum, 24 for each text (where it starts
    /// and ends among the texts, and its checksum), and the table's seal.
    static func tableSize(count: Int) -> Int { 8 + 24 * count + 8 }

    /// The part for `texts`, the `count` texts as the codec wrote them, after a first part whose
    /// checksum is `checksum` (8 bytes); nil when `texts` are not `count` texts.
    static func make(_ texts: [UInt8], count: Int, following checksum: [UInt8]) -> [UInt8]? {
        var r = BinaryReader(texts)
        guard checksum.count == 8, let ranges = ProjectCodec.textRanges(from: &r, count: count), r.isAtEnd else { return nil }
        var w = BinaryWriter(capacity: tableSize(count: count) + texts.count + 8)
        w.raw(checksum)
        texts.withUnsafeBytes { all in
            for range in ranges {
                w.unsigned(UInt64(range.lowerBound))
                w.unsigned(UInt64(range.upperBound))
                w.unsigned(CacheSeal.checksum(UnsafeRawBufferPointer(rebasing: all[range])))
            }
        }
        CacheSeal.seal(&w)
        w.raw(texts)
        CacheSeal.seal(&w)
        return w.bytes
    }

    /// Where text `index` is among the texts (which follow the table, `textsSize` bytes of them)
    /// and its checksum, from `table`, the part's first `tableSize(count:)` bytes; nil when the
    /// table is damaged, names bytes beyond the texts, or follows another first part than the one
    /// whose checksum is `checksum`.
    static func place(of index: Int, in table: [UInt8], following checksum: [UInt8], textsSize: Int)
        -> (range: Range<Int>, checksum: UInt64)?
    {
        guard let body = CacheSeal.body(of: table), index >= 0, index < (body.count - checksum.count) / 24 else { return nil }
        var r = BinaryReader(table, range: body)
        guard r.consume(checksum), r.skip(24 * index) != nil, let start = r.unsigned(), let end = r.unsigned(),
            let sum = r.unsigned(), start <= end, end <= UInt64(max(0, textsSize))
        else { return nil }
        return (Int(start)..<Int(end), sum)
    }
}
