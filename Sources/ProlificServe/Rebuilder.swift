import ProlificCLI

/// Rebuilds the site whenever the content or the theme changes on disk, and counts good builds.
///
/// Polls a `Fingerprint` every half second instead of using file-system events: it works the
/// same on Linux and macOS, sees edits made by any tool (editors, `git pull`, `prolific submit`),
/// and costs one `stat` per file. A failed build prints its diagnostics and leaves the previous
/// site in place (`prolific build` swaps only a finished site in), so the browser keeps showing it
/// until an edit fixes the content.
struct Rebuilder: Sendable {
    var site: SiteBuild
    /// The content directory and the templates folder in use (which may not exist).
    var watched: [String]
    var builds: BuildCounter
    /// Half a second: quick enough to feel live, rare enough to cost nothing.
    var interval: UInt64 = 500_000_000

    /// The first build; returns what the watched folders looked like before it started, so an
    /// edit made while it ran still causes a rebuild.
    func start() async -> Fingerprint {
        let before = Fingerprint.scan(watched)
        await build(because: nil)
        return before
    }

    /// Rebuilds after each change to the watched folders until cancelled.
    func watch(since start: Fingerprint) async throws {
        var last = start
        while true {
            try await Task.sleep(nanoseconds: interval)
            let now = Fingerprint.scan(watched)
            let changes = now.changes(since: last)
            guard !changes.isEmpty else { continue }
            last = now
            await build(because: Fingerprint.describe(changes))
        }
    }

    /// One build. The first writes to the terminal itself (its progress too); a rebuild's lines
    /// are taken and printed after the reason for it.
    func build(because reason: String?) async {
        let outcome: SiteBuild.Outcome
        do {
            outcome = try await site.run(capturing: reason != nil)
        } catch {
            outcome = .init(succeeded: false, printed: "error: cannot run '\(site.program)': \(error)")
        }
        // Stopped meanwhile (the build was killed with it): nothing to report.
        if Task.isCancelled { return }
        if outcome.succeeded { await builds.advance() }
        for line in SiteBuild.report(outcome, because: reason) { Terminal.error(line) }
    }
}
