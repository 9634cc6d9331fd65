import FuzzSupport
import ProlificCore

/// Times and lengths are strict and total: whatever parses prints back canonically and parses to
/// the same value, so files the CLI writes never change spelling.
enum TimeChecks {
    static func run(_ text: some StringProtocol) {
        if let time = Timestamp(iso8601: text) {
            let expected = text.utf8.count == 10 ? String(text) + "T00:00:00Z" : String(text)
            Property.require(time.iso8601 == expected, "\(String(reflecting: text)) prints as \(time.iso8601)")
            checkRoundTrips(time)
        }
        if let time = Timestamp(compactDigits: text) {
            Property.require(time.compactDigits == text, "\(String(reflecting: text)) prints as \(time.compactDigits)")
            checkRoundTrips(time)
        }
        if let span = TimeSpan(text) {
            Property.require(
                span.seconds > 0 && span.seconds <= TimeSpan.maximumSeconds && span.seconds % 60 == 0,
                "\(String(reflecting: text)) is \(span.seconds) seconds")
            Property.require(TimeSpan(span.description) == span, "\(span) doesn't read back as itself")
        }
    }

    /// Both printed forms and the calendar fields give back the same moment.
    static func checkRoundTrips(_ time: Timestamp) {
        Property.require(Timestamp(iso8601: time.iso8601) == time, "\(time) doesn't read back from ISO 8601")
        Property.require(Timestamp(compactDigits: time.compactDigits) == time, "\(time) doesn't read back from \(time.compactDigits)")
        let c = time.components
        let rebuilt = Timestamp(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second)
        Property.require(rebuilt == time, "\(time)'s calendar fields give \(rebuilt)")
        if let longest = TimeSpan(seconds: TimeSpan.maximumSeconds) {
            Property.require(time < time + longest, "adding a span to \(time) doesn't move it forward")
        }
    }
}
