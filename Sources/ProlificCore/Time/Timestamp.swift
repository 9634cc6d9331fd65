/// A moment in UTC, to the second, as written in content files: `2026-11-22T13:00:00Z`.
///
/// A small value of our own rather than `Date` + a formatter: parsing is strict and total (every
/// input either parses or is rejected, never guessed at), costs nothing at scale, and the printed
/// form is always the canonical one, so files written by the CLI never change spelling.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        secondsSinceEpoch = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (UTC) or a bare date `YYYY-MM-DD` (midnight UTC).
    public init?(iso8601 text: some StringProtocol) {
        // Read in place: every content file has times, so no copy of the bytes is made.
        guard let time = text.utf8.withContiguousStorageIfAvailable(Self.iso8601)
            ?? Array(text.utf8).withUnsafeBufferPointer(Self.iso8601)
        else { return nil }
        self = time
    }

    private static func iso8601(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard i < b.count, b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count == 10 || b.count == 20,
            let year = number(0..<4), b[4] == UInt8(ascii: "-"),
            let month = number(5..<7), b[7] == UInt8(ascii: "-"),
            let day = number(8..<10)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        if b.count == 20 {
            guard b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                b[19] == UInt8(ascii: "Z"),
                let h = number(11..<13), let m = number(14..<16), let s = number(17..<19)
            else { return nil }
            (hour, minute, second) = (h, m, s)
        }
        return Timestamp(validYear: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Parses the 14 digits of a submission id, `yyyymmddhhmmss`.
    public init?(compactDigits text: some StringProtocol) {
        guard let time = text.utf8.withContiguousStorageIfAvailable(Self.compactDigits)
            ?? Array(text.utf8).withUnsafeBufferPointer(Self.compactDigits)
        else { return nil }
        self = time
    }

    private static func compactDigits(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard b.count == 14, b.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(b[$1] - 48) } }
        return Timestamp(
            validYear: number(0..<4), month: number(4..<6), day: number(6..<8),
            hour: number(8..<10), minute: number(10..<12), second: number(12..<14))
    }

    private init?(validYear year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The calendar fields of this moment in UTC.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(secondsSinceEpoch.floorDivided(by: 86_400))
        let rest = Int(secondsSinceEpoch - Int64(days) * 86_400)
        let (y, m, d) = Self.civilFromDays(days)
        return (y, m, d, rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// Whether the year has four digits or fewer (1 to 9999): then `compactDigits` has a fixed
    /// width, and its order is the order of the moments.
    public var hasFourDigitYear: Bool {
        (Self.firstOfYear1.secondsSinceEpoch..<Self.firstOfYear10000.secondsSinceEpoch).contains(secondsSinceEpoch)
    }

    private static let firstOfYear1 = Timestamp(year: 1, month: 1, day: 1)
    private static let firstOfYear10000 = Timestamp(year: 10000, month: 1, day: 1)

    /// The canonical form, `2026-11-22T13:00:00Z`.
    public var iso8601: String {
        let c = components
        guard (0...9999).contains(c.year) else {
            return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))Z"
        }
        return Self.digits(c, separated: true)
    }

    /// `20261122130000`, as used in submission ids.
    public var compactDigits: String {
        let c = components
        guard (0...9999).contains(c.year) else {
            return "\(pad(c.year, 4))\(pad(c.month))\(pad(c.day))\(pad(c.hour))\(pad(c.minute))\(pad(c.second))"
        }
        return Self.digits(c, separated: false)
    }

    /// The fields of a four-digit year as `2026-11-22T13:00:00Z` or `20261122130000`, written
    /// digit by digit into one small buffer: feeds, pages and every snippet id print times, and
    /// string interpolation cost a dozen allocations each.
    private static func digits(
        _ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int), separated: Bool
    ) -> String {
        String(unsafeUninitializedCapacity: 20) { buffer in
            var i = 0
            func put(_ value: Int, _ width: Int) {
                var divisor = width == 4 ? 1000 : 10
                while divisor > 0 {
                    buffer[i] = UInt8(truncatingIfNeeded: 48 + value / divisor % 10)
                    i += 1
                    divisor /= 10
                }
            }
            func mark(_ byte: Unicode.Scalar) {
                guard separated else { return }
                buffer[i] = UInt8(ascii: byte)
                i += 1
            }
            put(c.year, 4); mark("-"); put(c.month, 2); mark("-"); put(c.day, 2); mark("T")
            put(c.hour, 2); mark(":"); put(c.minute, 2); mark(":"); put(c.second, 2); mark("Z")
            return i
        }
    }

    public var description: String { iso8601 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }

    public static func + (t: Timestamp, span: TimeSpan) -> Timestamp {
        Timestamp(secondsSinceEpoch: t.secondsSinceEpoch + span.seconds)
    }

    /// Whole seconds from `self` to `later` (negative if `later` is earlier).
    public func seconds(until later: Timestamp) -> Int64 { later.secondsSinceEpoch - secondsSinceEpoch }

    public static let rule = "an ISO 8601 time in UTC like 2026-11-22T13:00:00Z"

    // Howard Hinnant's algorithms for the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension Int64 {
    fileprivate func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
