/// A snippet's id, `<author>-<yyyymmddhhmmss>`: its author's handle and its submission time.
///
/// Because the id is made of the author and the second they submitted, two contributors can never
/// collide, and a clash (the same author twice in one second) is detected rather than overwritten.
public struct SubmissionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let author: Handle
    public let time: Timestamp

    public init(author: Handle, time: Timestamp) {
        self.author = author
        self.time = time
    }

    /// Parses `ann-20261102101500`; fails on anything else.
    public init?(_ text: some StringProtocol) {
        self.init(Substring(String(text)))
    }

    /// The same, read in place: the records of ballots in the large benchmark's round.md files
    /// name 217,000 ids, and making each a `String` first allocated one (an id is too long for a
    /// small string).
    public init?(_ text: Substring) {
        // The last `-` byte: where the id is valid, it is followed by the 14 digits (a byte
        // search, as every ballot names a few ids, instead of one by Characters).
        guard let dash = text.utf8.lastIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = text[text.utf8.index(after: dash)...]
        guard digits.utf8.count == 14, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let author = Handle(text[..<dash]),
            let time = Timestamp(compactDigits: digits)
        else { return nil }
        self.init(author: author, time: time)
    }

    public var rawValue: String { "\(author.rawValue)-\(time.compactDigits)" }
    public var description: String { rawValue }

    /// The order of `rawValue`, which snippet lists sort by, without building the two strings:
    /// different handles decide at their first different byte; the same handle by time (the
    /// fixed-width digits order as the times do). Only a handle that begins with the other, or a
    /// time outside years 1–9999, compares the spelled-out ids.
    public static func < (a: SubmissionID, b: SubmissionID) -> Bool {
        if a.author == b.author {
            guard a.time.hasFourDigitYear, b.time.hasFourDigitYear else { return a.rawValue < b.rawValue }
            return a.time < b.time
        }
        for (x, y) in zip(a.author.rawValue.utf8, b.author.rawValue.utf8) where x != y { return x < y }
        return a.rawValue < b.rawValue
    }

    public static let rule = "'<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC"
}
