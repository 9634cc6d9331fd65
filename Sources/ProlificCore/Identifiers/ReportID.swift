/// A report's id, `<reporter>-<yyyymmddhhmmss>`: who reported and when, shaped like a snippet's
/// id so that two readers can't collide and the file name says who filed it.
public struct ReportID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let reporter: Handle
    public let time: Timestamp

    public init(reporter: Handle, time: Timestamp) {
        self.reporter = reporter
        self.time = time
    }

    /// Parses `dana-20261104120000`; fails on anything else.
    public init?(_ text: some StringProtocol) {
        guard let parsed = SubmissionID(text) else { return nil }
        self.init(reporter: parsed.author, time: parsed.time)
    }

    public var rawValue: String { "\(reporter.rawValue)-\(time.compactDigits)" }
    public var description: String { rawValue }

    public static func < (a: ReportID, b: ReportID) -> Bool { a.rawValue < b.rawValue }

    public static let rule = "'<reporter>-<yyyymmddhhmmss>', the reporter's handle and the time in UTC"
}
