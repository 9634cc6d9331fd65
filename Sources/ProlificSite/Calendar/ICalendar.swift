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
        let deadlines = site.deadlines
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
        // Read in place, by index: a copy of a project would retain all it holds.
        let listed = site.listed
        for deadline in deadlines {
            let (p, r) = (deadline.project, deadline.round)
            inputs.add(listed[p].slug.rawValue)
            inputs.add(listed[p].title)
            inputs.add(listed[p].rounds[r].number.value)
            inputs.add(Int(listed[p].rounds[r].opened.secondsSinceEpoch))
            inputs.add(Int(listed[p].rounds[r].closes.secondsSinceEpoch))
        }
        return inputs
    }

    /// Written as bytes, each content line folded straight into the file's buffer. Made as
    /// 16,000 strings, folded one by one and joined, it was 47 `perf` samples (about 15 ms) of a
    /// rebuild after a `close` on large, now 15, on one core while the other ran out of feeds.
    func file(_ deadlines: [Deadline]) -> OutputFile {
        let host = Self.host(of: site.config.baseURL)
        let listed = site.listed
        var out: [UInt8] = []
        out.reserveCapacity(512 + deadlines.count * 400)
        // One content line, unfolded, then folded into `out`.
        var line: [UInt8] = []
        func end() {
            Self.appendFolded(line, to: &out)
            line.removeAll(keepingCapacity: true)
        }
        for header in ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Prolific//Round deadlines//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"] {
            line += header.utf8
            end()
        }
        line += "X-WR-CALNAME:".utf8
        Self.append(text: site.config.title, to: &line)
        line += ": round deadlines".utf8
        end()
        for deadline in deadlines {
            let (p, r) = (deadline.project, deadline.round)
            let (slug, title, number) = (listed[p].slug, listed[p].title, listed[p].rounds[r].number)
            let url = site.config.baseURL + SitePath.pretty(SitePath.project(slug))
            // "3 of <title>", escaped once for the summary and the description: only the title
            // and the address of these TEXT values may hold what needs escaping.
            var roundOfTitle = Array(String(number.value).utf8)
            roundOfTitle += " of ".utf8
            Self.append(text: title, to: &roundOfTitle)
            line += "BEGIN:VEVENT".utf8
            end()
            line += "UID:".utf8
            line += slug.rawValue.utf8
            line += "-round-".utf8
            line += number.folderName.utf8
            line += "@".utf8
            line += host.utf8
            end()
            line += "DTSTAMP:".utf8
            Self.append(time: listed[p].rounds[r].opened, to: &line)
            end()
            line += "DTSTART:".utf8
            Self.append(time: deadline.closes, to: &line)
            end()
            line += "SUMMARY:Round ".utf8
            line += roundOfTitle
            line += " closes".utf8
            end()
            line += "DESCRIPTION:Last moment to submit a snippet or vote in round ".utf8
            line += roundOfTitle
            line += ". ".utf8
            Self.append(text: url, to: &line)
            end()
            line += "URL:".utf8
            Self.append(uri: url, to: &line)
            end()
            line += "END:VEVENT".utf8
            end()
        }
        line += "END:VCALENDAR".utf8
        end()
        return OutputFile(path: SitePath.calendarFeed, contents: out)
    }

    // Each value is appended to the line being made: the file is bytes, and 16,000 lines made
    // as strings were most of its time.

    /// Appends `t` as a UTC DATE-TIME, `20261122T120000Z`.
    static func append(time t: Timestamp, to out: inout [UInt8]) {
        let c = t.components
        out += String(c.year).utf8
        appendTwoDigits(c.month, to: &out)
        appendTwoDigits(c.day, to: &out)
        out.append(UInt8(ascii: "T"))
        appendTwoDigits(c.hour, to: &out)
        appendTwoDigits(c.minute, to: &out)
        appendTwoDigits(c.second, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `n` with a leading zero below 10 (`Display.two`).
    private static func appendTwoDigits(_ n: Int, to out: inout [UInt8]) {
        guard (0..<100).contains(n) else {
            out += String(n).utf8
            return
        }
        out.append(UInt8(ascii: "0") + UInt8(n / 10))
        out.append(UInt8(ascii: "0") + UInt8(n % 10))
    }

    /// Appends `value` as a TEXT value: backslash, semicolon, comma and line breaks escaped,
    /// control characters dropped. All of those are ASCII, which never occurs inside a longer
    /// UTF-8 sequence, so it goes byte by byte.
    static func append(text value: String, to out: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "\n"):
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "n"))
            case 0..<0x20, 0x7F:
                continue
            default:
                out.append(byte)
            }
        }
    }

    /// Appends `url` as a URI value, which has no escaping of its own: what could break the line
    /// (spaces, control characters) is dropped, byte by byte as `append(text:to:)` goes.
    static func append(uri url: String, to out: inout [UInt8]) {
        for byte in url.utf8 where byte > 0x20 && byte != 0x7F { out.append(byte) }
    }

    /// Appends the content line `utf8` (valid UTF-8), then its CRLF. A line longer than 75
    /// octets continues on the next line after a space, never splitting a UTF-8 sequence.
    /// Line breaks go a byte at a time: an array literal for each made a new array for each line.
    static func appendFolded(_ utf8: [UInt8], to out: inout [UInt8]) {
        // Short lines, nearly all of them, go as they are.
        guard utf8.count > 75 else {
            out += utf8
            out.append(0x0D)
            out.append(0x0A)
            return
        }
        var count = 0, i = 0
        while i < utf8.count {
            // A scalar's length, from its first byte.
            let lead = utf8[i]
            let size = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            if count + size > 75 {
                out.append(0x0D)
                out.append(0x0A)
                out.append(0x20)
                count = 1
            }
            for j in i..<min(utf8.count, i + size) { out.append(utf8[j]) }
            count += size
            i += size
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// `https://example.org/stories/` → `example.org`.
    static func host(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "prolific.invalid" }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != ":" }
        return host.isEmpty ? "prolific.invalid" : String(host)
    }
}
