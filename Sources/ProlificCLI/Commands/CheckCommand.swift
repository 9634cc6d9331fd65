import ArgumentParser
import ProlificCore
import ProlificStore

/// `prolific check`: validates the whole content directory and reports every problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every file and reference of the content directory.",
        discussion: "Prints each problem as path:line:column: error: message and exits 1 if there were any errors.")

    @Flag(help: "Print the problems as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    struct Problem: Encodable {
        var path: String?
        var line: Int?
        var column: Int?
        var severity: String
        var message: String
    }

    func run() throws {
        try Terminal.guarded {
            let reader = global.game.reader
            let (content, loadProblems) = reader.loadAll()
            var problems = loadProblems
            if let content {
                problems += ContentCheck.problems(in: content, evidence: reader.evidence(content.config))
            }
            problems.sort()
            let errors = problems.filter { $0.severity == .error }.count
            if json {
                print(
                    try Terminal.json(
                        problems.map {
                            Problem(
                                path: $0.path, line: $0.position?.line ?? ($0.path == nil ? nil : 1),
                                column: $0.position?.column ?? ($0.path == nil ? nil : 1), severity: $0.severity.rawValue,
                                message: $0.message)
                        }))
            } else {
                for problem in problems { print(problem.description) }
                if let content {
                    let rounds = content.projects.reduce(0) { $0 + $1.rounds.count }
                    let snippets = content.projects.reduce(0) { $0 + $1.rounds.reduce(0) { $0 + $1.submissions.count } }
                    let ballots = content.projects.reduce(0) { $0 + $1.rounds.reduce(0) { $0 + $1.ballots.count } }
                    Terminal.error(
                        "Checked \(content.users.count) users, \(content.projects.count) projects, \(rounds) rounds, "
                            + "\(snippets) snippets and \(ballots) ballots: \(errors) error\(errors == 1 ? "" : "s"), "
                            + "\(problems.count - errors) warning\(problems.count - errors == 1 ? "" : "s").")
                }
            }
            if errors > 0 { throw ExitCode.failure }
        }
    }
}
