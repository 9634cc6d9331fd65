import ProlificCore

/// `calendar.ics` (RFC 5545): the upcoming round deadlines, for calendar apps to subscribe to.
///
/// Each deadline is an event at the moment the round closes. UIDs name the project and round, so
/// an extended deadline updates the same event; DTSTAMP is when the round opened, so the file only
/// changes when the deadlines do.
struct ICalendar {
    let site: SiteModel

    /// The file, or the previous site's file of it when its inputs are those the last build
    /// recorded (`memory`) and that file is intact: most builds leave the deadlines as they were,
    /// and the file was made whole at each one (655 KB of 2,000 events on the large benchmark,
    /// 1 % of a rebuild's CPU). It uses no template: its fingerprint leaves the theme out.
    func file(memory: PageMemory?) -> OutputFile {
        let deadlines = Deadline.upcoming(in: site)
        let fingerprint = PageFingerprint.of(template: "calendar.ics", inputs: inputs(deadlines), theme: [])
        if let kept = memory?.kept(SitePath.calendarFeed, fingerprint) { return kept }
        var file = file(deadlines)
        file.fingerprint = fingerprint
        return file
    }

    /// What the file is a function of, apart from the binary: the site's title and address,
    /// and each deadline's project (slug and title) and round (number, opening and closing).
    /// The moment, and which stories are listed and complete, count through the list itself.
    /// What `file(_:)` reads must be here, or a rebuild keeps a stale calendar.
    func inputs(_ deadlines: [Deadline]) -> PageInputs {
        var inputs = PageInputs()
        inputs.add(site.config.title)
        inputs.add(site.config.baseURL)
        inputs.list(deadlines.count)
        for deadline in deadlines {
            inputs.add(deadline.project.slug.rawValue)
            inputs.add(deadline.project.title)
            inputs.add(deadline.round.number.value)
            inputs.add(Int(deadline.round.opened.secondsSinceEpoch))
            inputs.add(Int(deadline.round.closes.secondsSinceEpoch))
        }
        return inputs
    }

    func file(_ deadlines: [Deadline]) -> OutputFile {
        let host = Self.host(of: site.config.baseURL)
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Prolific//Round deadlines//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + Self.text("\(site.config.title): round deadlines"),
        ]
        for deadline in deadlines {
            let project = deadline.project, round = deadline.round
            let url = site.config.baseURL + SitePath.pretty(SitePath.project(project.slug))
            lines += [
                "BEGIN:VEVENT",
                "UID:\(project.slug)-round-\(round.number.folderName)@\(host)",
                "DTSTAMP:\(Self.time(round.opened))",
                "DTSTART:\(Self.time(round.closes))",
                "SUMMARY:" + Self.text("Round \(round.number.value) of \(project.title) closes"),
                "DESCRIPTION:" + Self.text("Last moment to submit a snippet or vote in round \(round.number.value) of \(project.title). \(url)"),
                "URL:" + Self.escapeURI(url),
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return OutputFile(path: SitePath.calendarFeed, text: lines.map(Self.fold).joined(separator: "\r\n") + "\r\n")
    }

    /// `20261122T120000Z`.
    static func time(_ t: Timestamp) -> String {
        let c = t.components
        return "\(c.year)\(Display.two(c.month))\(Display.two(c.day))T\(Display.two(c.hour))\(Display.two(c.minute))\(Display.two(c.second))Z"
    }

    /// A TEXT value: backslash, semicolon, comma and line breaks escaped; control characters dropped.
    static func text(_ value: String) -> String {
        // Nearly every title has nothing to escape or drop, and is taken as it is: 2,000 open
        // rounds' events went scalar by scalar at every build of large.
        let plain = !value.utf8.contains { byte in
            byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
        }
        if plain { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A URI value has no escaping of its own: drop what could break the line.
    static func escapeURI(_ url: String) -> String {
        String(String.UnicodeScalarView(url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
    }

    /// Lines longer than 75 octets continue on the next line after a space, never splitting a
    /// UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var line = line
        return line.withUTF8 { utf8 in
            // Short lines, nearly all of them, stay as they are.
            guard utf8.count > 75 else { return String(decoding: utf8, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + utf8.count / 37)
            var count = 0, i = 0
            while i < utf8.count {
                // A scalar's length, from its first byte (the text is valid UTF-8).
                let lead = utf8[i]
                let size = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                if count + size > 75 {
                    out += [0x0D, 0x0A, 0x20]
                    count = 1
                }
                out += utf8[i..<min(utf8.count, i + size)]
                count += size
                i += size
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `https://example.org/stories/` → `example.org`.
    static func host(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "prolific.invalid" }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != ":" }
        return host.isEmpty ? "prolific.invalid" : String(host)
    }
}
