import Testing

@testable import ProlificCore

@Suite struct TimeSpanTests {
    static let spans: [(String, Int64)] = [
        ("90m", 90 * 60),
        ("36h", 36 * 3600),
        ("7d", 7 * 86_400),
        ("2w", 14 * 86_400),
        ("1d12h", 36 * 3600),
        ("1w2d3h4m", 604_800 + 2 * 86_400 + 3 * 3600 + 4 * 60),
        ("12h1d", 36 * 3600),
        ("0d1m", 60),
        ("007d", 7 * 86_400),
        ("3650d", TimeSpan.maximumSeconds),
    ]

    @Test(arguments: spans)
    func parses(_ text: String, _ seconds: Int64) throws {
        #expect(try #require(TimeSpan(text)).seconds == seconds)
    }

    @Test(arguments: [
        "", "7", "d", "0d", "0m0h", "-1d", "+1d", "7x", "7D", "1.5d", "1,5d", " 7d", "7d ", "7 d", "1d12",
        "3651d", "522w", "87601h", "5256001m", "3650d1m",
        "99999999999999999999d", "9223372036854775807m",
    ])
    func rejects(_ text: String) {
        #expect(TimeSpan(text) == nil)
    }

    @Test func secondsInitializerBounds() {
        #expect(TimeSpan(seconds: 0) == nil)
        #expect(TimeSpan(seconds: -60) == nil)
        #expect(TimeSpan(seconds: TimeSpan.maximumSeconds + 1) == nil)
        #expect(TimeSpan(seconds: TimeSpan.maximumSeconds)?.seconds == TimeSpan.maximumSeconds)
    }

    @Test(arguments: [
        ("36h", "1d12h"), ("7d", "7d"), ("90m", "1h30m"), ("2w", "14d"), ("1d12h", "1d12h"), ("60m", "1h"),
        ("24h", "1d"), ("1d1m", "1d1m"), ("1w2d3h4m", "9d3h4m"),
    ])
    func describesCanonically(_ text: String, _ canonical: String) throws {
        let span = try #require(TimeSpan(text))
        #expect(span.description == canonical)
        #expect(TimeSpan(canonical) == span)
    }

    @Test func ordering() {
        #expect(Make.span("36h") < Make.span("2d"))
        #expect(Make.span("1d12h") == Make.span("36h"))
        #expect(!(Make.span("1w") < Make.span("7d")))
    }
}
