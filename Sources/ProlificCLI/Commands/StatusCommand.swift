import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific status [PROJECT]`: open rounds, their deadlines and counts, what is due, and for
/// moderators the hidden snippets and the reports waiting.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show open rounds, their deadlines and counts, what is due, hidden snippets and reports waiting.")

    @Argument(help: "Show only this project, with its open round's snippets and voters.", transform: Parse.slug)
    var project: Slug? = nil

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var global: GlobalOptions

    struct Report: Encodable {
        var now: String
        var projects: [Entry]
        var due: [String]
        /// Every hidden snippet, with who hid it, when and why.
        var hidden: [HiddenEntry]
        /// The moderation queue: reports whose snippet isn't hidden, oldest first.
        var reports: [QueuedReport]
        var problems: Int
    }

    struct Entry: Encodable {
        var slug: String
        var title: String
        var status: String
        var roundsClosed: Int
        var roundLimit: Int
        var round: OpenRound?
    }

    struct OpenRound: Encodable {
        var number: Int
        var opened: String
        var closes: String
        var due: Bool
        var submissions: [String]
        var voters: [String]
    }

    func run() throws {
        try Terminal.guarded {
            let game = global.game
            _ = try game.reader.loadConfig()
            var projects: [Project] = []
            var problems: [Diagnostic] = []
            if let project {
                projects = [try game.reader.loadProjectStrictly(project)]
            } else {
                let entries = (try? ProlificStore.FileSystem.list(game.layout.projectsFolder)) ?? nil
                for entry in entries ?? [] {
                    guard let slug = Slug(entry.name) else { continue }
                    let (loaded, found) = game.reader.loadProject(slug, depth: .latest)
                    problems += found.filter { $0.severity == .error }
                    if let loaded { projects.append(loaded) }
                }
            }
            let now = game.now
            let moderation = game.moderation(of: projects)
            problems += project == nil ? moderation.problems : []
            let report = Report(
                now: now.iso8601,
                projects: projects.map { p in
                    let complete = p.status == .complete || Closing.isComplete(p)
                    return Entry(
                        slug: p.slug.rawValue, title: p.title, status: complete ? "complete" : "open",
                        roundsClosed: p.closedRounds.count, roundLimit: p.roundLimit,
                        round: p.openRound.map { r in
                            OpenRound(
                                number: r.number.value, opened: r.opened.iso8601, closes: r.closes.iso8601,
                                due: r.closes <= now, submissions: Moderation.shown(r).submissions.map(\.id.rawValue),
                                voters: r.ballots.map(\.voter.rawValue).sorted())
                        })
                },
                due: Schedule.dueProjects(projects, now: now).map(\.slug.rawValue),
                hidden: Self.hidden(in: projects),
                reports: moderation.queue.filter { project == nil || $0.project == project }.map(QueuedReport.init),
                problems: problems.count)
            print(json ? try Terminal.json(report) : text(report, detailed: project != nil))
            // The overview of what could be read, then what couldn't, and a failing exit: a
            // broken file is not a state to report as fine.
            if !problems.isEmpty {
                for problem in problems.sorted() { Terminal.error(problem.description) }
                Terminal.error("\(problems.count) problem\(problems.count == 1 ? "" : "s") in the content; run 'prolific check'.")
                throw ExitCode.failure
            }
        }
    }

    func text(_ report: Report, detailed: Bool) -> String {
        guard !report.projects.isEmpty else { return "No projects yet. Start one with 'prolific project new'." }
        var rows = [["PROJECT", "ROUND", "CLOSES", "SNIPPETS", "BALLOTS", "STATE"]]
        for p in report.projects {
            guard let r = p.round else {
                rows.append([p.slug, "-", "-", "-", "-", p.status == "complete" ? "complete after \(p.roundsClosed) rounds" : "between rounds"])
                continue
            }
            rows.append([
                p.slug, "\(r.number)/\(p.roundLimit)", r.closes, String(r.submissions.count), String(r.voters.count),
                r.due ? "due" : "open",
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingTrailingSpaces()
        }
        if detailed, let p = report.projects.first, let r = p.round {
            lines.append("")
            lines.append("Round \(r.number) of '\(p.slug)', opened \(r.opened):")
            lines.append(r.submissions.isEmpty ? "  no snippets yet" : r.submissions.map { "  snippet \($0)" }.joined(separator: "\n"))
            lines.append(r.voters.isEmpty ? "  no ballots yet" : "  ballots from " + r.voters.map { "@\($0)" }.joined(separator: ", "))
        }
        if !report.due.isEmpty {
            lines.append("")
            lines.append("Due at \(report.now): \(report.due.joined(separator: ", ")). Close with 'prolific close --due'.")
        }
        lines += moderationLines(report)
        return lines.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
