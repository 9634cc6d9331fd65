import ProlificCore

/// The calendar page: upcoming round deadlines as month grids, each marked day linking to its
/// entry in the agenda below (a grid of seven columns has no room for titles on a phone).
struct CalendarPages {
    let site: SiteModel
    /// The most months the page shows.
    static let monthLimit = 12

    func job() -> PageJob {
        let context = PageContext(
            site: site.config, now: site.now, path: SitePath.calendar, title: "Calendar",
            description: "Upcoming round deadlines on \(site.config.title).", section: .calendar,
            showsMoment: true)
        return PageJob("calendar", context, inputs: { inputs() }) { values() }
    }

    /// What the grids and the agenda are made of, beside the page's common values (the moment
    /// among them, as the page shows it): each deadline's story, round, time and snippet count,
    /// soonest first. A build run by the clock makes the page again each time.
    func inputs() -> PageInputs {
        var inputs = PageInputs()
        let listed = site.listed
        inputs.list(site.deadlines.count)
        for deadline in site.deadlines {
            let (project, round) = (deadline.project, deadline.round)
            inputs.add(listed[project].slug.rawValue)
            inputs.add(listed[project].title)
            inputs.add(listed[project].rounds[round].number.value)
            inputs.add(deadline.closes.iso8601)
            inputs.add(listed[project].rounds[round].submissions.count)
        }
        return inputs
    }

    static func dayKey(_ t: Timestamp) -> String { String(t.iso8601.prefix(10)) }

    func values() -> [String: Any] {
        let deadlines = site.deadlines
        var byDay: [String: [Deadline]] = [:]
        for deadline in deadlines { byDay[Self.dayKey(deadline.closes), default: []].append(deadline) }
        let start = site.now.components
        let last = deadlines.last?.closes.components ?? start
        var months: [[String: Any]] = []
        var (year, month) = (start.year, start.month)
        while (year, month) <= (last.year, last.month), months.count < Self.monthLimit {
            months.append(monthValues(year: year, month: month, byDay: byDay, today: Self.dayKey(site.now)))
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
        }
        let listed = site.listed
        let agenda = byDay.keys.sorted().map { key -> [String: Any] in
            let items = byDay[key] ?? []
            return [
                "anchor": "d-\(key)", "iso": key,
                "display": items.first.map { Display.date($0.closes) } ?? key,
                "items": items.map { d -> [String: Any] in
                    [
                        "title": listed[d.project].title, "url": SitePath.project(listed[d.project].slug),
                        "round": listed[d.project].rounds[d.round].number.value,
                        "timeISO": d.closes.iso8601, "time": Display.time(d.closes),
                        "snippetsLabel": Display.count(listed[d.project].rounds[d.round].submissions.count, "snippet"),
                    ]
                },
            ]
        }
        return [
            "months": months, "hasDeadlines": !deadlines.isEmpty, "agenda": agenda,
            "icsURL": SitePath.calendarFeed, "icsAbsolute": site.config.baseURL + SitePath.calendarFeed,
        ]
    }

    /// A month as weeks of seven days, Monday first; days outside the month are blank.
    func monthValues(year: Int, month: Int, byDay: [String: [Deadline]], today: String) -> [String: Any] {
        let first = Timestamp(year: year, month: month, day: 1)
        let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
        let days = Int(first.seconds(until: Timestamp(year: nextYear, month: nextMonth, day: 1)) / 86_400)
        // 1970-01-01 was a Thursday: weekday 0 = Monday.
        let epochDay = Int(first.secondsSinceEpoch / 86_400) - (first.secondsSinceEpoch % 86_400 < 0 ? 1 : 0)
        let lead = ((epochDay + 3) % 7 + 7) % 7
        var cells: [[String: Any]] = Array(repeating: ["isBlank": true], count: lead)
        for day in 1...days {
            let key = "\(year)-\(Display.two(month))-\(Display.two(day))"
            let count = byDay[key]?.count ?? 0
            cells.append([
                "isBlank": false, "day": day, "hasDeadlines": count > 0, "anchor": "d-\(key)",
                "isToday": key == today, "label": "\(day) \(Display.months[month - 1]): \(Display.count(count, "deadline"))",
            ])
        }
        while cells.count % 7 != 0 { cells.append(["isBlank": true]) }
        let weeks = stride(from: 0, to: cells.count, by: 7).map { ["days": Array(cells[$0..<$0 + 7])] }
        return ["name": "\(Self.monthNames[month - 1]) \(year)", "id": "m-\(year)-\(Display.two(month))", "weeks": weeks]
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
}
