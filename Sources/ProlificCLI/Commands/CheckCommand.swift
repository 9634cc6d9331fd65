import ArgumentParser
import Foundation
import ProlificCore
import ProlificStore

/// `prolific check`: validates the whole content directory and reports every problem; with
/// `--since REV`, also judges what each commit since REV changed (a pull request's checks).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every file and reference of the content directory.",
        discussion: """
            Prints each problem as path:line:column: error: message and exits 1 if there were any errors.
            With --since REV, also judges every commit since REV (git log REV..HEAD): contributors may add \
            their own snippets and ballots to open rounds before their deadline and create or edit their own \
            profile; each change that breaks a rule is printed with its commit and author. See docs/rules.md, \
            "Pull-request checks".
            """)

    @Flag(help: "Print the problems as JSON.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also judge every commit since this revision, such as a pull request's base (origin/main).", valueName: "rev"))
    var since: String? = nil

    @Option(
        help: ArgumentHelp(
            "The forge account that opened the pull request (default: $\(Self.forgeLoginVariable)); "
                + "players' files must then come from the login their profile names.",
            valueName: "login"))
    var forgeLogin: String? = nil

    /// The environment variable CI sets to the pull request's forge login.
    static let forgeLoginVariable = "PROLIFIC_FORGE_LOGIN"

    @OptionGroup var global: GlobalOptions

    struct Problem: Encodable {
        var path: String?
        var line: Int?
        var column: Int?
        var severity: String
        var message: String
        /// For a change `--since` refuses: the commit's full id, its author and the rule broken.
        var commit: String? = nil
        var author: String? = nil
        var rule: String? = nil
    }

    func validate() throws {
        if let forgeLogin, !GitIdentity.isLogin(forgeLogin) {
            throw ValidationError("--forge-login '\(forgeLogin)' is not \(GitIdentity.loginRule)")
        }
        if forgeLogin != nil && since == nil { throw ValidationError("--forge-login goes with --since") }
    }

    func run() throws {
        try Terminal.guarded {
            // What is read and checked is freed by the process's exit: the digests of every file
            // read and the content took a core about 0.25 s at the end of a large game's check.
            Parallel.leaveReleasedToExit()
            var reader = global.game.reader
            // The seals are tested against the bytes the loader read and parsed.
            let digests = ReadDigests()
            Parallel.release(digests)
            reader.digests = digests
            // First, so that a bad revision is one clear error rather than a line after a report.
            let changes: PullRequestCheck.Report?
            do {
                changes = try since.map { revision throws(Diagnostics) in
                    try PullRequestCheck(layout: reader.layout).run(since: revision, forgeLogin: try Self.login(forgeLogin))
                }
            } catch let diagnostics as Diagnostics {
                // With --json, standard output is a list of problems even then; the line goes to stderr too.
                if json {
                    print(
                        try Terminal.json(
                            diagnostics.all.map {
                                Problem(
                                    path: $0.path, line: $0.position?.line, column: $0.position?.column,
                                    severity: $0.severity.rawValue, message: $0.message)
                            }))
                }
                throw diagnostics
            }
            let (content, loadProblems) = reader.loadAll()
            var problems = loadProblems
            if let content {
                // Every file is read, none taken from a cache. Git's evidence is taken from the one
                // `build` and `close` keep, with the commits since added (a whole read of a long
                // history takes a minute or more, and gives the same), but not saved: `check` changes nothing.
                let evidence = reader.evidence(content.config, kept: true, saving: false)
                // The seals are checked beside the rules, whose replay of every tally runs on one
                // core (1.5 s of a large game's `check`, with the other core idle).
                let (sealed, ruled) = Parallel.beside(
                    { RoundSeal(layout: reader.layout).problems(in: content, loaderDigests: digests) },
                    { ContentCheck.problems(in: content.countingRecordedBallots(), evidence: evidence) })
                problems += ruled + sealed
                Parallel.release(content)
            }
            problems.sort()
            let refused = changes?.problems ?? []
            let errors = problems.filter { $0.severity == .error }.count
            if json {
                let listed =
                    problems.map {
                        Problem(
                            path: $0.path, line: $0.position?.line ?? ($0.path == nil ? nil : 1),
                            column: $0.position?.column ?? ($0.path == nil ? nil : 1), severity: $0.severity.rawValue,
                            message: $0.message)
                    }
                    + refused.map {
                        Problem(
                            path: $0.path, line: $0.position?.line ?? 1, column: $0.position?.column ?? 1,
                            severity: Diagnostic.Severity.error.rawValue, message: $0.message, commit: $0.commit, author: $0.author,
                            rule: $0.rule.rawValue)
                    }
                print(try Terminal.json(listed))
            } else {
                for problem in problems { print(problem.description) }
                for change in refused { print(change.diagnostic.description) }
                if let content {
                    let rounds = content.projects.reduce(0) { $0 + $1.rounds.count }
                    let snippets = content.projects.reduce(0) { $0 + $1.rounds.reduce(0) { $0 + $1.submissions.count } }
                    let ballots = content.projects.reduce(0) { $0 + $1.rounds.reduce(0) { $0 + $1.ballots.count } }
                    Terminal.error(
                        "Checked \(Self.count(content.users.count, "user")), \(Self.count(content.projects.count, "project")), "
                            + "\(Self.count(rounds, "round")), \(Self.count(snippets, "snippet")) and \(Self.count(ballots, "ballot")): \(errors) error\(errors == 1 ? "" : "s"), "
                            + "\(problems.count - errors) warning\(problems.count - errors == 1 ? "" : "s").")
                }
                if let changes, let since {
                    Terminal.error(
                        "Checked \(changes.commits) commit\(changes.commits == 1 ? "" : "s") since '\(since)': "
                            + "\(refused.count) change\(refused.count == 1 ? "" : "s") not allowed.")
                }
            }
            if errors > 0 || !refused.isEmpty { throw ExitCode.failure }
        }
    }

    /// `--forge-login`, else a non-empty $PROLIFIC_FORGE_LOGIN, checked the same way.
    static func login(_ option: String?) throws(Diagnostics) -> String? {
        if let option { return option }
        guard let value = ProcessInfo.processInfo.environment[forgeLoginVariable], !value.isEmpty else { return nil }
        guard GitIdentity.isLogin(value) else {
            throw Diagnostics([.plain("$\(forgeLoginVariable) '\(value)' is not \(GitIdentity.loginRule)")])
        }
        return value
    }

    /// `1 user`, `3 users`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
