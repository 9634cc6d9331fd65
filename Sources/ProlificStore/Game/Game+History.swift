import ProlificCore

extension Game {
    /// The tally context for closing `round` of `project` at `now`, from the history cache.
    ///
    /// Reads the stamps of every round folder, the project files (for "projects started"), the
    /// voters' profiles, and in full only the closed rounds the cache doesn't cover yet — then
    /// saves the cache for next time, unless it lacks fewer than `HistoryCache.lagLimit` rounds.
    /// The result is the same as `TallyTimeline`'s: the rounds closed before the cutoff,
    /// recorded in the same order. With it, the past it read, as `HandedTallies` keeps it for
    /// the next build.
    func closingContext(for round: Round, of project: Project) throws(Diagnostics) -> (context: TallyContext, past: HandedTallies.Past) {
        var closing = round
        if closing.closed == nil { closing.closed = now }
        let cutoff = TallyContext.cutoff(of: closing)
        // What the last scan saw, then the saved history on a thread of its own while the rounds
        // are stat-ed here: on the large benchmark, reading and restoring the history (27 MB)
        // and stat-ing 20,000 rounds were each about a third of a `close`.
        let previous = HistoryCache.loadScan(layout) ?? [:]
        let (saved, scan) = Parallel.beside({ HistoryCache.saved(layout) }) { () -> Result<RoundScan, Diagnostics> in
            do throws(Diagnostics) { return .success(try scanRounds(before: cutoff, previous: previous)) } catch { return .failure(error) }
        }
        let cache = saved.map { HistoryCache(entries: $0.entries, scanned: previous, history: $0.history) }
        let (scannedRounds, starts, scanned) = try scan.get()
        let needed = scannedRounds.sorted { ($0.closed, $0.slug, $0.number) < ($1.closed, $1.slug, $1.number) }

        // Reuse the cached history when its rounds are the first of those needed, in order.
        var history: VotingHistory
        var covered: Int
        let isTaken: Bool
        if let cache, cache.entries.count <= needed.count, Array(needed.prefix(cache.entries.count)) == cache.entries {
            history = cache.history
            covered = cache.entries.count
            isTaken = true
        } else {
            history = VotingHistory()
            covered = 0
            isTaken = false
        }
        if covered < needed.count {
            for entry in needed[covered...] {
                var found: [Diagnostic] = []
                do throws(Diagnostics) {
                    history.record(try reader.loadRound(entry.slug, entry.number, withEntries: true, problems: &found))
                } catch {
                    throw Diagnostics(error.all)
                }
                let errors = found.filter { $0.severity == .error }
                guard errors.isEmpty else { throw Diagnostics(errors.sorted()) }
            }
        }
        // Everything that can fail is read before the cache is saved: a refused close changes nothing.
        var joined: [Handle: Timestamp] = [:]
        for ballot in closing.ballots where joined[ballot.voter] == nil {
            joined[ballot.voter] = try reader.loadUser(ballot.voter).joined
        }
        // Only what this round's tally reads: its voters' profiles and its own ballots.
        let evidence = reader.evidence(
            try reader.loadConfig(), for: GitEvidence.Wanted(round: closing.number, of: project.slug, voters: closing.ballots.map(\.voter)))
        let updated = HistoryCache(entries: needed, scanned: scanned, history: history)
        // A history taken that lacks only a few rounds closed since (the one before this, as a
        // build after a `close` leaves it) is left as it is: the next `close` reads them again,
        // and a build records them from what it read (`HistoryCache.lagLimit`).
        if HistoryCache.closeSaves(isTaken: isTaken, roundsRead: needed.count - covered) { updated.save(layout) }
        if scanned != previous { updated.saveScan(layout) }

        for start in starts where start.created < cutoff { history.recordProject(owner: start.owner) }
        let context = TallyTimeline.context(for: closing, of: project.slug, history: history, joined: joined, evidence: evidence)
        return (context, HandedTallies.Past(projects: starts, rounds: needed, cutoff: cutoff))
    }

    /// Every closed round before a cutoff, with its stamp; every project's start; and what the
    /// scan saw, for the next.
    private typealias RoundScan = (
        needed: [HistoryCache.Entry], starts: [(slug: Slug, created: Timestamp, owner: Handle)], scanned: [String: HistoryCache.Scan]
    )

    /// The rounds and projects as the files show them now (`RoundScan`). A file whose stamp the
    /// last scan (`previous`) saw is not parsed again.
    ///
    /// Projects are scanned on every core, then joined in the order they are listed; the first
    /// failure in that order is thrown (every project is scanned before a refusal). On one core,
    /// stat-ing the 20,000 rounds of the large benchmark kept the other core idle for 0.24 s of a
    /// `close` (0.39 s on large in place, 0.30 s scanned on both cores).
    private func scanRounds(before cutoff: Timestamp, previous: [String: HistoryCache.Scan]) throws(Diagnostics) -> RoundScan {
        let slugs = ((try? FileSystem.list(layout.projectsFolder)) ?? []).compactMap { entry in
            entry.kind == .directory ? Slug(entry.name) : nil
        }
        // Safe on every core: the game's reader records no inventory (`recorder` is nil), and
        // the file system, the layout and the parsers keep no state.
        assert(reader.recorder == nil)
        let parts = Parallel.map(slugs) { slug -> Result<ProjectScan, Diagnostics> in
            do throws(Diagnostics) { return .success(try scanProject(slug, before: cutoff, previous: previous)) } catch {
                return .failure(error)
            }
        }
        var needed: [HistoryCache.Entry] = []
        var starts: [(slug: Slug, created: Timestamp, owner: Handle)] = []
        var scanned: [String: HistoryCache.Scan] = [:]
        for part in parts {
            let part = try part.get()
            needed += part.needed
            starts.append(part.start)
            for (key, scan) in part.scanned { scanned[key] = scan }
        }
        return (needed, starts, scanned)
    }

    /// One project's part of a `RoundScan`: its closed rounds before the cutoff, its start, and
    /// what the scan saw of its files.
    private typealias ProjectScan = (
        needed: [HistoryCache.Entry], start: (slug: Slug, created: Timestamp, owner: Handle), scanned: [(String, HistoryCache.Scan)]
    )

    /// The project `slug` as `scanRounds` sees it: its project.md and round.md files parsed only
    /// when their stamps differ from the last scan's.
    private func scanProject(_ slug: Slug, before cutoff: Timestamp, previous: [String: HistoryCache.Scan]) throws(Diagnostics)
        -> ProjectScan
    {
        var needed: [HistoryCache.Entry] = []
        var scanned: [(String, HistoryCache.Scan)] = []
        let start: (slug: Slug, created: Timestamp, owner: Handle)
        let projectStamp = HistoryCache.stamp(file: layout.projectFile(slug))
        // The stamp of a missing file is never matched with the last scan (`hasFile`): a scan
        // file a pull request commits could otherwise stand in for a project.md or a round.md.
        if let seen = previous[slug.rawValue], seen.stamp == projectStamp, projectStamp.hasFile,
            let created = seen.time, let owner = seen.owner
        {
            start = (slug, created, owner)
            scanned.append((slug.rawValue, seen))
        } else {
            let (loaded, found) = reader.loadProject(slug, depth: .none)
            let errors = found.filter { $0.severity == .error && $0.path == layout.projectFile(slug) }
            guard let loaded, errors.isEmpty else { throw Diagnostics(errors.isEmpty ? found.sorted() : errors) }
            start = (slug, loaded.created, loaded.owner)
            scanned.append((slug.rawValue, HistoryCache.Scan(stamp: projectStamp, time: loaded.created, owner: loaded.owner)))
        }
        // `loadProject` reports a linked rounds/ without failing for it: don't list through it.
        try reader.requireRealFolders(layout.roundsFolder(slug))
        for folder in (try? FileSystem.list(layout.roundsFolder(slug))) ?? [] where folder.kind == .directory {
            guard let number = RoundNumber(folderName: folder.name), !reader.isVacant(slug, number) else { continue }
            let key = "\(slug)/\(number.folderName)"
            var stamp = HistoryCache.stamp(layout, slug, number, seen: previous[key]?.stamp)
            var closed: Timestamp?
            if let seen = previous[key], seen.stamp == stamp, stamp.hasFile {
                closed = seen.time
            } else {
                let path = layout.roundFile(slug, number)
                let text: String
                do { text = try FileSystem.readText(path) } catch {
                    throw Diagnostics([Diagnostic(path: error.path, position: error.position, message: error.message)])
                }
                let round = try RoundFile.parse(text, path: path, number: number)
                (stamp, closed) = (stamp.asKept(for: round), round.closed)
            }
            scanned.append((key, HistoryCache.Scan(stamp: stamp, time: closed)))
            if let closed, closed < cutoff {
                needed.append(HistoryCache.Entry(slug: slug, number: number, closed: closed, stamp: stamp))
            }
        }
        return (needed, start, scanned)
    }
}
