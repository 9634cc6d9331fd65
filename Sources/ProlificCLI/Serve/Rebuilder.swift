import ArgumentParser
import Dispatch
import Foundation

/// Rebuilds the site whenever the content or the theme changes on disk, and counts good builds.
///
/// Polls a `Fingerprint` every half second instead of using file-system events: it works the
/// same on Linux and macOS, sees edits made by any tool (editors, `git pull`, `prolific submit`),
/// and costs one `stat` per file. A failed build prints its diagnostics and leaves the previous
/// site in place (`SiteWriter` swaps only a finished site in), so the browser keeps showing it
/// until an edit fixes the content.
struct Rebuilder: Sendable {
    var site: SiteRun
    /// The content directory and the templates folder in use (which may not exist).
    var watched: [String]
    var builds: BuildCounter
    /// Half a second: quick enough to feel live, rare enough to cost nothing.
    var interval: UInt64 = 500_000_000

    /// The first build; returns what the watched folders looked like before it started, so an
    /// edit made while it ran still causes a rebuild.
    func start(showsProgress: Bool) async -> Fingerprint {
        let before = Fingerprint.scan(watched)
        var first = site
        first.showsProgress = showsProgress
        await build(first, because: nil)
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
            await build(site, because: Fingerprint.describe(changes))
        }
    }

    /// One build, with one line on standard error saying how it went.
    func build(_ run: SiteRun, because reason: String?) async {
        let result = await Self.offThePool(run)
        let prefix = reason.map { "\($0). " } ?? ""
        do {
            let summary = try Terminal.guarded { try result.get() }
            await builds.advance()
            Terminal.error(prefix + summary.line(out: run.out))
        } catch is ExitCode {
            Terminal.error(prefix + "The build failed; still serving the previous site.")
        } catch {
            Terminal.error("error: \(error.localizedDescription)")
            Terminal.error(prefix + "The build failed; still serving the previous site.")
        }
    }

    /// Runs a build on a thread of its own: it is long and blocking, and must not hold up the
    /// few threads that answer requests.
    static func offThePool(_ run: SiteRun) async -> Result<SiteRun.Summary, any Error> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { try run.run() })
            }
        }
    }
}
