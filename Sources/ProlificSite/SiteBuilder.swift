#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Crypto
import ProlificCore

/// One file of the built site.
public struct OutputFile: Sendable, Hashable {
    /// Its path inside the site, such as `projects/moon/index.html`.
    public var path: String
    public var contents: [UInt8]
    /// A page's `PageFingerprint`, for the next build's `PageMemory`; nil for other files.
    public var fingerprint: [UInt8]?
    /// Whether the file is the previous site's, kept as it is (`contents` is then empty): its
    /// page's fingerprint is the one the last build recorded.
    public var keepsPrevious = false
    /// The previous site's file a kept file is, when the check that found it intact looked at
    /// its device and inode: the writer then links or leaves it without looking again.
    public var previous: Previous?
    /// Where the last build's `PageFingerprints` hold a kept file's fingerprint: recorded
    /// again there without looking the path up (`PageFingerprints.Recorder`).
    public var recordedEntry: Int?
    /// Fingerprints to record for the next build besides the file's own, under paths that
    /// name no file: a project's page carries the key of its round pages and the shortcut to
    /// it (`SiteBuilder.keptGroups`).
    public var alsoRecorded: [Record] = []

    /// A fingerprint recorded under `path` (`PageMemory.fingerprints`).
    public struct Record: Sendable, Hashable {
        public var path: String
        public var fingerprint: [UInt8]
    }

    /// A file of the previous site, by its device and inode.
    public struct Previous: Sendable, Hashable {
        public var device: UInt64
        public var inode: UInt64
        /// The file's metadata, when the recorded spare holds this very file (the same inode) at
        /// the same path: a writer rewriting that spare, its folders as recorded, leaves it there
        /// without looking at it (a large rebuild keeps 37,000 files, each an `lstat`).
        public var inSpare: stat?

        public init(device: UInt64, inode: UInt64, inSpare: stat? = nil) {
            (self.device, self.inode, self.inSpare) = (device, inode, inSpare)
        }

        /// The same file: the same device and inode.
        public static func == (a: Previous, b: Previous) -> Bool { a.device == b.device && a.inode == b.inode }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(device)
            hasher.combine(inode)
        }
    }

    public init(path: String, contents: [UInt8], fingerprint: [UInt8]? = nil) {
        self.path = path
        self.contents = contents
        self.fingerprint = fingerprint
    }

    /// The previous site's file at `path`, kept.
    static func kept(_ path: String, fingerprint: [UInt8], previous: Previous? = nil, entry: Int? = nil) -> OutputFile {
        var file = OutputFile(path: path, contents: [], fingerprint: fingerprint)
        file.keepsPrevious = true
        file.previous = previous
        file.recordedEntry = entry
        return file
    }

    init(path: String, text: String) {
        self.init(path: path, contents: Array(text.utf8))
    }
}

/// What the last build rendered, for pages to keep instead of rendering again: each page's
/// fingerprint, by path, and whether the previous site's file at a path is still the one that
/// build wrote (not edited or replaced since).
public struct PageMemory: Sendable {
    public var fingerprints: PageFingerprints
    /// The previous site's file at a path when it is still the one the last build wrote (nil
    /// when it was edited, replaced or removed since), by its device and inode when known.
    private var intact: @Sendable (String) -> OutputFile.Previous??
    /// The bytes of the previous site's file at a path while it is intact, for a file made
    /// again from parts of it (`SearchIndex`); nil when they can't be had.
    private var contents: @Sendable (String) -> [UInt8]?

    public init(
        fingerprints: PageFingerprints, isIntact: @escaping @Sendable (String) -> Bool,
        contents: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.fingerprints = fingerprints
        intact = { isIntact($0) ? .some(nil) : nil }
        self.contents = contents
    }

    /// With the device and inode of each intact file: the writer needn't look at it again.
    public init(
        fingerprints: PageFingerprints, intact: @escaping @Sendable (String) -> OutputFile.Previous?,
        contents: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.fingerprints = fingerprints
        self.intact = { intact($0).map { .some($0) } }
        self.contents = contents
    }

    /// The previous site's file at `path`, read, while it is the one the last build wrote.
    func previousContents(_ path: String) -> [UInt8]? { contents(path) }

    /// Adds what `file` records for the next build to `fingerprints`.
    public static func record(_ file: OutputFile, into fingerprints: inout PageFingerprints.Recorder) {
        if let fingerprint = file.fingerprint { fingerprints.record(file.path, fingerprint, at: file.recordedEntry) }
        for also in file.alsoRecorded { fingerprints.record(also.path, also.fingerprint) }
    }

    /// The previous site's file at `path`, kept, if it may be: its fingerprint is the recorded
    /// one and the file is intact.
    func kept(_ path: String, _ fingerprint: [UInt8]?) -> OutputFile? {
        guard let fingerprint, let entry = fingerprints.entry(path, recording: fingerprint), let previous = intact(path) else {
            return nil
        }
        return OutputFile.kept(path, fingerprint: fingerprint, previous: previous, entry: entry)
    }

    /// The previous site's file at `path`, kept with the fingerprint recorded for it, if it has
    /// one and is intact: for a page whose group's key (`SiteBuilder.keptGroups`) vouches for it.
    func keptAsRecorded(_ path: String) -> OutputFile? {
        guard let entry = fingerprints.entry(path), let previous = intact(path) else { return nil }
        return OutputFile.kept(path, fingerprint: fingerprints.fingerprint(at: entry), previous: previous, entry: entry)
    }
}

/// Renders loaded content into the files of a static site. Pure apart from cmark: the same content,
/// theme and `now` give the same bytes.
public struct SiteBuilder {
    let content: Content
    let theme: Theme
    let now: Timestamp
    /// What git says about who committed what, for re-running the fair tally of each round.
    let evidence: IdentityEvidence
    /// What identifies each project's files, by slug (see `SiteModel.projectKeys`).
    let projectKeys: [Slug: String]
    /// The same without its open round's ballots (see `SiteModel.keysBesideBallots`).
    let keysBesideBallots: [Slug: String]
    let replay: Replay?
    let standings: Standings?

    /// Every closed round's tally re-run, as `TallyTimeline(content:evidence:).replayExplained()`
    /// gives it for this builder's content and evidence: a caller that kept the result of an
    /// earlier build for the same files hands it over instead of re-running a replay that can't
    /// be split (`ReplayCache`), with each round's bytes when it has them (round pages are then
    /// kept by those bytes). Called once, on a thread of its own.
    public typealias Replay = () -> ReplayedRounds

    /// The standings of the content pages show (hidden snippets left out), as
    /// `Standing(content:badges:)` counts them: a caller that kept an earlier build's count hands
    /// it over, with the projects that changed counted again (`StandingCache`).
    public typealias Standings = @Sendable (Content) -> Standing

    /// `projectKeys` names the files each project was read from: equal keys in two builds must
    /// mean the same files with the same contents. A project without one has its pages worked
    /// out in full at every build.
    public init(
        content: Content, theme: Theme, now: Timestamp, evidence: IdentityEvidence = IdentityEvidence(),
        projectKeys: [Slug: String] = [:], keysBesideBallots: [Slug: String]? = nil, replay: Replay? = nil,
        standings: Standings? = nil
    ) {
        self.content = content
        self.theme = theme
        self.now = now
        self.evidence = evidence
        self.projectKeys = projectKeys
        self.keysBesideBallots = keysBesideBallots ?? projectKeys
        self.replay = replay
        self.standings = standings
    }

    /// The images, by path inside the content directory, that the site carries at the same path:
    /// those of profiles and of projects that are built. The caller copies them.
    public var mediaToCopy: [String] {
        let built = content.projects.filter { $0.visibility != .draft }
        return Media(files: content.media).copied(built: built)
    }

    /// Every file of the site, in path order. `progress` hears `(pages done, pages in all)`.
    public func build(progress: ((Int, Int) -> Void)? = nil) throws(Diagnostics) -> [OutputFile] {
        var files: [OutputFile] = []
        try build(progress: progress) { (batch: [OutputFile]) throws(Diagnostics) in files += batch }
        return files.sorted { $0.path < $1.path }
    }

    /// Renders the site batch by batch, handing each batch of files to `emit` (from this
    /// thread) as soon as it is ready, so the caller can write it and let it go: a big site
    /// never sits whole in memory. Returns how many pages (HTML files) there were.
    /// `phase` hears the name of each stage as it ends (model, pages, cards, indexes and feeds,
    /// books, static), for `build --timings`.
    ///
    /// With a `memory` of the last build, a page whose fingerprint is unchanged and whose file in
    /// the previous site is intact is not rendered: it comes as a file that `keepsPrevious`.
    @discardableResult
    public func build(
        progress: ((Int, Int) -> Void)? = nil, phase: ((String) -> Void)? = nil, memory: PageMemory? = nil,
        emit: ([OutputFile]) throws(Diagnostics) -> Void
    ) throws(Diagnostics) -> Int {
        let site = SiteModel(
            content: content, now: now, evidence: evidence, html: Markdown.html, projectKeys: projectKeys,
            keysBesideBallots: keysBesideBallots, replay: replay, standings: standings)
        phase?("model")
        let kept = keptGroups(of: site, memory: memory)
        let jobs = Self.jobs(of: site, kept: kept)
        try render(jobs, kept: kept, of: site, progress: progress, phase: phase, memory: memory, emit: emit)
        let count = jobs.count + kept.files.count
        // Freeing the model (millions of objects) is left to another thread.
        Parallel.release((consume site, consume jobs, consume kept))
        return count
    }

    /// Each project's round pages as a group: their key, and those kept whole.
    struct KeptGroups {
        /// What each project's page records for the next build about its round pages
        /// (`OutputFile.alsoRecorded`): their key (`RoundPages.groupInputs`), and the shortcut
        /// to it when the project has one (`roundPagesShortcut`).
        var records: [Slug: [OutputFile.Record]] = [:]
        /// The projects whose round pages are all kept, with no job made for them.
        var projects: Set<Slug> = []
        /// Those whose key was the recorded one by the shortcut, without working it out.
        var byShortcut: Set<Slug> = []
        /// Their files, project by project in slug order.
        var files: [OutputFile] = []
        /// Those of listed projects, for the sitemap: the pages `RoundPages.context` leaves
        /// indexed.
        var listed: [String] = []
    }

    /// The key of each project's closed rounds' pages together (`RoundPages.groupInputs`), which
    /// the project's page records for the next build, and the projects whose key is the one the
    /// last build recorded: their round pages are kept as they are, each after its intact check,
    /// without a job for any of them.
    ///
    /// Working the keys out was the biggest part of a rebuild after a ballot that grows with the
    /// projects kept (7 % of its `perf` samples on large: every closed round's players and
    /// names, replay and context). Everything a key is made of is either its project's files
    /// (`keysBesideBallots`), its own rounds' replay (`replayIdentity`) or shared by every
    /// project (`sharedRoundPageInputs`), so a project whose files key, replay and the shared
    /// digest are all those of the last build has the key the last build recorded: each project
    /// records its shortcut beside its key, and the key is then taken from the record.
    func keptGroups(of site: SiteModel, memory: PageMemory?) -> KeptGroups {
        let built = site.built
        let rounds = RoundPages(site: site)
        let shared = Self.sharedRoundPageInputs(of: site)
        let found = Parallel.map(Array(built.indices)) { p -> (records: [OutputFile.Record], byShortcut: Bool, files: [OutputFile]?) in
            let slug = built[p].slug
            let recorded = memory?.fingerprints[SitePath.roundsGroup(slug)]
            let shortcut = Self.roundPagesShortcut(
                site.keysBesideBallots[slug], replay: Self.replayIdentity(of: built[p], in: site.replayed), shared: shared,
                theme: theme.digest)
            let key: [UInt8], byShortcut: Bool
            if let shortcut, let recorded, memory?.fingerprints[SitePath.roundsShortcut(slug)] == shortcut {
                (key, byShortcut) = (recorded, true)
            } else {
                guard let inputs = rounds.groupInputs(of: built[p]) else { return ([], false, nil) }
                (key, byShortcut) = (PageFingerprint.of(template: "rounds", inputs: inputs, theme: theme.digest), false)
            }
            var records = [OutputFile.Record(path: SitePath.roundsGroup(slug), fingerprint: key)]
            if let shortcut { records.append(OutputFile.Record(path: SitePath.roundsShortcut(slug), fingerprint: shortcut)) }
            guard let memory, recorded == key else { return (records, byShortcut, nil) }
            var files: [OutputFile] = []
            for r in built[p].rounds.indices where !built[p].rounds[r].isOpen {
                let path = SitePath.round(slug, built[p].rounds[r].number)
                guard let round = memory.keptAsRecorded(path) else { return (records, byShortcut, nil) }
                files.append(round)
            }
            return (records, byShortcut, files)
        }
        var kept = KeptGroups()
        // Room for every kept file at once: 18,000 on a large rebuild, grown by doubling.
        kept.files.reserveCapacity(found.reduce(0) { $0 + ($1.files?.count ?? 0) })
        for (p, group) in found.enumerated() {
            kept.records[built[p].slug] = group.records
            if group.byShortcut { kept.byShortcut.insert(built[p].slug) }
            guard let files = group.files else { continue }
            kept.projects.insert(built[p].slug)
            kept.files += files
            if built[p].visibility == .listed { kept.listed += files.map(\.path) }
        }
        return kept
    }

    /// What every project's round pages read beyond their project's files and their own
    /// rounds' replay, as one digest: the site's title and address (in each page's context),
    /// libcmark's version and every player's name by handle. Whatever else `RoundPages.inputs`
    /// and `context` read comes from the project's files, its rounds' replay or is a constant;
    /// the theme goes into each shortcut as into the key itself (`roundPagesShortcut`).
    static func sharedRoundPageInputs(of site: SiteModel) -> [UInt8] {
        var inputs = PageInputs()
        inputs.add(site.config.title)
        inputs.add(site.config.baseURL)
        inputs.add(Markdown.version)
        // Every player, in the handle order the model already keeps (`SiteModel.users`, whose
        // names `site.names` holds).
        inputs.list(site.users.count)
        for user in site.users {
            inputs.add(user.handle.rawValue)
            inputs.add(user.name)
        }
        return Array(SHA256.hash(data: inputs.bytes))
    }

    /// What a project's round pages read of the replay (`RoundPages.addReplay`,
    /// `addShownPlayers`), as one digest: each closed round's bytes and whether it has an
    /// explanation (`ReplayedRounds.Identity`, kept with the replay where it was saved). Each
    /// project's own: a round closed elsewhere leaves it as it was, where one digest of the whole
    /// replay made every project work its key out again after each `close`. Empty for a
    /// project without closed rounds; nil when the replay has none for the project or it covers
    /// other than the project's closed rounds: its pages would then be told apart only by
    /// decoding the replay.
    static func replayIdentity(of project: Project, in replayed: ReplayedRounds) -> [UInt8]? {
        let closed = project.closedRoundCount
        guard closed > 0 else { return [] }
        guard let identity = replayed.identities[project.slug], identity.rounds == closed else { return nil }
        return identity.digest
    }

    /// A shortcut to the key of a project's round pages: equal shortcuts in two builds mean
    /// equal keys. Made of the project's files but the open round's ballots, its rounds' replay
    /// and the inputs every project's round pages share; nil without a key for the files or an
    /// identity for the replay.
    static func roundPagesShortcut(_ files: String?, replay: [UInt8]?, shared: [UInt8], theme: [UInt8]) -> [UInt8]? {
        guard let files, let replay else { return nil }
        var inputs = PageInputs()
        inputs.add(files)
        inputs.add(replay[...])
        inputs.add(shared[...])
        return PageFingerprint.of(template: "rounds-shortcut", inputs: inputs, theme: theme)
    }

    /// A page's fingerprint by its inputs (`PageJob.inputs`) and context; nil for a page that
    /// has none.
    private func fingerprint(byInputsOf job: PageJob) -> [UInt8]? {
        guard var inputs = job.inputs?() else { return nil }
        inputs.add(job.context)
        return PageFingerprint.of(template: job.template, inputs: inputs, theme: theme.digest)
    }

    /// The page's file: the previous site's when its fingerprint is the recorded one and the
    /// file is intact, else rendered. By its inputs, the page's values are worked out only if
    /// it has changed.
    private func page(_ job: PageJob, memory: PageMemory?) throws(Diagnostics) -> OutputFile {
        let path = job.context.path
        if let fingerprint = fingerprint(byInputsOf: job) {
            if let kept = memory?.kept(path, fingerprint) { return kept }
            let values = job.context.values(job.values())
            return OutputFile(path: path, contents: try theme.render(job.template, values), fingerprint: fingerprint)
        }
        let values = job.context.values(job.values())
        let fingerprint = PageFingerprint.of(template: job.template, values: values, theme: theme.digest)
        if let kept = memory?.kept(path, fingerprint) { return kept }
        return OutputFile(path: path, contents: try theme.render(job.template, values), fingerprint: fingerprint)
    }

    /// What the build makes that the theme may not show, as warnings. A theme copied by
    /// `prolific init` before these changes builds, but (docs/templates.md):
    /// - the players' list is 100 a page, and a `users.mustache` without pagination links to
    ///   none after the first, so those players are listed nowhere a reader would find them;
    /// - the home page shows the first 12 stories in progress and links to the full list
    ///   (`in-progress/`), and an `index.mustache` without the link leaves the rest to the tags.
    public var warnings: [Diagnostic] {
        var warnings: [Diagnostic] = []
        // The theme is asked first: with one that links as it should (the built-in one), the
        // stories in progress are not counted on every rebuild's path.
        if !theme.names("pagination", in: "users"), content.users.count > Pagination<User>.pageSize {
            warnings.append(
                Diagnostic(
                    severity: .warning, path: theme.templatePaths["users"] ?? "users.mustache",
                    message: "the players' list is \(Pagination<User>.pageSize) a page, and this template shows no "
                        + "pagination: add {{> pagination}} after the list, or nothing links to users/page-2.html and after "
                        + "(docs/templates.md)"))
        }
        if !theme.names("inProgressURL", in: "index"),
            content.projects.count(where: { $0.visibility == .listed && !SiteModel.isComplete($0) }) > HomePages.inProgressOnHome
        {
            warnings.append(
                Diagnostic(
                    severity: .warning, path: theme.templatePaths["index"] ?? "index.mustache",
                    message: "the home page shows the first \(HomePages.inProgressOnHome) stories in progress, and this "
                        + "template doesn't link to the full list: add <a href=\"{{root}}{{inProgressURL}}\">"
                        + "{{moreInProgressLabel}}</a> inside {{#hasMoreInProgress}}, or nothing links to in-progress/ "
                        + "(docs/templates.md)"))
        }
        return warnings
    }

    /// Every page of the site but the round pages `kept` keeps (`keptGroups`). The pages about
    /// every player or project (badges, leaderboards, calendar, the players' list), worked out
    /// anew in every build or made again whenever a player's karma changes, come first: last,
    /// they left one core working alone on them while the other idled (0.1 s of a large rebuild;
    /// the players' list, when it was one page 5,000 players long, 20–40 ms of one after a
    /// `close`).
    ///
    /// The kinds' jobs are made side by side, in this order: one after the other they kept one
    /// core busy alone for 50 ms of a large rebuild (the home page's lists and chart, 5,000
    /// profiles, 2,000 projects). The round pages, 20,000 jobs in a full build, come as ranges
    /// of 128 projects among them (a `Parallel.map` inside another runs on one core).
    static func jobs(of site: SiteModel, kept: KeptGroups) -> [PageJob] {
        let rounds = RoundPages(site: site)
        let roundRanges = stride(from: 0, to: site.built.count, by: 128).map { $0..<min(site.built.count, $0 + 128) }
        let kinds: [() -> [PageJob]] =
            [
                {
                    [BadgePages(site: site).job(), LeaderboardPages(site: site).job()] + UserPages(site: site).listJobs() + [
                        CalendarPages(site: site).job(), SearchPages(site: site).job(),
                    ]
                },
                { HomePages(site: site).jobs() },
                { ProjectPages(site: site).jobs(recordingRoundGroups: kept.records) },
            ] + roundRanges.map { range in { rounds.jobs(skipping: kept.projects, of: range) } } + [
                { UserPages(site: site).profileJobs() },
                {
                    [
                        PageJob(
                            "404",
                            PageContext(
                                site: site.config, now: site.now, path: SitePath.notFound, title: "Page not found",
                                description: "This page isn’t part of the story."), values: { [:] })
                    ]
                },
            ]
        return Parallel.map(kinds, batch: 1) { $0() }.flatMap { $0 }
    }

    /// Renders `jobs` and every other file of the site, batch by batch (see `build`), with the
    /// files of the `kept` groups.
    private func render(
        _ jobs: [PageJob], kept: KeptGroups, of site: SiteModel, progress: ((Int, Int) -> Void)?,
        phase: ((String) -> Void)?, memory: PageMemory?, emit: ([OutputFile]) throws(Diagnostics) -> Void
    ) throws(Diagnostics) {
        // Batches on every core; progress is told between batches, from this thread. A batch of
        // kept files follows each batch of pages, so the writer places them while pages render.
        let batch = 512
        let total = jobs.count + kept.files.count
        var keptStart = 0
        func emitKept() throws(Diagnostics) {
            guard keptStart < kept.files.count else { return }
            let end = min(kept.files.count, keptStart + batch)
            try emit(Array(kept.files[keptStart..<end]))
            keptStart = end
        }
        for start in stride(from: 0, to: jobs.count, by: batch) {
            let slice = Array(jobs[start..<min(jobs.count, start + batch)])
            // The first batch starts with the pages about the whole site, one at a time for each
            // core, while the other pages fill in.
            try emit(
                try Parallel.map(slice, batch: start == 0 ? 1 : 8) { (job: PageJob) throws(Diagnostics) in
                    var file = try page(job, memory: memory)
                    file.alsoRecorded = job.alsoRecorded
                    return file
                })
            try emitKept()
            progress?(start + slice.count + keptStart, total)
        }
        let lastKept = keptStart
        while keptStart < kept.files.count { try emitKept() }
        if keptStart > lastKept { progress?(total, total) }
        phase?("pages")
        // The players' badge cards, a batch at a time, before the feeds: the writer places each
        // batch while the next ones and the feeds render. Made last, in one batch of 5,000, they
        // left the renderers waiting for the writer at the end of every build, one core idle.
        // A card is kept by its inputs, as a page is: left to the writer's comparison with the
        // previous site's file, it cost 5,000 opens and reads a large rebuild.
        let users = site.users
        for start in stride(from: 0, to: users.count, by: batch) {
            try emit(Parallel.map(Array(users[start..<min(users.count, start + batch)])) { BadgeCard(site: site, user: $0).file(memory: memory) })
        }
        phase?("cards")
        // The search index on a thread of its own while every feed, the calendar, the sitemap
        // and robots.txt render on every core, a small batch at a time: the index alone keeps a
        // core busy for a third of the time all feeds take, and the kernel shares the cores
        // among the threads (on two cores: the index's and the two workers'). The index used to
        // lead one first batch of 2,048 files, big enough to keep the other core busy meanwhile,
        // so all of them waited in memory for it: with the writer's queue, up to about 4,000
        // feeds of 29 KB at once, all in new pages of memory, which are dear on this machine
        // (docs/performance.md, "Fresh memory").
        let listedPages = jobs.filter(\.isListed).map(\.context.path) + kept.listed
        let feeds = AtomFeeds(site: site)
        let files: [() -> OutputFile] =
            [
                { ICalendar(site: site).file(memory: memory) }, { SiteMap.file(pages: listedPages, baseURL: site.config.baseURL) },
                { SiteMap.robots(baseURL: site.config.baseURL) },
            ] + feeds.files(memory: memory)
        let (search, failure) = Parallel.beside({ SearchIndex(site: site).file(memory: memory) }) { () -> Diagnostics? in
            do throws(Diagnostics) {
                let feedBatch = 128
                for start in stride(from: 0, to: files.count, by: feedBatch) {
                    // One file at a time from the shared counter: the sitemap and the calendar
                    // (when its deadlines changed), which lead the first batch, take far longer
                    // than a kept feed, and in the same take of eight one core made both while
                    // the other ran out of feeds.
                    try emit(Parallel.map(Array(files[start..<min(files.count, start + feedBatch)]), batch: 1) { $0() })
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        try emit([search])
        phase?("indexes and feeds")
        try emit(try EpubBooks(site: site).files(memory: memory))
        phase?("books")
        try emit(theme.staticFiles.map { OutputFile(path: $0.path, contents: $0.contents) })
        phase?("static")
    }
}
