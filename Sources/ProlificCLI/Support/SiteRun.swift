import Foundation
import ProlificCore
import ProlificSite
import ProlificStore

/// One build of the site, as `build` runs it (`serve` runs `prolific build`): load and check the
/// content, pick the theme, render, swap the new site in.
package struct SiteRun {
    var global: GlobalOptions
    /// The folder the site is written to.
    var out: String
    /// `--templates`, if given.
    var templates: String?
    /// Whether to show `pages done / total` while rendering (on a terminal, without `--quiet`).
    var showsProgress: Bool

    /// One stage of a build: its wall seconds and the process's CPU seconds during it.
    struct Phase {
        var name: String
        var seconds: Double
        var cpuSeconds: Double

        /// `load 6.50 s (9.81 s CPU)`.
        var line: String { "\(name) \(String(format: "%.2f", seconds)) s (\(String(format: "%.2f", cpuSeconds)) s CPU)" }
    }

    struct Summary {
        var pages: Int
        var files: Int
        var seconds: Double
        /// Files whose bytes changed since the previous site; the others were kept.
        var written: Int
        /// Seconds spent in each phase: load (with the content's inventory), theme and git, each stage of rendering
        /// (model, pages, cards, indexes and feeds, books, static; batches are written on a
        /// thread of their own meanwhile, whose CPU counts in the stage), media, swap, then write
        /// (the time rendering waited for the writer, not a step of its own) and stamp
        /// (with the history cache for `close`, and the replay cache's writing); or only check,
        /// when nothing changed since the last build. Each with the CPU seconds of the whole process (all threads, and `git`)
        /// meanwhile: a stage whose CPU time is close to its seconds ran on one core. Removing
        /// a killed build's leftovers, when there are any, counts in "model".
        var phases: [Phase]
        /// Whether the site was already what this build would write (`BuildStamp`).
        var upToDate = false
        /// How the replay of the closed rounds was had: kept, added to, or worked out anew.
        var replay: String?
        /// How the standings were had: the last build's with some projects counted again, or
        /// every project counted.
        var standings: String?
        /// What the build made that the theme may not show (`SiteBuilder.warnings`), printed.
        var warnings: [String] = []
        /// How git's evidence was had: kept, added to, or read whole.
        var evidence: String?

        func line(out given: String) -> String {
            let time = String(format: "%.2f", seconds)
            // The folder with one slash after it, however it was given (`Site/` too).
            let out = FileSystem.trimmingTrailingSlashes(given)
            let folder = out == "/" ? out : out + "/"
            if upToDate {
                return "\(folder) is up to date: nothing changed since the last build (\(pages) pages, \(files) files; checked in \(time) s)."
            }
            return "Built \(pages) pages (\(files) files, \(written) changed) into \(folder) in \(time) s."
        }
    }

    func run() throws -> Summary {
        let start = Date()
        var phases: [Phase] = []
        var mark = start, markCPU = Self.processCPUSeconds()
        // Time spent writing since the last lap, counted in "write" rather than in the stage.
        var writing = 0.0, writingCPU = 0.0, writeSeconds = 0.0, writeCPU = 0.0
        func lap(_ name: String) {
            let now = Date(), cpu = Self.processCPUSeconds()
            phases.append(Phase(name: name, seconds: now.timeIntervalSince(mark) - writing, cpuSeconds: cpu - markCPU - writingCPU))
            writeSeconds += writing
            writeCPU += writingCPU
            writing = 0
            writingCPU = 0
            mark = now
            markCPU = cpu
        }
        let game = global.game
        let layout = game.layout
        // A link given as `--out` is followed: the site is written into the folder it leads to
        // (its spare beside that folder), and the link stays.
        let folder = try Self.checkOutput(out, content: layout.root, templates: templates ?? Self.templatesBeside(global.content))
        let templatesFolder = templates ?? Self.existingFolder(Self.templatesBeside(global.content))
        // Where the content is in git, and its HEAD: the stamp is keyed by it, and git's evidence
        // is read up to it (one `git rev-parse` for both).
        let place = GitEvidence.Place(layout)
        let resolvedOut = Self.resolved(out)
        let key = BuildStamp.key(
            now: game.now, out: resolvedOut, templates: templatesFolder.map(Self.resolved), head: place?.head ?? "")
        // Whether a site the stamp recorded (under the `--out` of its build) is this build's:
        // `Site` and `./Site` are the same folder, whose pages and spare a build may keep.
        let isOut: @Sendable (String) -> Bool = { [folder] root in root == folder || Self.resolved(root) == resolvedOut }
        let saved = BuildStamp.Saved(layout)
        // The key holds `--out` resolved; the site's files are recorded under the folder as the
        // stamp's build spelt it, which must still be this one.
        if let saved, isOut(saved.siteRoot), saved.isCurrent(key: key) {
            lap("check")
            return Summary(
                pages: saved.pages, files: saved.files, seconds: Date().timeIntervalSince(start), written: 0,
                phases: phases, upToDate: true)
        }
        // The saved replay's bytes are read beside the load (`ReplayCache.sealedBytes`).
        let replayBytes = Parallel.Handoff<[UInt8]>()
        _ = Parallel.background { if let bytes = ReplayCache.sealedBytes(layout) { replayBytes.give(bytes) } else { replayBytes.giveNothing() } }
        let stamp = saved?.decoded()
        // Pages whose values are those the last build rendered keep their file. What the last
        // build recorded of them (25,000 fingerprints and the site's files, by path, on large) is
        // decoded and indexed on a thread of its own while the content loads: before, it kept a
        // core busy alone for 30 ms at the start of every rebuild.
        let recordedPages = Parallel.Handoff<PageMemory>()
        if let stamp {
            _ = Parallel.background { [key] in
                guard let recorded = stamp.pageMemory(isOut: isOut, key: key) else { return recordedPages.giveNothing() }
                recordedPages.give(
                    PageMemory(
                        fingerprints: recorded.fingerprints,
                        intact: { path in
                            recorded.intact(path).map { found in
                                OutputFile.Previous(
                                    device: UInt64(found.info.st_dev), inode: UInt64(found.info.st_ino),
                                    inSpare: found.inSpare ? found.info : nil)
                            }
                        },
                        contents: { [folder] path in
                            recorded.intact(path).flatMap { FileSystem.readIfUnchanged("\(folder)/\(path)", as: $0.info) }
                        }))
            }
        } else {
            recordedPages.giveNothing()
        }
        // Taken before reading: a file changed while the build reads it differs from its record.
        let templatesBefore = templatesFolder.flatMap { FileInventory.take(of: $0) }
        // The content's inventory is taken as it is read: each file's metadata when it is opened.
        // Projects whose files are as they were when they were last read are taken from
        // `.prolific/projects/` instead of being read and parsed again.
        let recordedKeys = stamp?.subtreeKeys(forKey: key) ?? [:]
        // git's evidence is read beside the content: after a merged pull request on large, the
        // `git` processes and the kept evidence's 20,000 rounds took a quarter of a second on one
        // core after the load. Its cache is saved once the content and the theme have loaded.
        let evidenceRead = Parallel.Handoff<GitEvidence.Read>()
        _ = Parallel.background { [reader = game.reader] in evidenceRead.give(reader.evidenceUnsaved(at: place)) }
        let (content, contentBefore) = try game.reader.loadValidTakingInventory(
            cache: ProjectCache(layout: layout), recorded: stamp?.content, recordedKeys: recordedKeys)
        // Without a record of every input, no stamp is saved: the next build renders again.
        let inputsRecorded = contentBefore != nil && (templatesFolder == nil || templatesBefore != nil)
        lap("load")
        // After a `close`, the replay adds the rounds closed since to the saved one, against the
        // history `close` keeps: that history is read, and the stamps that vouch for it derived,
        // from now on, beside git and the model's other work, rather than on the replay's thread
        // once its cache is loaded (0.1 s of its path after a `close` on large, while the other
        // stages waited for it). Unless `close` handed over its tallies, which spare both.
        let handed = contentBefore == nil ? nil : HandedTallies.load(layout, after: saved)
        let early = contentBefore.map { EarlyHistory(layout: layout, content: content, inventory: $0, handed: handed) }
        defer { early?.wait() }
        let theme = try loadTheme()
        let read = evidenceRead.take() ?? game.reader.evidenceUnsaved(at: place)
        let (evidence, evidenceHow) = (read.evidence(maintainers: Set(content.config.maintainers)), read.how)
        let evidenceSaved = Parallel.background { read.save() }
        defer { evidenceSaved.wait() }
        lap("theme and git")
        // A project's folder as the inventory saw it before reading: pages made only of it (and
        // of a few other things) are kept without working out their values when it is the same.
        // The same without the ballots of its open round: what pages that show no such ballot
        // are made of, so that they are kept as ballots come in. Both are kept in the stamp, and
        // the next build takes them for a project whose files are as recorded (`SubtreeKeys`).
        let keys = Parallel.map(content.projects) { project -> (all: SubtreeKeys?, beside: SubtreeKeys.LeftOut?) in
            let folder = "projects/\(project.slug)"
            let all = contentBefore?.subtreeKey(folder).map { SubtreeKeys(key: $0) }
            guard let open = project.openRound else { return (all, nil) }
            let votes = "\(folder)/rounds/\(open.number.folderName)/votes"
            return (all, contentBefore?.subtreeDigest(folder, leavingOut: votes).map { SubtreeKeys.LeftOut(path: votes, digest: $0) })
        }
        var projectKeys: [Slug: String] = [:], keysBesideBallots: [Slug: String] = [:]
        var subtreeKeys: [String: SubtreeKeys] = [:]
        for (project, (all, beside)) in zip(content.projects, keys) {
            projectKeys[project.slug] = all?.digest
            keysBesideBallots[project.slug] = project.openRound == nil ? all?.digest : beside?.digest
            if var all {
                all.leftOut = beside
                subtreeKeys["projects/\(project.slug)"] = all
            }
        }
        // The stamp's inputs are encoded beside the stages to come, which leave a core idle at
        // times (after `git` has run, as the history cache's thread: see below).
        let stampInputs = Parallel.Handoff<BuildStamp.EncodedInputs>()
        let encodingInputs = contentBefore.map { inventory in
            Parallel.background { [key, templatesBefore, subtreeKeys] in
                // The next build checks the files these seals list by their folders' times alone;
                // a kept project's are those the last stamp vouched for (its seals are the same).
                let sealed = SealedRounds(content) { !inventory.isAsRecorded("projects/\($0)") }
                stampInputs.give(
                    BuildStamp.EncodedInputs(
                        key: key, content: inventory, sealed: sealed, templates: templatesBefore, subtreeKeys: subtreeKeys))
            }
        }
        defer { encodingInputs?.wait() }
        // The next `close` reads the history cache instead of every closed round. It is made
        // from what was read, beside the stages to come, which leave a core idle at times.
        // From the inventory taken while reading: stamps taken now could vouch for files read
        // before they changed. Without one, the history cache is left as it is.
        // The replay's history of the closed rounds is the one the cache keeps: it is handed
        // over rather than recorded twice, when the whole game was replayed. A kept replay means
        // no closed round changed since the build that replayed and warmed the cache, so the
        // cache is then left alone; so does a replay that added the rounds closed since to the
        // saved one (see below). (Had that build been killed before the cache was saved, the
        // next `close` reads the closed rounds itself, once, and saves it: the cache is only
        // speed, checked against the rounds' stamps.)
        // It holds the first of them, those closed before any tally `close` may still make can
        // look (`HistoryCache.roundsKept`): a round closed past its deadline is tallied as of
        // that deadline.
        let replayHistory = Parallel.Handoff<(rounds: VotingHistory, kept: Int)>()
        let history = contentBefore.map { inventory in
            Parallel.background {
                guard let replayed = replayHistory.take() else { return }
                HistoryCache.warm(from: content, stamps: .from(inventory), layout: layout, kept: replayed.kept) { replayed.rounds }
            }
        }
        defer { history?.wait() }
        // Runs first: a build that ends before its replay doesn't leave the cache waiting.
        defer { replayHistory.giveNothing() }
        // The replay cache is written beside the stages to come, and waited for before the
        // build ends (`ReplayCache.writesAside`).
        let replayWrites = PendingWrites()
        defer { replayWrites.wait() }
        let replayHow = StageNote(), standingsHow = StageNote()
        let progress = showsProgress ? Progress() : nil
        // A ballot changes one project's part of the standings: the others' are the last build's.
        let standings: SiteBuilder.Standings? = StandingCache(layout: layout).flatMap { cache in
            guard contentBefore != nil else { return nil }
            return { [projectKeys] shown in
                let (standing, outcome) = cache.standing(of: shown, keys: projectKeys, badges: shown.config.badges)
                standingsHow.set(Self.standingsNote(outcome))
                return standing
            }
        }
        // Ballots and snippets land in open rounds, which the replay of the closed ones never
        // reads: after one, the last build's replay is taken as it was.
        let builder = SiteBuilder(
            content: content, theme: theme, now: game.now, evidence: evidence, projectKeys: projectKeys,
            keysBesideBallots: keysBesideBallots,
            replay: {
                var replayCache = contentBefore.flatMap { ReplayCache(layout: layout, inventory: $0, content: content, evidence: evidence) }
                replayCache?.writesAside = { replayWrites.start($0) }
                // With rounds closed since, the timeline is wanted: it is made while the cache loads.
                let (found, timelineMade) =
                    early?.isReading == true
                    ? Parallel.beside(
                        { replayCache?.load(for: content, sealed: replayBytes.take()) }, { TallyTimeline(content: content, evidence: evidence) })
                    : (replayCache?.load(for: content, sealed: replayBytes.take()), nil)
                replayBytes.discard()
                if case .adding = found {} else { early?.discard() }
                if case .kept(let kept) = found {
                    replayHistory.giveNothing()
                    replayHow.set("replay of \(Self.closedRounds(kept.count)) kept from the last build")
                    return kept
                }
                // Rounds closed since, each tallied by `close` against what this build read.
                if case .adding(let base) = found, let replayCache, let inventory = contentBefore,
                    let replayed = handed?.replayed(base.added, content: content, inventory: inventory, recorded: recordedKeys, evidence: evidence)
                {
                    early?.discard()
                    replayHistory.giveNothing()
                    let all = replayCache.save(adding: replayed, to: base)
                    let them = replayed.count == 1 ? "it" : "them"
                    replayHow.set(
                        "\(Self.closedRounds(replayed.count)) added to the last build's replay of \(all.count - replayed.count), as close tallied \(them)")
                    return all
                }
                let timeline = timelineMade ?? TallyTimeline(content: content, evidence: evidence)
                // Rounds closed since (`close` then `build`): their tallies are added to the saved
                // replay, against the history `close` keeps, when no other round's tally saw them.
                if case .adding(let base) = found, let replayCache, let inventory = contentBefore {
                    // The history file is read and decoded while the stamps that vouch for it are
                    // derived, from the moment the content loaded (`EarlyHistory`) or else here:
                    // each took a third of this replay's time, one after the other.
                    let (saved, stamps) =
                        early?.taken()
                        ?? Parallel.beside({ HistoryCache.saved(layout) }, { HistoryCache.Stamps.from(inventory) })
                    // Each handed on, not copied: the history is added to in place (27 MB on large).
                    if let past = HistoryCache.history(of: content, leavingOut: base.added, stamps: stamps, saved: consume saved),
                        let (replayed, _) = timeline.replayAdding(base.added, to: consume past)
                    {
                        // The history with those rounds is not saved: `close` reads the few
                        // rounds the saved one lacks, and saves it once they are many
                        // (`HistoryCache.lagLimit`). Saved here (27 MB, and the scan beside it),
                        // it took a rebuild after a `close` 0.15 s of CPU on large, on the two
                        // cores the pages render on.
                        replayHistory.giveNothing()
                        let all = replayCache.save(adding: replayed, to: base)
                        replayHow.set("\(Self.closedRounds(replayed.count)) added to the last build's replay of \(all.count - replayed.count)")
                        return all
                    }
                }
                // The whole game is replayed, and a tie ends in a hash of each tied snippet's
                // text: the kept projects' texts (made only when asked for, `SnippetText`) are
                // made first, on every core, rather than a project at a time as the replay meets
                // them on its one thread.
                _ = Parallel.map(content.projects) { $0.makeDeferredTexts() }
                // Without an inventory there is neither a replay cache nor the history cache's
                // thread to take the history: it is not kept.
                guard history != nil else {
                    let replayed = timeline.replayExplained()
                    replayHow.set("\(Self.closedRounds(replayed.count)) replayed")
                    return ReplayedRounds(replayed)
                }
                let kept = HistoryCache.roundsKept(of: content, now: game.now)
                let (replayed, rounds) = timeline.replayExplainedWithHistory(keeping: kept)
                replayHow.set("\(Self.closedRounds(replayed.count)) replayed")
                replayHistory.give((rounds, kept))
                return replayCache?.save(replayed) ?? ReplayCache.encoded(replayed)
            },
            standings: standings)
        let warnings = builder.warnings.map(\.description)
        // Each batch is written as soon as it is rendered, then dropped. The spare it rewrites is
        // the site the last build replaced, as the build before recorded it.
        let recordedSpare = stamp?.spare.flatMap { spare -> SiteWriter.RecordedSpare? in
            guard isOut(spare.root) else { return nil }
            let (folders, others) = spare.recordedEntries()
            return SiteWriter.RecordedSpare(folders: folders.map(\.path), folderInfo: folders.map(\.info), others: others) {
                spare.foldersAreUnchanged(at: $0)
            }
        }
        let staging = try SiteWriter.Staging(output: folder, spare: recordedSpare)
        let memory = recordedPages.take()
        var pages = 0, count = 0
        // The last build's fingerprints recorded again unchanged are only marked (`Recorder`).
        var fingerprints = PageFingerprints.Recorder(previous: memory?.fingerprints ?? .empty)
        let earlyFingerprints = Parallel.Handoff<BuildStamp.EncodedFingerprints>()
        let report: SiteWriter.Report
        // Batches are written on a thread of their own: the next ones render while the last is
        // written. Up to three are handed over and not yet written (the one being written among
        // them), and the renderer holds a fourth while it waits: at most four in memory. The
        // writer's pace varies (a folder a page, then feeds of 29 KB each), and with room for one
        // the renderers waited 0.17–0.47 s in a large full build, 0.11–0.21 s with room for
        // three, at the same peak memory (785–826 MB). The staging folder is the writer's alone
        // until `finish` returns; its first failure stops the build at the next batch.
        let failure = WriteFailure()
        let writer = Parallel.Pipeline<[OutputFile]>(capacity: 3) { [staging] batch in
            guard failure.error == nil else { return }
            do throws(Diagnostics) { try staging.write(batch) } catch { failure.record(error) }
        }
        /// Waits for the writer to be done, counting the wait as writing.
        func drain() {
            let started = Date(), startedCPU = Self.processCPUSeconds()
            writer.finish()
            writing += Date().timeIntervalSince(started)
            writingCPU += Self.processCPUSeconds() - startedCPU
        }
        do {
            func write(_ batch: [OutputFile]) throws(Diagnostics) {
                if let error = failure.error { throw error }
                pages += batch.lazy.filter { $0.path.hasSuffix(".html") }.count
                count += batch.count
                for file in batch { PageMemory.record(file, into: &fingerprints) }
                let started = Date(), startedCPU = Self.processCPUSeconds()
                defer {
                    writing += Date().timeIntervalSince(started)
                    writingCPU += Self.processCPUSeconds() - startedCPU
                }
                writer.send(batch)
            }
            try builder.build(progress: progress.map { p in { p.show($0, $1) } }, phase: lap, memory: memory, emit: write)
            progress?.finish()
            let media = builder.mediaToCopy
            for start in stride(from: 0, to: media.count, by: 64) {
                var batch: [OutputFile] = []
                for path in media[start..<min(media.count, start + 64)] {
                    batch.append(OutputFile(path: path, contents: try game.reader.mediaBytes(path)))
                }
                try write(batch)
            }
            // Every page is made: the stamp's part for their fingerprints is encoded beside the
            // writer's last batches and the swap, which leave a core idle, when a stamp is saved.
            let encodingFingerprints =
                inputsRecorded
                ? Parallel.background { [fingerprints] in earlyFingerprints.give(BuildStamp.EncodedFingerprints(fingerprints.finished())) }
                : nil
            if encodingFingerprints == nil { earlyFingerprints.giveNothing() }
            defer { encodingFingerprints?.wait() }
            drain()
            if let error = failure.error { throw error }
            lap("media")
            report = try staging.finish()
        } catch {
            writer.finish()
            staging.discard()
            throw error
        }
        lap("swap")
        phases.append(Phase(name: "write", seconds: writeSeconds, cpuSeconds: writeCPU))
        // The new site as the writer left it; walked again only if the writer couldn't say.
        let site =
            inputsRecorded
            ? staging.entries.flatMap { FileInventory(root: folder, written: $0) }
                ?? FileInventory.take(of: folder, guardingRacyWrites: false) : nil
        history?.wait()
        // Within the stamp stage, so that `--timings` counts the whole build.
        replayWrites.wait()
        // The site this build replaced is now the spare, as the last stamp recorded it.
        let replacedSite = staging.replacedASite ? stamp.flatMap { isOut($0.site.root) ? $0.site : nil } : nil
        if let contentBefore, let site {
            encodingInputs?.wait()
            let inputs = stampInputs.take()
            let stamp = BuildStamp(
                key: key, content: contentBefore,
                sealed: inputs?.sealed ?? SealedRounds(content) { !contentBefore.isAsRecorded("projects/\($0)") },
                templates: templatesBefore, subtreeKeys: subtreeKeys,
                site: site, pages: pages, files: count,
                fingerprints: earlyFingerprints.take() ?? BuildStamp.EncodedFingerprints(fingerprints.finished()), spare: replacedSite)
            if let inputs { stamp.save(layout, inputs: inputs) } else { stamp.save(layout) }
            Parallel.release(stamp)
        }
        lap("stamp")
        // Freeing the content, the records and the writer's lists is left to another thread, as
        // the model is (`Parallel.release`), or to the process's exit. The content and the
        // builder are handed over whole; the others are shared with this frame until it returns
        // (a test run may then free what is left of them here).
        Parallel.release((consume content, consume builder, stamp, memory, fingerprints, staging, site, recordedSpare))
        return Summary(
            pages: pages, files: count, seconds: Date().timeIntervalSince(start), written: report.written,
            phases: phases, replay: replayHow.value, standings: standingsHow.value, warnings: warnings,
            evidence: evidenceHow.description)
    }

    /// `build --timings`' line on the standings.
    static func standingsNote(_ outcome: StandingCache.Outcome) -> String {
        switch outcome {
        case .counted(let count): "standings of \(count) project\(count == 1 ? "" : "s") counted"
        case .updated(let count): "standings kept from the last build, \(count) project\(count == 1 ? "" : "s") counted again"
        }
    }

    /// User and system CPU seconds of this process so far, all threads, and of the child
    /// processes it has waited for (`git`, for the identity evidence).
    static func processCPUSeconds() -> Double {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        func used(by who: __rusage_who) -> Double {
            var usage = rusage()
            guard getrusage(who.rawValue, &usage) == 0 else { return 0 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
        return used(by: RUSAGE_SELF) + used(by: RUSAGE_CHILDREN)
    }

    /// `1 closed round`, `2 closed rounds`.
    static func closedRounds(_ count: Int) -> String { "\(count) closed round\(count == 1 ? "" : "s")" }

    /// `folder` if it is a folder, else nil.
    static func existingFolder(_ folder: String) -> String? {
        FileSystem.isDirectory(folder) ? folder : nil
    }

    /// Refuses an `--out` folder that is, holds or lies inside the content directory or the
    /// templates folder, or whose spare (`.NAME.spare` beside it, see `SiteWriter`) is or holds one.
    ///
    /// Each build replaces the whole `--out` folder with the new site, so such an `--out` would
    /// delete the content (`--out Content`, `--out .`), part of it (`--out Content/users`), or
    /// the templates; inside the content, the site's files would also become content. Paths are
    /// compared once symbolic links are resolved, so another spelling of the same folder is caught.
    /// Gives the folder the site is written into (`siteFolder`).
    @discardableResult
    package static func checkOutput(_ out: String, content: String, templates: String) throws(Diagnostics) -> String {
        let written = try siteFolder(out)
        let site = resolved(out)
        // The spare sits beside the folder the site is written to (a link's target).
        let given = FileSystem.trimmingTrailingSlashes(written)
        for (folder, name) in [(content, "the content directory"), (templates, "the templates folder")] {
            guard FileSystem.exists(folder) else { continue }
            let kept = resolved(folder)
            let relation: String
            if site == kept {
                relation = "is"
            } else if isInside(kept, site) {
                relation = "holds"
            } else if isInside(site, kept) {
                relation = "is inside"
            } else if case let spare = resolved(SiteWriter.spare(of: given)), spare == kept || isInside(kept, spare) {
                throw Diagnostics([
                    .plain(
                        "--out '\(out)' keeps the site each build replaces in '\(spare)', which \(spare == kept ? "is" : "holds") \(name) '\(folder)': the next build would rewrite it, so the site must go elsewhere")
                ])
            } else {
                continue
            }
            throw Diagnostics([
                .plain(
                    "--out '\(out)' \(relation) \(name) '\(folder)': each build replaces the whole --out folder, so the site must go elsewhere")
            ])
        }
        return written
    }

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path != "/" : path.hasPrefix(folder + "/")
    }

    /// The folder a build writes the site into: `--out` itself or, when `--out` is a symbolic
    /// link, the folder it leads to (resolved whole), so that the link stays. Swapping the new
    /// site in for the link itself replaced the link with a folder and left the old site where it
    /// led, which a maintainer publishing through a link doesn't expect. A link that leads to no
    /// folder is refused.
    static func siteFolder(_ out: String) throws(Diagnostics) -> String {
        let given = FileSystem.trimmingTrailingSlashes(out)
        guard FileSystem.isSymlink(given) else { return out }
        let target = FileSystem.realPath(given)
        guard let target, FileSystem.isDirectory(target) else {
            let leadsTo = target == nil ? "nothing" : "a file"
            throw Diagnostics([.plain("--out '\(out)' is a symbolic link to \(leadsTo), not a folder: give a folder or a link to one")])
        }
        return target
    }

    /// `path` absolute, with `.`, `..` and the symbolic links of the part that exists resolved.
    static func resolved(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        var result = url.resolvingSymlinksInPath().path
        for component in missing { result = result == "/" ? "/" + component : result + "/" + component }
        return result
    }

    func loadTheme() throws -> Theme {
        if let templates { return try Theme.load(folder: templates) }
        return try Theme.builtIn(orFolder: Self.templatesBeside(global.content))
    }

    /// `Templates/` beside the content directory, relative to the working folder when inside it.
    package static func templatesBeside(_ content: String) -> String {
        let beside = URL(fileURLWithPath: content).deletingLastPathComponent().appendingPathComponent("Templates").path
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return beside.hasPrefix(cwd) ? String(beside.dropFirst(cwd.count)) : beside
    }

    /// `Rendering 120/431 pages` on one rewritten terminal line, at most ten times a second.
    final class Progress {
        private var last = Date.distantPast

        func show(_ done: Int, _ total: Int) {
            let now = Date()
            guard done == total || now.timeIntervalSince(last) >= 0.1 else { return }
            last = now
            FileHandle.standardError.write(Data("\r\u{1B}[2KRendering \(done)/\(total) pages".utf8))
        }

        func finish() { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}

/// The history `close` keeps (`HistoryCache.saved`) and the stamps that vouch for it
/// (`HistoryCache.Stamps.from`), read and derived on threads of their own from the moment the
/// content is loaded, when the replay cache lacks rounds the content has closed: a build after
/// a `close` (`ReplayCache.roundsLacking`, itself told on the first of those threads), unless
/// `close` handed over the tallies of as many rounds as the replay lacks (`HandedTallies`).
/// Were those refused, the replay reads them itself.
private final class EarlyHistory: Sendable {
    private let saved = Parallel.Handoff<HistoryCache.Saved>()
    private let stamps = Parallel.Handoff<HistoryCache.Stamps>()
    private let reading = Parallel.Handoff<Bool>()
    private let pending: Parallel.Pending

    init(layout: ContentLayout, content: Content, inventory: FileInventory, handed: HandedTallies?) {
        pending = Parallel.background { [saved, stamps, reading] in
            let lacking = ReplayCache.roundsLacking(layout, content: content)
            guard lacking > 0, handed?.closedRounds(in: content) != lacking else {
                reading.give(false)
                saved.giveNothing()
                stamps.giveNothing()
                return
            }
            reading.give(true)
            let (derived, read) = Parallel.beside({ HistoryCache.Stamps.from(inventory) }, { HistoryCache.saved(layout) })
            if let read { saved.give(read) } else { saved.giveNothing() }
            stamps.give(derived)
        }
    }

    /// Whether they are being had (the replay then wants its timeline too): asked once.
    var isReading: Bool { reading.take() ?? false }

    /// Both, once there; nil when they are not being had.
    func taken() -> (HistoryCache.Saved?, HistoryCache.Stamps)? {
        guard let stamps = stamps.take() else { return nil }
        return (saved.take(), stamps)
    }

    /// Lets both go, now or when they come, without waiting: the replay was kept or made anew
    /// (the hint doesn't know the cache's key), and the 27 MB history would otherwise be held
    /// until the build ends.
    func discard() {
        saved.discard()
        stamps.discard()
    }

    func wait() { pending.wait() }
}

/// How a build had its replay or its standings, from the thread that had them, for `--timings`.
private final class StageNote: @unchecked Sendable {
    private let lock = NSLock()
    private var note: String?

    var value: String? { lock.withLock { note } }

    func set(_ note: String) { lock.withLock { self.note = note } }
}

/// Writes started on threads of their own (`Parallel.background`), each waited for before the
/// build ends: a process that ended first would leave a temporary file and no cache.
private final class PendingWrites: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Parallel.Pending] = []

    func start(_ write: @escaping @Sendable () -> Void) {
        let started = Parallel.background(write)
        lock.withLock { pending.append(started) }
    }

    func wait() {
        for write in lock.withLock({ pending }) { write.wait() }
    }
}

/// The first error of the thread that writes a site's batches, for the thread that renders them.
private final class WriteFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Diagnostics?

    var error: Diagnostics? { lock.withLock { first } }

    func record(_ error: Diagnostics) { lock.withLock { if first == nil { first = error } } }
}
