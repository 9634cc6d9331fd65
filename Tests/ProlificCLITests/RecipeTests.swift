import Foundation
import Testing

/// The automation recipes of docs/examples/ run for real: the `run:` steps of the GitHub workflows
/// and the cron script, against a game in a git repository with a local `origin`.
@Suite(.enabled(if: Shell.has("git"))) struct RecipeTests {
    let examples = Repository.root.appendingPathComponent("docs/examples")
    let expressions = ["github.base_ref": "main", "github.ref_name": "main", "github.event.pull_request.user.login": "bo-gh"]

    func workflow(_ name: String) throws -> Workflow {
        try Workflow(contentsOf: examples.appendingPathComponent("github/workflows/\(name)"), expressions: expressions)
    }

    @Test func pullRequestCheckRefusesAnUneditedTemplateAndPassesTheSnippet() throws {
        let world = try RecipeGame()
        let github = world.game.appendingPathComponent(".github")
        try FileManager.default.createDirectory(at: github, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("github/prolific-problems.json"), to: github.appendingPathComponent("prolific-problems.json"))
        let check = try workflow("check-pull-request.yml")
        #expect(check.steps.filter(\.runsOffline).map(\.name) == ["Check the pull request"])

        // bo's pull request: the template of `new submission`, committed as it came.
        try world.git("checkout", "--quiet", "-b", "bo-sun")
        let path = try world.prolific(["new", "submission", "sun", "--author", "bo"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try world.git("add", path)
        try world.git("-c", "user.name=Bo", "-c", "user.email=bo@example.org", "commit", "--quiet", "-m", "My snippet")
        let unedited = try check.runOffline(in: world.game, environment: world.environment)
        #expect(unedited.failed?.output.contains("\(path):7:1: error: the snippet is still the placeholder") == true)

        // bo writes the snippet in place of the placeholder line.
        let file = world.game.appendingPathComponent(path)
        let template = try String(contentsOf: file, encoding: .utf8)
        try Data(template.replacing(#/TODO\(prolific\)[^\n]*/#, with: "A red sunrise.").utf8).write(to: file)
        try world.git("-c", "user.name=Bo", "-c", "user.email=bo@example.org", "commit", "--quiet", "-am", "Write my snippet")
        let edited = try check.runOffline(in: world.game, environment: world.environment)
        #expect(edited.failed == nil, "\(edited.failed.map { $0.errors + $0.output } ?? "")")
    }

    @Test func problemMatcherReadsProlificsDiagnostics() throws {
        let data = try Data(contentsOf: examples.appendingPathComponent("github/prolific-problems.json"))
        let matcher = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let pattern = (matcher?["problemMatcher"] as? [[String: Any]])?.first?["pattern"] as? [[String: Any]]
        let regexp = try NSRegularExpression(pattern: try #require(pattern?.first?["regexp"] as? String))
        let line = "Content/projects/sun/rounds/0001/submissions/bo-20260101010000.md:7:1: error: the snippet is empty"
        let match = try #require(regexp.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)))
        let groups = (1...5).map { String(line[Range(match.range(at: $0), in: line)!]) }
        #expect(groups == ["Content/projects/sun/rounds/0001/submissions/bo-20260101010000.md", "7", "1", "error", "the snippet is empty"])
    }

    @Test func scheduledWorkflowClosesCommitsPushesAndBuilds() throws {
        let world = try RecipeGame()
        let publish = try workflow("publish.yml")
        #expect(
            publish.steps.filter(\.runsOffline).map(\.name) == [
                "Close due rounds", "Check the content", "Build the site", "Push the closing commits",
            ])
        #expect(publish.steps.compactMap(\.uses).contains("actions/deploy-pages@v4"))
        let result = try publish.runOffline(in: world.game, environment: world.environment)
        #expect(result.failed == nil, "\(result.failed.map { $0.errors + $0.output } ?? "")")
        #expect(try world.originLog().first == "prolific: close round 1 of moon (winner \(world.cyMoon))")
        #expect(FileManager.default.fileExists(atPath: world.game.appendingPathComponent("Site/index.html").path))
        #expect(try world.git("status", "--porcelain").isEmpty)

        // The next hour: nothing is due, nothing to commit, the site is built again.
        let again = try publish.runOffline(in: world.game, environment: world.environment)
        #expect(again.failed == nil)
        #expect(try world.originLog().count == 2)
    }

    @Test func cronScriptPullsClosesPushesAndCopiesTheSite() throws {
        let world = try RecipeGame()
        // Meanwhile cy's snippet to sun is merged on origin.
        let player = world.folder.url.appendingPathComponent("player")
        try Shell.run(["git", "clone", "--quiet", world.origin.path, player.path], in: world.folder.url, environment: world.environment)
        try Shell.run(
            [CLI.executable.path, "new", "submission", "sun", "--author", "cy", "--file", "-"], in: player,
            environment: world.environment, input: "A red sunrise.")
        for step in [["add", "-A"], ["commit", "--quiet", "-m", "Cy's snippet"], ["push", "--quiet", "origin", "main"]] {
            try Shell.run(
                ["git", "-c", "user.name=Cy", "-c", "user.email=cy@example.org"] + step, in: player, environment: world.environment)
        }

        let www = world.folder.url.appendingPathComponent("www")
        let script = examples.appendingPathComponent("cron/publish.sh")
        let run = try Shell.attempt(
            ["sh", script.path], in: world.game,
            environment: world.environment.merging(["DEST": www.path + "/", "PROLIFIC": CLI.executable.path]) { _, new in new })
        #expect(run.status == 0, "\(run.errors)\(run.output)")
        #expect(try world.originLog().prefix(2) == ["prolific: close round 1 of moon (winner \(world.cyMoon))", "Cy's snippet"])
        #expect(FileManager.default.fileExists(atPath: www.appendingPathComponent("index.html").path))
        let sun = try String(contentsOf: www.appendingPathComponent("projects/sun/index.html"), encoding: .utf8)
        #expect(sun.contains("A red sunrise."))

        let missing = try Shell.attempt(["sh", script.path], in: world.game, environment: world.environment)
        #expect(missing.status != 0 && missing.errors.contains("set DEST to where the site goes"))
    }

    /// Runs the cron script in the game's folder, copying the site to `www`.
    func runCronScript(in world: RecipeGame, to www: URL) throws -> Shell.Result {
        try Shell.attempt(
            ["sh", examples.appendingPathComponent("cron/publish.sh").path], in: world.game,
            environment: world.environment.merging(["DEST": www.path + "/", "PROLIFIC": CLI.executable.path]) { _, new in new })
    }

    /// Makes the game's next `times` pushes lose a race: its pre-push hook, which git runs after it
    /// read origin's main and before it updates it, first merges a pull request on origin (an empty
    /// commit of cy's, "Merged pull request N"), as a maintainer could between the script's pull and push.
    func mergeOnOriginBeforeEachPush(in world: RecipeGame, times: Int) throws {
        let merger = world.folder.url.appendingPathComponent("merger")
        try Shell.run(["git", "clone", "--quiet", world.origin.path, merger.path], in: world.folder.url, environment: world.environment)
        let count = world.folder.url.appendingPathComponent("merged-count").path
        let hook = world.game.appendingPathComponent(".git/hooks/pre-push")
        try Data(
            """
            #!/bin/sh
            n=$(cat '\(count)' 2>/dev/null || echo 0)
            [ "$n" -lt \(times) ] || exit 0
            n=$((n + 1)) && echo "$n" > '\(count)'
            unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
            cd '\(merger.path)'
            git pull --quiet --ff-only origin main
            git -c user.name=Cy -c user.email=cy@example.org commit --quiet --allow-empty -m "Merged pull request $n"
            git push --quiet origin main

            """.utf8
        ).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    }

    @Test func cronScriptPushesOnTopOfAPullRequestMergedWhileItRan() throws {
        let world = try RecipeGame()
        try mergeOnOriginBeforeEachPush(in: world, times: 1)
        let www = world.folder.url.appendingPathComponent("www")
        let run = try runCronScript(in: world, to: www)
        #expect(run.status == 0, "\(run.errors)\(run.output)")
        #expect(
            try world.originLog().prefix(3) == [
                "prolific: close round 1 of moon (winner \(world.cyMoon))", "Merged pull request 1", "The game so far",
            ])
        #expect(try world.git("rev-parse", "HEAD") == (try world.git("rev-parse", "origin/main")))
        #expect(FileManager.default.fileExists(atPath: www.appendingPathComponent("index.html").path))
    }

    @Test func cronScriptPublishesWhenThePushFailsAndPushesOnTheNextRun() throws {
        let world = try RecipeGame()
        // Two merges, one before each push: the push and its one retry both lose.
        try mergeOnOriginBeforeEachPush(in: world, times: 2)
        let www = world.folder.url.appendingPathComponent("www")
        let lost = try runCronScript(in: world, to: www)
        #expect(lost.status == 1)
        #expect(lost.errors.contains("publish.sh: the site is published, but the closing commits were not pushed to origin main"), "\(lost.errors)")
        #expect(try world.originLog().prefix(3) == ["Merged pull request 2", "Merged pull request 1", "The game so far"])
        // The site was copied all the same.
        #expect(FileManager.default.fileExists(atPath: www.appendingPathComponent("index.html").path))

        // The next hour the closing goes on top of both merges: the clone is not stuck.
        let next = try runCronScript(in: world, to: www)
        #expect(next.status == 0, "\(next.errors)\(next.output)")
        #expect(
            try world.originLog().prefix(4) == [
                "prolific: close round 1 of moon (winner \(world.cyMoon))", "Merged pull request 2", "Merged pull request 1",
                "The game so far",
            ])
        #expect(try world.git("status", "--porcelain").isEmpty)
    }
}
