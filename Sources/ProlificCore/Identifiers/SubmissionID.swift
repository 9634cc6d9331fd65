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
        let text = String(text)
        guard let dash = text.lastIndex(of: "-") else { return nil }
        let digits = text[text.index(after: dash)...]
        guard digits.utf8.count == 14, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let author = Handle(text[..<dash]),
            let time = Timestamp(compactDigits: digits)
        else { return nil }
        self.init(author: author, time: time)
    }

    public var rawValue: String { "\(author.rawValue)-\(time.compactDigits)" }
    public var description: String { rawValue }

    public static func < (a: SubmissionID, b: SubmissionID) -> Bool { a.rawValue < b.rawValue }

    public static let rule = "'<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC"
}
