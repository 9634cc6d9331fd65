import ProlificCLI

/// Rebuilds the site whenever the content or the theme changes on disk, and counts good builds.
///
/// Polls a `Fingerprint` every half second (on a game so big that a scan takes long, after twice
/// the scan's time, ten seconds at most) instead of using file-system events: it works the same on Linux and macOS,
/// sees edits made by any tool (editors, `git pull`, `prolific submit`), and costs one `stat` per
/// file. A failed build prints its diagnostics and leaves the previous site in place
/// (`prolific build` swaps only a finished site in), so the browser keeps showing it until an
/// edit fixes the content.
struct Rebuilder: Sendable {
    var site: SiteBuild
    /// The content directory and the templates folder in use (which may not exist).
    var watched: [String]
    var builds: BuildCounter
    /// Half a second: quick enough to feel live, rare enough to cost nothing on a game of
    /// thousands of files.
    var interval: Duration = .milliseconds(500)
    /// How many scans' time to wait between scans at least: a large game's 300,000 files take
    /// the kernel 1.5–2.5 s to list and stat here, and scanning again at once kept a core busy.
    var restPerScan = 2
    /// The longest wait: a scan that seemed long for another reason (the process stopped with
    /// Ctrl-Z, the disk's cache cold) must not leave edits unseen for long.
    var longestPause: Duration = .seconds(10)

    /// How long to wait after a scan that took `scan`.
    func pause(after scan: Duration) -> Duration { min(max(interval, scan * restPerScan), longestPause) }

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
        var scan = Duration.zero
        while true {
            try await Task.sleep(for: pause(after: scan))
            // Not counting a time the process was suspended.
            let clock = SuspendingClock()
            let began = clock.now
            let now = Fingerprint.scan(watched)
            scan = clock.now - began
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
            outcome = .init(succeeded: false, printed: SiteBuild.explain(error, program: site.program))
        }
        // Ctrl-C reaches the build and the server together, and the server's stop may come a
        // moment after the build ended: wait for it rather than report a failure.
        if outcome.wasStopped { try? await Task.sleep(for: .seconds(1)) }
        // Stopped meanwhile (the build was ended with it): nothing to report.
        if Task.isCancelled { return }
        if outcome.succeeded { await builds.advance() }
        for line in SiteBuild.report(outcome, because: reason) { Terminal.error(line) }
    }
}
