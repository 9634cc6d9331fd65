import ProlificCLI

/// Rebuilds the site whenever the content or the theme changes on disk, and counts good builds.
///
/// On Linux the kernel reports each change (`FolderEvents`): a rebuild starts a tenth of a second
/// after the last change of a burst, and nothing is spent while nothing changes. Elsewhere, with `--poll`, or where the
/// kernel can't watch so many folders, a `Fingerprint` of the folders is taken every half second
/// (on a game so big that a scan takes long, after twice the scan's time, ten seconds at most):
/// it sees edits made by any tool on any file system, network and container ones included, at
/// the cost of one `stat` per file each time. A failed build prints its diagnostics and leaves the
/// previous site in place (`prolific build` swaps only a finished site in), so the browser keeps
/// showing it until an edit fixes the content.
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

    /// How the watched folders are looked at between builds.
    enum Watch {
        /// The kernel's events.
        case events(FolderEvents)
        /// Scans, each compared with the one before.
        case scans(since: Fingerprint)
    }

    /// The first build; returns how changes are looked for from then on, set up before the build
    /// started, so an edit made while it ran still causes a rebuild: the kernel's events unless
    /// `poll`, or where they can't be had (not Linux; too many folders, which a line says).
    func start(poll: Bool) async -> Watch {
        let watch = Self.lookout(over: watched, poll: poll)
        await build(because: nil)
        return watch
    }

    /// How changes to `folders` are looked for: the kernel's events unless `poll`, or where they
    /// can't be had. A line says why when the kernel has events but not for these folders.
    static func lookout(over folders: [String], poll: Bool) -> Watch {
        if !poll {
            do throws(FolderEvents.Unavailable) {
                if let events = try FolderEvents(watching: folders) { return .events(events) }
            } catch {
                Terminal.error("Looking for changes by scanning the folders: \(error.reason).")
            }
        }
        return .scans(since: Fingerprint.scan(folders))
    }

    /// Rebuilds after each change to the watched folders until cancelled.
    func watch(_ watch: Watch) async throws {
        switch watch {
        case .events(let events): try await follow(events)
        case .scans(let start): try await scan(since: start)
        }
    }

    /// Rebuilds after each change the kernel reports, until cancelled; scans from the moment the
    /// folders can no longer all be watched.
    func follow(_ events: FolderEvents) async throws {
        while true {
            let changes: [String]
            do {
                changes = try await events.next()
            } catch let error as FolderEvents.Unavailable {
                // What changed meanwhile is unknown: build, then scan from before that build.
                Terminal.error("Looking for changes by scanning the folders from now on: \(error.reason).")
                let start = Fingerprint.scan(watched)
                await build(because: Fingerprint.describe(watched))
                return try await scan(since: start)
            }
            await build(because: Fingerprint.describe(changes))
        }
    }

    /// Rebuilds after each change a scan finds, until cancelled.
    func scan(since start: Fingerprint) async throws {
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
