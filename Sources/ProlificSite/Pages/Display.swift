import ProlificCore

/// How times, counts and durations read on a page.
enum Display {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `22 Nov 2026, 13:05 UTC`.
    static func time(_ t: Timestamp) -> String {
        let c = t.components
        return "\(c.day) \(months[c.month - 1]) \(c.year), \(two(c.hour)):\(two(c.minute)) UTC"
    }

    /// `22 Nov 2026`.
    static func date(_ t: Timestamp) -> String {
        let c = t.components
        return "\(c.day) \(months[c.month - 1]) \(c.year)"
    }

    /// `3 days left`, `5 hours left`, `12 minutes left`, or `the deadline has passed`.
    static func timeLeft(from now: Timestamp, to deadline: Timestamp) -> String {
        let seconds = now.seconds(until: deadline)
        guard seconds > 0 else { return "the deadline has passed" }
        if seconds >= 2 * 86_400 { return "\(seconds / 86_400) days left" }
        if seconds >= 2 * 3600 { return "\(seconds / 3600) hours left" }
        return count(max(1, Int(seconds / 60)), "minute") + " left"
    }

    /// `1 snippet`, `3 snippets`.
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
