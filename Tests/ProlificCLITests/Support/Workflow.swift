import Foundation
import Yams

/// A GitHub Actions workflow file, read for its `run:` steps, which the recipe tests run locally.
struct Workflow {
    struct Step {
        var name: String
        var run: String?
        var uses: String?
        /// The step's `env`, with the workflow's and the job's under it.
        var environment: [String: String]

        /// Whether the step can run here: not an action, and not marked as needing the network.
        var runsOffline: Bool { run != nil && environment["NEEDS_NETWORK"] != "true" }
    }

    var steps: [Step]

    /// The steps of every job, in order. `${{ … }}` in `env` values is replaced from `expressions`;
    /// one the test doesn't know is an error, and so is any inside a `run:` script.
    init(contentsOf url: URL, expressions: [String: String]) throws {
        guard let workflow = try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any],
            let jobs = workflow["jobs"] as? [String: Any]
        else { throw Shell.Failure(description: "\(url.lastPathComponent) has no jobs") }
        let top = try Self.environment(workflow["env"], expressions)
        steps = []
        for name in jobs.keys.sorted() {
            guard let job = jobs[name] as? [String: Any], let list = job["steps"] as? [[String: Any]] else { continue }
            let shared = top.merging(try Self.environment(job["env"], expressions)) { _, job in job }
            for step in list {
                let run = step["run"] as? String
                if let run, run.contains("${{") {
                    throw Shell.Failure(description: "a run: script uses ${{ … }}; pass it through env: \(run)")
                }
                steps.append(
                    Step(
                        name: step["name"] as? String ?? run ?? "", run: run, uses: step["uses"] as? String,
                        environment: shared.merging(try Self.environment(step["env"], expressions)) { _, step in step }))
            }
        }
    }

    private static func environment(_ value: Any?, _ expressions: [String: String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in value as? [String: Any] ?? [:] {
            var text = "\(value)"
            while let start = text.range(of: "${{"), let end = text.range(of: "}}", range: start.upperBound..<text.endIndex) {
                let expression = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
                guard let replacement = expressions[expression] else {
                    throw Shell.Failure(description: "the test doesn't know the expression '\(expression)' of \(key)")
                }
                text.replaceSubrange(start.lowerBound..<end.upperBound, with: replacement)
            }
            result[key] = text
        }
        return result
    }

    /// Runs the steps that run offline in `directory`, as Actions would: bash with -eo pipefail,
    /// `$GITHUB_PATH` additions on the PATH of later steps. Stops at the first failing step.
    func runOffline(in directory: URL, environment: [String: String]) throws -> (ran: [String], failed: Shell.Result?) {
        let githubPath = directory.appendingPathComponent("../github-path-\(UUID().uuidString)").standardizedFileURL
        try Data().write(to: githubPath)
        defer { try? FileManager.default.removeItem(at: githubPath) }
        var ran: [String] = []
        for step in steps where step.runsOffline {
            guard let script = step.run else { continue }
            var env = environment.merging(step.environment) { _, step in step }
            let added = try String(contentsOf: githubPath, encoding: .utf8).split(separator: "\n").reversed()
            env["PATH"] = (added.map(String.init) + [env["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? ""])
                .joined(separator: ":")
            env["GITHUB_PATH"] = githubPath.path
            ran.append(step.name)
            let result = try Shell.attempt(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: directory, environment: env)
            if result.status != 0 { return (ran, result) }
        }
        return (ran, nil)
    }
}
