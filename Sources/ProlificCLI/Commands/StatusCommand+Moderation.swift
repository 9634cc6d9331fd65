import ProlificCore

/// The moderators' part of `status`: hidden snippets with who, when and why, and the reports
/// waiting. Both come from the content (round.md files and reports/), so any maintainer sees the same.
extension StatusCommand {
    struct HiddenEntry: Encodable {
        var project: String
        var round: Int
        var snippet: String
        var by: String
        var at: String
        var reason: String
    }

    struct QueuedReport: Encodable {
        var id: String
        var path: String
        var project: String
        var round: Int?
        var snippet: String
        var reason: String

        init(_ report: ProlificCore.Report) {
            id = report.id.rawValue
            path = report.origin.path
            project = report.project.rawValue
            round = report.round?.value
            snippet = report.snippet.rawValue
            reason = report.reason
        }
    }

    static func hidden(in projects: [Project]) -> [HiddenEntry] {
        projects.flatMap { project in
            project.rounds.flatMap { round in
                round.hidden.map { entry in
                    HiddenEntry(
                        project: project.slug.rawValue, round: round.number.value, snippet: entry.id.rawValue, by: entry.by,
                        at: entry.at.iso8601, reason: entry.reason)
                }
            }
        }
    }

    func moderationLines(_ report: Report) -> [String] {
        var lines: [String] = []
        if !report.hidden.isEmpty {
            lines += ["", "Hidden (\(report.hidden.count)):"]
            for entry in report.hidden {
                lines.append("  \(entry.project) round \(entry.round): \(entry.snippet) by \(entry.by) at \(entry.at): \(entry.reason)")
            }
        }
        if !report.reports.isEmpty {
            lines += ["", "Reports waiting (\(report.reports.count)); 'prolific moderate hide' or 'prolific moderate dismiss':"]
            for queued in report.reports {
                lines.append("  \(queued.id) on \(queued.project) \(queued.snippet): \(Self.summary(queued.reason))")
            }
        }
        return lines
    }

    /// A report's reason in one line: its first line of text, cut at 80 characters.
    static func summary(_ markdown: String) -> String {
        let line = markdown.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }
}
