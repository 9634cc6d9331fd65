#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
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
    /// A fingerprint to record for the next build besides the file's own, under a path that
    /// names no file: a project's page carries the key of its round pages
    /// (`SiteBuilder.keptGroups`).
    public var alsoRecorded: Record?

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
    static func kept(_ path: String, fingerprint: [UInt8], previous: Previous? = nil) -> OutputFile {
        var file = OutputFile(path: path, contents: [], fingerprint: fingerprint)
        file.keepsPrevious = true
        file.previous = previous
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
    public var fingerprints: [String: [UInt8]]
    /// The previous site's file at a path when it is still the one the last build wrote (nil
    /// when it was edited, replaced or removed since), by its device and inode when known.
    private var intact: @Sendable (String) -> OutputFile.Previous??

    public init(fingerprints: [String: [UInt8]], isIntact: @escaping @Sendable (String) -> Bool) {
        self.fingerprints = fingerprints
        intact = { isIntact($0) ? .some(nil) : nil }
    }

    /// With the device and inode of each intact file: the writer needn't look at it again.
    public init(fingerprints: [String: [UInt8]], intact: @escaping @Sendable (String) -> OutputFile.Previous?) {
        self.fingerprints = fingerprints
        self.intact = { intact($0).map { .some($0) } }
    }

    /// Adds what `file` records for the next build to `fingerprints`.
    public static func record(_ file: OutputFile, into fingerprints: inout [String: [UInt8]]) {
        if let fingerprint = file.fingerprint { fingerprints[file.path] = fingerprint }
        if let also = file.alsoRecorded { fingerprints[also.path] = also.fingerprint }
    }

    /// The previous site's file at `path`, kept, if it may be: its fingerprint is the recorded
    /// one and the file is intact.
    func kept(_ path: String, _ fingerprint: [UInt8]?) -> OutputFile? {
        guard let fingerprint, fingerprints[path] == fingerprint, let previous = intact(path) else { return nil }
        return OutputFile.kept(path, fingerprint: fingerprint, previous: previous)
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

    /// Every closed round's tally re-run, as `TallyTimeline(content:evidence:).replayExplained()`
    /// gives it for this builder's content and evidence: a caller that kept the result of an
    /// earlier build for the same files hands it over instead of re-running a replay that can't
    /// be split (`ReplayCache`), with each round's bytes when it has them (round pages are then
    /// kept by those bytes). Called once, on a thread of its own.
    public typealias Replay = () -> ReplayedRounds

    /// `projectKeys` names the files each project was read from: equal keys in two builds must
    /// mean the same files with the same contents. A project without one has its pages worked
    /// out in full at every build.
    public init(
        content: Content, theme: Theme, now: Timestamp, evidence: IdentityEvidence = IdentityEvidence(),
        projectKeys: [Slug: String] = [:], keysBesideBallots: [Slug: String]? = nil, replay: Replay? = nil
    ) {
        self.content = content
        self.theme = theme
        self.now = now
        self.evidence = evidence
        self.projectKeys = projectKeys
        self.keysBesideBallots = keysBesideBallots ?? projectKeys
        self.replay = replay
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

    /// Renders the site batch by batch, handing each batch of files to `emit` as soon as it is
    /// ready, so the caller can write it and let it go: a big site never sits whole in memory.
    /// Returns how many pages (HTML files) there were. `phase` hears the name of each stage as
    /// it ends (model, pages, indexes and feeds with the badge cards, books, static), for
    /// `build --timings`.
    /// `emit`, `progress` and `phase` are called one call at a time, in order, but the pages'
    /// and feeds' batches from whichever worker completed them (`Parallel.stream`).
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
            keysBesideBallots: keysBesideBallots, replay: replay)
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
        /// The key of each project's round pages, when they have inputs (`RoundPages.groupInputs`).
        var keys: [Slug: [UInt8]] = [:]
        /// The projects whose round pages are all kept, with no job made for them.
        var projects: Set<Slug> = []
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
    func keptGroups(of site: SiteModel, memory: PageMemory?) -> KeptGroups {
        let built = site.built
        let rounds = RoundPages(site: site)
        let found = Parallel.map(Array(built.indices)) { p -> (key: [UInt8]?, files: [OutputFile]?) in
            guard let inputs = rounds.groupInputs(of: built[p]) else { return (nil, nil) }
            let key = PageFingerprint.of(template: "rounds", inputs: inputs, theme: theme.digest)
            guard let memory, memory.fingerprints[SitePath.roundsGroup(built[p].slug)] == key else { return (key, nil) }
            var files: [OutputFile] = []
            for r in built[p].rounds.indices where !built[p].rounds[r].isOpen {
                let path = SitePath.round(built[p].slug, built[p].rounds[r].number)
                guard let round = memory.kept(path, memory.fingerprints[path]) else { return (key, nil) }
                files.append(round)
            }
            return (key, files)
        }
        var kept = KeptGroups()
        for (p, group) in found.enumerated() {
            kept.keys[built[p].slug] = group.key
            guard let files = group.files else { continue }
            kept.projects.insert(built[p].slug)
            kept.files += files
            if built[p].visibility == .listed { kept.listed += files.map(\.path) }
        }
        return kept
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

    /// Every page of the site but the round pages `kept` keeps (`keptGroups`). The pages about
    /// every player or project (badges, leaderboards, calendar), worked out anew in every build,
    /// come first: last, they left one core working alone on them while the other idled (0.1 s
    /// of a large rebuild).
    static func jobs(of site: SiteModel, kept: KeptGroups) -> [PageJob] {
        var jobs: [PageJob] = []
        jobs.append(BadgePages(site: site).job())
        jobs.append(LeaderboardPages(site: site).job())
        jobs.append(CalendarPages(site: site).job())
        jobs.append(SearchPages(site: site).job())
        jobs += HomePages(site: site).jobs()
        jobs += ProjectPages(site: site).jobs(recordingRoundGroups: kept.keys)
        jobs += RoundPages(site: site).jobs(skipping: kept.projects)
        jobs += UserPages(site: site).jobs()
        jobs.append(
            PageJob(
                "404",
                PageContext(
                    site: site.config, now: site.now, path: SitePath.notFound, title: "Page not found",
                    description: "This page isn’t part of the story."), values: { [:] }))
        return jobs
    }

    /// One file of the site to make on a worker: a page, or an index or feed.
    private enum Item {
        case page(PageJob)
        case file(() -> OutputFile)
    }

    /// Renders `jobs` and every other file of the site, batch by batch (see `build`), with the
    /// files of the `kept` groups.
    private func render(
        _ jobs: [PageJob], kept: KeptGroups, of site: SiteModel, progress: ((Int, Int) -> Void)?,
        phase: ((String) -> Void)?, memory: PageMemory?, emit: ([OutputFile]) throws(Diagnostics) -> Void
    ) throws(Diagnostics) {
        // Pages, then the search index, the calendar, sitemap, robots.txt, every badge card and
        // every feed, in one stream on every core (`Parallel.stream`): no core waits for the
        // other at the end of a batch, nor between the pages and the feeds. The first batch is
        // taken one page at a time, the pages about the whole site first, while the other pages
        // fill in. The search index alone keeps a core busy for a third of the time all feeds
        // take, so it comes first after the pages (in the batch of the last pages, which waits
        // for it), and workers may run four batches ahead of the last handed to the writer: the
        // other core renders 1,500 feeds meanwhile. At the end, the calendar left one core
        // working alone in a rebuild, whose feeds are mostly kept.
        let batch = 512
        let listedPages = jobs.filter(\.isListed).map(\.context.path) + kept.listed
        let feeds = AtomFeeds(site: site)
        var files: [() -> OutputFile] = [
            { SearchIndex(site: site).file(memory: memory) }, { ICalendar(site: site).file() },
            { SiteMap.file(pages: listedPages, baseURL: site.config.baseURL) },
            { SiteMap.robots(baseURL: site.config.baseURL) },
        ]
        // A card is kept by its own bytes: making one costs less than the writer's comparison
        // with the previous site's file (5,000 opens and reads a large rebuild). Cards come
        // before the feeds: last, 5,000 files were written after everything else was made.
        files += site.users.indices.map { u in
            {
                var card = BadgeCard(site: site, user: site.users[u]).file()
                let fingerprint = PageFingerprint.of(file: card)
                if let kept = memory?.kept(card.path, fingerprint) { return kept }
                card.fingerprint = fingerprint
                return card
            }
        }
        files += feeds.plans().map { plan in { feeds.feed(plan, memory: memory) } }
        let items = jobs.map(Item.page) + files.map(Item.file)
        // Progress counts pages; a batch of kept files follows each batch of pages, so the writer
        // places them while pages render.
        let total = jobs.count + kept.files.count
        var (delivered, keptStart) = (0, 0)
        func emitKept() throws(Diagnostics) {
            guard keptStart < kept.files.count else { return }
            let end = min(kept.files.count, keptStart + batch)
            try emit(Array(kept.files[keptStart..<end]))
            keptStart = end
        }
        func pagesDone() throws(Diagnostics) {
            while keptStart < kept.files.count { try emitKept() }
            progress?(total, total)
            phase?("pages")
        }
        if jobs.isEmpty { try pagesDone() }
        try Parallel.stream(items, batch: batch, ahead: 4, leading: batch) { (item: Item) throws(Diagnostics) -> OutputFile in
            switch item {
            case .page(let job):
                var file = try page(job, memory: memory)
                file.alsoRecorded = job.alsoRecorded
                return file
            case .file(let make):
                return make()
            }
        } deliver: { (files: [OutputFile]) throws(Diagnostics) in
            try emit(files)
            let pages = min(files.count, max(0, jobs.count - delivered))
            delivered += files.count
            guard pages > 0 else { return }
            if delivered >= jobs.count { return try pagesDone() }
            try emitKept()
            progress?(delivered + keptStart, total)
        }
        phase?("indexes and feeds")
        try emit(try EpubBooks(site: site).files(memory: memory))
        phase?("books")
        // The theme's own files come last.
        try emit(theme.staticFiles.map { OutputFile(path: $0.path, contents: $0.contents) })
        phase?("static")
    }
}
