import Testing

@testable import ProlificCore

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2000-03-01T00:00:00Z", 951_868_800),
        ("2026-11-22T13:00:00Z", 1_795_352_400),
        ("2028-02-29T00:00:00Z", 1_835_395_200),
    ])
    func parsesToSecondsSinceEpoch(_ text: String, _ seconds: Int64) throws {
        let time = try #require(Timestamp(iso8601: text))
        #expect(time.secondsSinceEpoch == seconds)
        #expect(time.iso8601 == text)
        #expect(time.description == text)
    }

    @Test func componentsAndFieldInitializer() throws {
        let time = try #require(Timestamp(iso8601: "2026-11-22T13:04:05Z"))
        let c = time.components
        #expect([c.year, c.month, c.day, c.hour, c.minute, c.second] == [2026, 11, 22, 13, 4, 5])
        #expect(Timestamp(year: 2026, month: 11, day: 22, hour: 13, minute: 4, second: 5) == time)
    }

    @Test func roundTripsEveryFewDaysFrom1970To2100() throws {
        let end = Timestamp(year: 2100, month: 12, day: 31).secondsSinceEpoch
        // 3 days, 1 hour, 1 minute and 1 second: walks through every month, leap days and clock fields.
        for seconds in stride(from: Int64(0), through: end, by: 3 * 86_400 + 3661) {
            let time = Timestamp(secondsSinceEpoch: seconds)
            let parsed = try #require(Timestamp(iso8601: time.iso8601))
            #expect(parsed == time)
            #expect(Timestamp(compactDigits: time.compactDigits) == time)
        }
    }

    /// The digit-by-digit printing against the field-by-field spelling it replaced, years with
    /// fewer and more than four digits included.
    @Test(arguments: [
        Int64(-62_200_000_000), -1, 0, 59, 951_868_800, 1_795_352_400, 253_402_300_799, 253_402_300_800, 400_000_000_000,
    ])
    func printsEveryFieldPadded(_ seconds: Int64) {
        let time = Timestamp(secondsSinceEpoch: seconds)
        let c = time.components
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let fields = [pad(c.year, 4), pad(c.month), pad(c.day), pad(c.hour), pad(c.minute), pad(c.second)]
        #expect(time.iso8601 == "\(fields[0])-\(fields[1])-\(fields[2])T\(fields[3]):\(fields[4]):\(fields[5])Z")
        #expect(time.compactDigits == fields.joined())
        #expect(time.hasFourDigitYear == (1...9999).contains(c.year))
    }

    @Test func dateOnlyIsMidnightUTC() {
        #expect(Timestamp(iso8601: "2026-11-22") == Timestamp(iso8601: "2026-11-22T00:00:00Z"))
        #expect(Timestamp(iso8601: "2026-11-22")?.iso8601 == "2026-11-22T00:00:00Z")
    }

    @Test func leapDays() {
        #expect(Timestamp(iso8601: "2028-02-29T12:00:00Z") != nil)
        #expect(Timestamp(iso8601: "2028-02-29") != nil)
        #expect(Timestamp(iso8601: "2000-02-29") != nil)
        #expect(Timestamp(iso8601: "2026-02-29T12:00:00Z") == nil)
        #expect(Timestamp(iso8601: "2026-02-29") == nil)
        #expect(Timestamp(iso8601: "2100-02-29") == nil)
        #expect(Timestamp(iso8601: "2028-02-30") == nil)
        #expect(Timestamp(iso8601: "2028-02-28")! + TimeSpan(seconds: 86_400)! == Timestamp(iso8601: "2028-02-29")!)
        #expect(Timestamp(iso8601: "2026-02-28")! + TimeSpan(seconds: 86_400)! == Timestamp(iso8601: "2026-03-01")!)
    }

    @Test(arguments: [
        "2026-11-22T13:00:00+02:00",
        "2026-11-22T13:00:00+00:00",
        "2026-11-22T13:00:00z",
        "2026-11-22t13:00:00Z",
        "2026-11-22T13:00:00",
        "2026-11-22T13:00:00.5Z",
        "2026-11-22T13:00:00.000Z",
        "2026-11-22 13:00:00Z",
        "2026-11-22T13:00Z",
        "2026-11-22T1:00:00Z",
        "2026-11-22T",
        "2026-13-01",
        "2026-00-10",
        "2026-04-31",
        "2026-11-00",
        "2026-11-22T24:00:00Z",
        "2026-11-22T13:60:00Z",
        "2026-11-22T13:00:60Z",
        "1969-12-31T23:59:59Z",
        "26-11-22",
        "2026/11/22",
        "20261122",
        " 2026-11-22",
        "2026-11-22 ",
        "+026-11-22",
        "2026-1-022",
        "",
    ])
    func rejects(_ text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test func compactDigits() throws {
        let time = Make.time("2026-01-02T03:04:05Z")
        #expect(time.compactDigits == "20260102030405")
        #expect(Timestamp(compactDigits: "20260102030405") == time)
        #expect(Timestamp(compactDigits: "2026010203040") == nil)
        #expect(Timestamp(compactDigits: "202601020304050") == nil)
        #expect(Timestamp(compactDigits: "2026010203040x") == nil)
        #expect(Timestamp(compactDigits: "20261302030405") == nil)
        #expect(Timestamp(compactDigits: "20260230030405") == nil)
        #expect(Timestamp(compactDigits: "20260102250405") == nil)
    }

    @Test func ordering() {
        let a = Make.time("2026-11-01T00:00:00Z")
        let b = Make.time("2026-11-01T00:00:01Z")
        let c = Make.time("2027-01-01")
        #expect(a < b && b < c)
        #expect(!(b < a))
        #expect([c, a, b].sorted() == [a, b, c])
        #expect(a.seconds(until: b) == 1)
        #expect(b.seconds(until: a) == -1)
    }

    @Test func addingATimeSpan() {
        let start = Make.time("2026-12-31T12:00:00Z")
        #expect(start + Make.span("1d12h") == Make.time("2027-01-02T00:00:00Z"))
        #expect(start + Make.span("90m") == Make.time("2026-12-31T13:30:00Z"))
        #expect(start + Make.span("2w") == Make.time("2027-01-14T12:00:00Z"))
        #expect(start.seconds(until: start + Make.span("7d")) == 7 * 86_400)
    }
}
