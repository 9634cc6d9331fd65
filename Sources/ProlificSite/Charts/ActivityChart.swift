import ProlificCore

/// Submissions and ballots per week as an inline SVG bar chart: no script, readable by screen
/// readers through its title and description, coloured by the page's stylesheet so dark mode
/// applies.
struct ActivityChart {
    var submissions: [Timestamp]
    var ballots: [Timestamp]
    /// The chart ends with the week that holds this moment, and counts nothing after it.
    var until: Timestamp
    var weeks: Int = 26
    /// Makes the SVG's element ids unique on a page.
    var id: String

    static let week: Int64 = 7 * 86_400

    /// The Monday 00:00 UTC that starts the calendar week holding `t`. Weeks are calendar weeks,
    /// not the seven days before `until`, so the chart changes when its data or the week does,
    /// not at every build.
    static func weekStart(_ t: Timestamp) -> Int64 {
        let day: Int64 = 86_400
        let days = t.secondsSinceEpoch >= 0 ? t.secondsSinceEpoch / day : (t.secondsSinceEpoch - day + 1) / day
        // 1970-01-01 was a Thursday: three days after a Monday.
        let sinceMonday = ((days + 3) % 7 + 7) % 7
        return (days - sinceMonday) * day
    }

    /// Counts per week, oldest first.
    func buckets(_ times: [Timestamp]) -> [Int] {
        var counts = Array(repeating: 0, count: weeks)
        let end = until.secondsSinceEpoch, lastWeek = Self.weekStart(until)
        for t in times where t.secondsSinceEpoch <= end {
            let age = Int((lastWeek - Self.weekStart(t)) / Self.week)
            if age < weeks { counts[weeks - 1 - age] += 1 }
        }
        return counts
    }

    var svg: String {
        let s = buckets(submissions), b = buckets(ballots)
        let peak = max(1, (s + b).max() ?? 1)
        let (width, height, base) = (640, 160, 140)
        let slot = Double(width) / Double(weeks)
        let barWidth = max(1.0, slot / 2 - 1)
        let totalS = s.reduce(0, +), totalB = b.reduce(0, +)
        let summary = "\(Display.count(totalS, "snippet")) and \(Display.count(totalB, "ballot")) in the last \(weeks) weeks; the busiest week had \(peak)."
        var out = """
            <svg class="activity" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="\(id)-title \(id)-desc" xmlns="http://www.w3.org/2000/svg">
            <title id="\(id)-title">Activity per week</title>
            <desc id="\(id)-desc">\(XML.escape(summary))</desc>
            <line class="axis" x1="0" y1="\(base)" x2="\(width)" y2="\(base)"/>

            """
        func scaled(_ n: Int) -> Double { Double(n) / Double(peak) * Double(base - 10) }
        for week in 0..<weeks {
            let x = Double(week) * slot + 1
            let startOfWeek = Timestamp(secondsSinceEpoch: Self.weekStart(until) - Int64(weeks - 1 - week) * Self.week)
            let label = "Week from \(Display.date(startOfWeek))"
            if s[week] > 0 {
                out += bar(x: x, h: scaled(s[week]), w: barWidth, base: base, cls: "bar-snippets", title: "\(label): \(Display.count(s[week], "snippet"))")
            }
            if b[week] > 0 {
                out += bar(x: x + barWidth, h: scaled(b[week]), w: barWidth, base: base, cls: "bar-ballots", title: "\(label): \(Display.count(b[week], "ballot"))")
            }
        }
        out += "<text class=\"chart-label\" x=\"0\" y=\"\(height - 4)\">\(weeks) weeks ago</text>"
        out += "<text class=\"chart-label\" x=\"\(width)\" y=\"\(height - 4)\" text-anchor=\"end\">this week</text>\n</svg>"
        return out
    }

    private func bar(x: Double, h: Double, w: Double, base: Int, cls: String, title: String) -> String {
        let hh = max(1.0, h)
        return "<rect class=\"\(cls)\" x=\"\(Self.number(x))\" y=\"\(Self.number(Double(base) - hh))\" width=\"\(Self.number(w))\" height=\"\(Self.number(hh))\"><title>\(XML.escape(title))</title></rect>\n"
    }

    /// One decimal, enough for a chart and stable across platforms.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// The chart for some projects' rounds.
    static func of(_ projects: [Project], until: Timestamp, id: String) -> ActivityChart {
        var submissions: [Timestamp] = [], ballots: [Timestamp] = []
        // Read in place, by index: copies of the projects and rounds retained all they hold.
        for p in projects.indices {
            for r in projects[p].rounds.indices {
                for s in projects[p].rounds[r].submissions.indices { submissions.append(projects[p].rounds[r].submissions[s].submitted) }
                projects[p].rounds[r].ballotList.forEachStamp { _, cast in ballots.append(cast) }
            }
        }
        return ActivityChart(submissions: submissions, ballots: ballots, until: until, id: id)
    }

    /// How many of `project`'s snippets and ballots fall in the week holding `until` and no
    /// later than it. With the project's files and the week, that is all its chart takes from
    /// the moment (`buckets` counts nothing after `until`, and every earlier week is past): a
    /// page keyed by the moment needs no more of it (`ProjectPages.inputs`).
    static func thisWeek(of project: Project, until: Timestamp) -> (snippets: Int, ballots: Int) {
        let start = weekStart(until), end = until.secondsSinceEpoch
        var snippets = 0, ballots = 0
        // Read in place, by index: a copy of each round would retain all it holds.
        for r in project.rounds.indices {
            for s in project.rounds[r].submissions.indices {
                let t = project.rounds[r].submissions[s].submitted.secondsSinceEpoch
                if t >= start && t <= end { snippets += 1 }
            }
            project.rounds[r].ballotList.forEachStamp { _, cast in
                let t = cast.secondsSinceEpoch
                if t >= start && t <= end { ballots += 1 }
            }
        }
        return (snippets, ballots)
    }
}
