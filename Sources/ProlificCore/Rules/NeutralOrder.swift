/// Orders a round's snippets by a hash of their content-derived keys, not by time or votes, so no
/// snippet gains from its position on the page and every reader sees the same order.
public enum NeutralOrder {
    public static func sorted(_ submissions: [Submission], in slug: Slug, round: RoundNumber) -> [Submission] {
        submissions.sorted { a, b in
            let ka = key(a, slug, round), kb = key(b, slug, round)
            return ka != kb ? ka < kb : a.id < b.id
        }
    }

    static func key(_ submission: Submission, _ slug: Slug, _ round: RoundNumber) -> UInt64 {
        fnv1a("\(slug)/\(round.folderName)/\(submission.id)")
    }

    /// 64-bit FNV-1a: stable across runs and platforms, unlike `Hasher`.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
