#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ProlificCore
import Synchronization

/// Reads a content directory into model values, collecting every problem with its file and line.
///
/// `check` and `build` read everything; the commands that record a snippet or a ballot read only
/// the project they touch, with its round files and the files of its latest round.
public struct ContentReader: Sendable {
    public let layout: ContentLayout
    /// Records what reading a project sees of its folder, for the build's inventory
    /// (`loadAllTakingInventory`); nil when reading needn't say.
    var recorder: InventoryRecorder? = nil
    /// Collects the digest of each snippet and ballot read, for `check`'s seal test; nil when
    /// nothing tests seals.
    public var digests: ReadDigests? = nil

    public init(layout: ContentLayout) {
        self.layout = layout
    }

    /// How much of a project's rounds to read.
    public enum Depth: Sendable {
        /// Every round with its submissions and ballots.
        case all
        /// Every round file, but submissions and ballots only of the latest round.
        case latest
        /// Every round file, and no submissions or ballots.
        case none
    }

    /// Everything, with all problems found. The content is nil only if the config can't be read.
    /// With a `cache`, a project whose files are unchanged since it was kept is taken from it,
    /// and, when nothing has an error, each project read from its files is kept for the next time.
    public func loadAll(cache: ProjectCache? = nil) -> (Content?, [Diagnostic]) {
        loadAll(cache: cache, read: [:], inventory: cache?.inventory)
    }

    /// Everything, as `loadAll` reads it, and the inventory of the content directory (all but
    /// `.prolific/` and `.git`, `BuildStamp.inventory`) as reading found it. Each project's
    /// files are stat-ed by the calls that read them (`InventoryRecorder`), so a build that reads
    /// every file doesn't stat every one first; a project `cache` keeps is stat-ed, and read only
    /// if its files changed. The inventory is nil when it couldn't be taken (a folder can't be
    /// read): the content is then read as `loadAll` reads it.
    ///
    /// With the inventory the last build `recorded`, a kept project's files are checked by
    /// stat-ing the paths recorded under its folder instead of listing its folders again; one
    /// that changed is read at once. `recordedKeys` are that build's keys of each folder (by its
    /// path, `BuildStamp.subtreeKeys`), taken for a folder found as recorded.
    public func loadAllTakingInventory(
        cache: ProjectCache? = nil, recorded: FileInventory? = nil, recordedKeys: [String: SubtreeKeys] = [:]
    ) -> (Content?, [Diagnostic], FileInventory?) {
        loadAllTakingInventory(
            cache: cache, recorded: recorded.flatMap { RecordedParts($0, of: layout.root, keys: recordedKeys) },
            racyAfter: FileInventory.clock() - FileInventory.racyWindow)
    }

    /// The same, with entries changed after `racyAfter` recorded as racy (`FileInventory.take`).
    func loadAllTakingInventory(cache: ProjectCache?, recorded: RecordedParts? = nil, racyAfter: Int64) -> (
        Content?, [Diagnostic], FileInventory?
    ) {
        let root = layout.root
        let results = ReadProjects()
        // The profiles' cache is read while the projects are, on a thread of its own.
        let recordedUsers = Parallel.Handoff<[String: UserCache.Kept]>()
        let readingUsers = cache.map { _ in Parallel.background { [layout] in recordedUsers.give(UserCache.entries(layout) ?? [:]) } }
        if readingUsers == nil { recordedUsers.giveNothing() }
        defer { readingUsers?.wait() }
        // Recorded paths are stat-ed relative to the content directory: shorter paths to look up.
        let rootFolder = recorded == nil ? -1 : open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if rootFolder >= 0 { close(rootFolder) } }
        let inventory = FileInventory.take(of: root, skipping: BuildStamp.skipped, racyAfter: racyAfter) { path, own in
            guard path.starts(with: Self.projectsPrefix),
                let slug = Slug(String(decoding: path[Self.projectsPrefix.count...], as: UTF8.self))
            else { return nil }
            if let cache, cache.hasEntry(slug) {
                // A folder as the last build recorded it comes with the keys it worked out then.
                let (part, given) =
                    if let recorded, rootFolder >= 0 {
                        recorded.unchanged(path, own: own, root: rootFolder) ?? (nil, nil)
                    } else {
                        (FileInventory.walk(root, path, racyAfter: racyAfter)?.asPart, nil)
                    }
                if let part, let keys = given ?? FileInventory.subtreeKey(path: path, own: own, part: part).map({ SubtreeKeys(key: $0) }),
                    let project = cache.project(slug, key: keys.key)
                {
                    results.set(slug, ReadProject(project: project, problems: []))
                    return (part, keys)
                }
            }
            var reader = self
            reader.recorder = InventoryRecorder(root: root, folder: path, racyAfter: racyAfter)
            let (project, problems) = reader.loadProject(slug, depth: .all)
            guard let part = reader.recorder?.part()?.asPart else {
                results.set(slug, ReadProject(project: project, problems: problems))
                return nil
            }
            var read = ReadProject(project: project, problems: problems)
            var key: [UInt8]?
            if cache != nil, project != nil, problems.isEmpty {
                key = FileInventory.subtreeKey(path: path, own: own, part: part)
                read.key = key.map { .given($0) } ?? .notKept
            }
            results.set(slug, read)
            return (part, key.map { SubtreeKeys(key: $0) })
        }
        guard let inventory else {
            recordedUsers.discard()
            let (content, problems) = loadAll()
            return (content, problems, nil)
        }
        let (content, problems) = loadAll(cache: cache, read: results.all, inventory: inventory, recordedUsers: recordedUsers.take)
        return (content, problems, inventory)
    }

    /// `projects/`, as the bytes an inventory's paths start with.
    static let projectsPrefix = Array("projects/".utf8)

    /// A project as reading found it, and how to keep it in the project cache if it is to be.
    private struct ReadProject: Sendable {
        enum Key: Sendable {
            /// Not kept: taken from the cache, read with problems, or its files can't vouch for it.
            case notKept
            /// Kept by the key its files had when they were read.
            case given([UInt8])
            /// Kept by the key the cache's inventory gives it (`ProjectCache.save(_:)`).
            case fromInventory
        }

        var project: Project?
        var problems: [Diagnostic]
        var key = Key.notKept
    }

    /// The projects read while the inventory was taken, by slug, from every core.
    private final class ReadProjects: Sendable {
        private let projects = Mutex<[Slug: ReadProject]>([:])

        func set(_ slug: Slug, _ result: ReadProject) { projects.withLock { $0[slug] = result } }
        var all: [Slug: ReadProject] { projects.withLock { $0 } }
    }

    /// `loadAll`, with the projects already `read` taken as they are, and images picked from
    /// `inventory` when given.
    ///
    /// The cache is written only once everything has loaded without an error: a build refused for
    /// bad content changes nothing in the content directory, its `.prolific/` included.
    private func loadAll(
        cache: ProjectCache?, read: [Slug: ReadProject], inventory: FileInventory?,
        recordedUsers: () -> [String: UserCache.Kept]? = { nil }
    ) -> (Content?, [Diagnostic]) {
        var problems: [Diagnostic] = []
        let config: Config
        do {
            config = try loadConfig()
        } catch {
            return (nil, error.all)
        }
        let top = expect(
            listing(layout.root, into: &problems), in: layout.root,
            files: ["prolific.yml"], folders: ["users", "projects", "reports"],
            describing: "prolific.yml, users/, projects/ or reports/", into: &problems)
        // Profiles on every core, while another thread finds the images among the inventory's
        // paths: a large game's 5,000 profiles, read one by one once its projects were, kept a
        // core idle for 0.15 s of every build (0.4 s when the files had to come from disk).
        let userEntries = top.contains("users") ? listing(layout.usersFolder, into: &problems) : []
        // A build's profiles whose files are as the last build read them come from its cache.
        let userCache = cache == nil ? nil : inventory.flatMap { UserCache(layout: layout, inventory: $0) }
        let keptUsers = userCache.map { cache in recordedUsers().map(cache.load(from:)) ?? cache.load() } ?? [:]
        let (scanned, profiles) = Parallel.beside(
            { () -> (Set<String>, [Diagnostic]) in
                var problems: [Diagnostic] = []
                let media = scanMedia(into: &problems, inventory: inventory)
                return (media, problems)
            },
            {
                Parallel.map(userEntries) { entry -> Result<(Handle, User)?, Diagnostics> in
                    let path = "\(layout.usersFolder)/\(entry.name)"
                    if entry.kind == .file, ContentLayout.isIgnored(entry.name) { return .success(nil) }
                    if entry.kind == .file, let kept = keptUsers[entry.name] { return .success((kept.handle, kept)) }
                    guard entry.kind == .file, entry.name.hasSuffix(".md"), let handle = Handle(entry.name.dropLast(3)) else {
                        return .failure(Diagnostics([unexpected(path, entry, expected: "a profile named <handle>.md")]))
                    }
                    do throws(Diagnostics) { return .success((handle, try loadUser(handle, path: path))) } catch {
                        return .failure(error)
                    }
                }
            })
        var users: [Handle: User] = [:]
        users.reserveCapacity(profiles.count)
        for profile in profiles {
            switch profile {
            case .success(let found): if let (handle, user) = found { users[handle] = user }
            case .failure(let error): problems += error.all
            }
        }
        var slugs: [Slug] = []
        for entry in top.contains("projects") ? listing(layout.projectsFolder, into: &problems) : [] {
            let path = "\(layout.projectsFolder)/\(entry.name)"
            guard entry.kind == .directory, let slug = Slug(entry.name) else {
                problems.append(unexpected(path, entry, expected: "a project folder named by its slug"))
                continue
            }
            slugs.append(slug)
        }
        // Projects are independent files: read and parse them on every core, in slug order.
        let loaded = Parallel.map(slugs) { slug -> ReadProject in
            if let done = read[slug] { return done }
            if let project = cache?.project(slug) { return ReadProject(project: project, problems: []) }
            let (project, problems) = loadProject(slug, depth: .all)
            return ReadProject(project: project, problems: problems, key: project != nil && problems.isEmpty ? .fromInventory : .notKept)
        }
        var projects: [Project] = []
        for found in loaded {
            problems += found.problems
            if let project = found.project { projects.append(project) }
        }
        let reports = top.contains("reports") ? loadReports(into: &problems) : []
        let media = scanned.0
        problems += scanned.1
        if let cache, !problems.contains(where: { $0.severity == .error }) {
            if let userCache, users.count != keptUsers.count {
                userCache.save(users.values.sorted { $0.handle < $1.handle }.map { ("\($0.handle).md", $0) })
            }
            cache.prune(keeping: slugs)
            _ = Parallel.map(loaded) { found in
                guard let project = found.project else { return }
                switch found.key {
                case .notKept: break
                case .given(let key): cache.save(project, key: key)
                case .fromInventory: cache.save(project)
                }
            }
        }
        return (Content(config: config, users: users, projects: projects, media: media, reports: reports), problems)
    }

    /// Everything, for commands that only work on valid content (`build`, `user show`): the
    /// content, or every error found.
    public func loadValid(cache: ProjectCache? = nil) throws(Diagnostics) -> Content {
        let (content, problems) = loadAll(cache: cache)
        let errors = problems.filter { $0.severity == .error }.sorted()
        guard let content, errors.isEmpty else { throw Diagnostics(errors) }
        return content
    }

    /// `loadValid` for a build: the content, or every error found, with the inventory of the
    /// content directory as reading found it (`loadAllTakingInventory`).
    public func loadValidTakingInventory(
        cache: ProjectCache? = nil, recorded: FileInventory? = nil, recordedKeys: [String: SubtreeKeys] = [:]
    ) throws(Diagnostics) -> (Content, FileInventory?) {
        let (content, problems, inventory) = loadAllTakingInventory(cache: cache, recorded: recorded, recordedKeys: recordedKeys)
        let errors = problems.filter { $0.severity == .error }.sorted()
        guard let content, errors.isEmpty else { throw Diagnostics(errors) }
        return (content, inventory)
    }

    /// What git says about who committed the content, with the maintainers `config` names.
    /// `kept`: from the last read, kept in `.prolific/`, with the commits since added when
    /// that is certain to give the same (`GitEvidence.read`), and kept for the next unless not
    /// `saving`.
    public func evidence(_ config: Config, kept: Bool = false, saving: Bool = true) -> IdentityEvidence {
        GitEvidence.read(layout: layout, maintainers: Set(config.maintainers), kept: kept, saving: saving)
    }

    /// The kept evidence of what the tally of one round reads (`close`): only that part of the
    /// cache is decoded, and saved only when the whole history had to be read.
    public func evidence(_ config: Config, for wanted: GitEvidence.Wanted) -> IdentityEvidence {
        GitEvidence.readNoting(layout: layout, maintainers: Set(config.maintainers), kept: true, wanted: wanted).evidence
    }

    /// The kept evidence up to the HEAD of `place`, and how it was had (`build --timings` says),
    /// not yet saved: a build reads it beside the content and saves it once the content and the
    /// theme have loaded (`GitEvidence.Read`).
    public func evidenceUnsaved(at place: GitEvidence.Place?) -> GitEvidence.Read {
        GitEvidence.readUnsaved(layout: layout, at: place, kept: true)
    }

    public func loadConfig() throws(Diagnostics) -> Config {
        let path = layout.configFile
        guard FileSystem.exists(path) else {
            throw Diagnostics([
                Diagnostic(
                    path: path, message: "no prolific.yml here; is '\(layout.root)' a content directory? ('prolific init' makes one)")
            ])
        }
        return try ConfigFile.parse(try read(path), path: path)
    }

    /// The profile of `handle`; a diagnostic if there is none.
    public func loadUser(_ handle: Handle) throws(Diagnostics) -> User {
        try requireRealFolders(layout.usersFolder)
        let path = layout.userFile(handle)
        guard FileSystem.exists(path) else {
            throw Diagnostics([.plain("unknown user '\(handle)': there is no \(path)")])
        }
        return try loadUser(handle, path: path)
    }

    private func loadUser(_ handle: Handle, path: String) throws(Diagnostics) -> User {
        try UserFile.parse(try read(path), path: path, handle: handle)
    }

    /// A project and its rounds to `depth`; nil with problems if project.md can't be read.
    public func loadProject(_ slug: Slug, depth: Depth) -> (Project?, [Diagnostic]) {
        do { try requireRealFolders(layout.projectsFolder, layout.projectFolder(slug)) } catch { return (nil, error.all) }
        let path = layout.projectFile(slug)
        var problems: [Diagnostic] = []
        var project: Project
        do {
            project = try ProjectFile.parse(try read(path), path: path, slug: slug)
        } catch {
            if !FileSystem.exists(path) {
                return (nil, [Diagnostic(path: layout.projectFolder(slug), message: "project folder without a project.md")])
            }
            return (nil, error.all)
        }
        let present = expect(
            listing(layout.projectFolder(slug), into: &problems), in: layout.projectFolder(slug),
            files: ["project.md"], folders: ["rounds"], describing: "project.md, rounds/ or images", into: &problems)
        var numbers: [RoundNumber] = []
        for entry in present.contains("rounds") ? listing(layout.roundsFolder(slug), into: &problems) : [] {
            guard entry.kind == .directory, let number = RoundNumber(folderName: entry.name) else {
                problems.append(
                    unexpected("\(layout.roundsFolder(slug))/\(entry.name)", entry, expected: "a round folder such as 0001"))
                continue
            }
            numbers.append(number)
        }
        numbers.sort()
        // Every round file first: which round is the latest depends on which folders are rounds.
        var rounds: [Round] = []
        var last: RoundNumber?
        for number in numbers {
            do {
                guard let round = try roundFile(slug, number) else { continue }
                rounds.append(round)
            } catch {
                problems += error.all
            }
            last = number
        }
        for round in rounds {
            let full = depth == .all || (depth == .latest && round.number == last)
            project.rounds.append(full ? withEntries(round, of: slug, problems: &problems) : round)
        }
        return (project, problems)
    }

    /// A project that must load without problems, for commands that change it.
    public func loadProjectStrictly(_ slug: Slug, depth: Depth = .latest) throws(Diagnostics) -> Project {
        guard FileSystem.isDirectory(layout.projectFolder(slug)) else {
            throw Diagnostics([.plain("unknown project '\(slug)': there is no \(layout.projectFolder(slug))")])
        }
        let (project, problems) = loadProject(slug, depth: depth)
        let errors = problems.filter { $0.severity == .error }
        guard let project, errors.isEmpty else { throw Diagnostics(errors.sorted()) }
        return project
    }

    /// What a glance at a project tells `close --due`: whether it has nothing to do there.
    public enum Glance: Sendable, Equatable {
        /// Its latest round is open until this deadline.
        case openUntil(Timestamp)
        /// Marked complete, its latest round closed.
        case complete
        /// Anything else (no round, a round closed and the next not opened, a file that can't be
        /// read or parsed, a link): only reading the project whole tells.
        case unknown
    }

    /// Project `slug` at a glance: its project.md, its rounds folder's names and its latest
    /// round's round.md, parsed as `loadProject` parses them, and nothing else. `close --due`
    /// reads whole only the projects a glance can't set aside (a due round, one to settle, or an
    /// unknown): reading every project took it 1.38 s on the large benchmark with nothing due.
    public func glance(at slug: Slug) -> Glance {
        do { try requireRealFolders(layout.projectsFolder, layout.projectFolder(slug), layout.roundsFolder(slug)) } catch {
            return .unknown
        }
        let path = layout.projectFile(slug)
        // Read and listed as `loadProject` reads and lists them: any problem is left to it.
        var problems: [Diagnostic] = []
        let entries = listing(layout.roundsFolder(slug), into: &problems)
        guard let text = try? read(path), let project = try? ProjectFile.parse(text, path: path, slug: slug), problems.isEmpty
        else { return .unknown }
        // An entry that is no round folder is a problem `loadProject` reports.
        var numbers: [RoundNumber] = []
        for entry in entries {
            guard entry.kind == .directory, let number = RoundNumber(folderName: entry.name) else { return .unknown }
            numbers.append(number)
        }
        guard let latest = numbers.max(), let round = try? roundFile(slug, latest) else { return .unknown }
        switch (project.status, round.closed) {
        case (.open, nil): return .openUntil(round.closes)
        case (.complete, .some): return .complete
        default: return .unknown
        }
    }

    /// Whether the folder of round `number` holds nothing but dot files: no round at all.
    ///
    /// Opening a round makes its folder, then links round.md into it; a command killed between
    /// the two leaves the folder empty (or holding a temporary file). Git keeps no empty folder
    /// either, so a clone has no such round; the next command on the project opens it.
    func isVacant(_ slug: Slug, _ number: RoundNumber) -> Bool {
        !FileSystem.exists(layout.roundFile(slug, number)) && holdsOnlyDotFiles(slug, number)
    }

    private func holdsOnlyDotFiles(_ slug: Slug, _ number: RoundNumber) -> Bool {
        let entries = try? FileSystem.list(layout.roundFolder(slug, number))
        return entries?.allSatisfy { $0.kind == .file && $0.name.hasPrefix(".") } ?? false
    }

    /// Round `number`'s round.md, without its snippets and ballots; nil when the folder is no
    /// round at all (`isVacant`).
    ///
    /// The file is read straight away, and only a folder without it is looked into: a large
    /// game's 20,000 rounds were each stat-ed twice before being read.
    func roundFile(_ slug: Slug, _ number: RoundNumber) throws(Diagnostics) -> Round? {
        let path = layout.roundFile(slug, number)
        let text: String
        do {
            text = try FileSystem.readText(path, observe: recorder?.reading(path))
        } catch {
            guard error.isMissing else {
                throw Diagnostics([Diagnostic(path: path, position: error.position, message: error.message)])
            }
            if holdsOnlyDotFiles(slug, number) { return nil }
            throw Diagnostics([Diagnostic(path: layout.roundFolder(slug, number), message: "round folder without a round.md")])
        }
        return try RoundFile.parse(text, path: path, number: number)
    }

    /// Round `number`, with its snippets and ballots when `withEntries`.
    func loadRound(
        _ slug: Slug, _ number: RoundNumber, withEntries: Bool, problems: inout [Diagnostic]
    ) throws(Diagnostics) -> Round {
        guard let round = try roundFile(slug, number) else {
            throw Diagnostics([Diagnostic(path: layout.roundFolder(slug, number), message: "round folder without a round.md")])
        }
        return withEntries ? self.withEntries(round, of: slug, problems: &problems) : round
    }

    /// `round` with the snippets and ballots in its folder, each read by name from its open
    /// folder (`FileSystem.withListing`); a sealed round's ballots from its record, when it has
    /// one, but for `check`. Only a sealed round's files are hashed for `digests`: no other
    /// round's are tested against a seal.
    private func withEntries(_ round: Round, of slug: Slug, problems: inout [Diagnostic]) -> Round {
        var round = round
        let number = round.number
        let sealTest = round.seal == nil ? nil : digests
        let present = expect(
            listing(layout.roundFolder(slug, number), into: &problems), in: layout.roundFolder(slug, number),
            files: ["round.md"], folders: ["submissions", "votes"], describing: "round.md, submissions/, votes/ or images",
            into: &problems)
        if present.contains("submissions") {
            round.submissions += parsedFiles(
                in: layout.submissionsFolder(slug, number), suffix: ".md", imagesAllowed: true,
                expected: "a snippet named <author>-<yyyymmddhhmmss>.md", hashingFor: sealTest, into: &problems,
                named: SubmissionID.init
            ) { (text, path, id) throws(Diagnostics) in try SubmissionFile.parse(text, path: path, id: id) }
        }
        round.submissions.sort { ($0.submitted, $0.id) < ($1.submitted, $1.id) }
        if digests == nil, round.countRecordedBallots() {
            // A closed, sealed round's ballots as `close` recorded them: its `votes/` files are
            // most of the content's files, and only `check` (which has `digests`) reads them.
            if present.contains("votes") { recorder?.leaveUnread(layout.votesFolder(slug, number)) }
        } else if present.contains("votes") {
            round.ballots += parsedFiles(
                in: layout.votesFolder(slug, number), suffix: ".yml", imagesAllowed: false,
                expected: "a ballot named <voter>.yml", hashingFor: sealTest, into: &problems, named: Handle.init
            ) { (text, path, voter) throws(Diagnostics) in try BallotFile.parse(text, path: path, voter: voter) }
        }
        return round
    }

    /// Each file of `folder` named by an identifier (`named`) and `suffix`, parsed, in name
    /// order; read by name from the open folder (`FileSystem.withListing`). Any other entry is a
    /// problem, but images where `imagesAllowed`. Each file read is hashed into `sealTest` when
    /// one is given.
    private func parsedFiles<Name, Parsed>(
        in folder: String, suffix: String, imagesAllowed: Bool, expected: String, hashingFor sealTest: ReadDigests?,
        into problems: inout [Diagnostic], named name: (Substring) -> Name?,
        _ parse: (_ text: String, _ path: String, _ name: Name) throws(Diagnostics) -> Parsed
    ) -> [Parsed] {
        var parsed: [Parsed] = []
        var hashed: [String: String] = [:]
        listing(folder, into: &problems) { open, entries, problems in
            for entry in entries {
                let file = "\(open.path)/\(entry.name)"
                if imagesAllowed, entry.kind == .file, ContentLayout.isIgnored(entry.name) { continue }
                guard entry.kind == .file, entry.name.hasSuffix(suffix), let named = name(entry.name.dropLast(suffix.count)) else {
                    problems.append(unexpected(file, entry, expected: expected))
                    continue
                }
                do throws(Diagnostics) {
                    let text = try read(file, in: open)
                    if sealTest != nil { hashed[entry.name] = RoundSeal.sha256(text: text) }
                    parsed.append(try parse(text, file, named))
                } catch { problems += error.all }
            }
        }
        sealTest?.record(hashed, in: folder)
        return parsed
    }

    private func read(_ path: String, in folder: FileSystem.Folder? = nil) throws(Diagnostics) -> String {
        do {
            return try FileSystem.readText(path, in: folder, observe: recorder?.reading(path))
        } catch {
            throw Diagnostics([Diagnostic(path: path, position: error.position, message: error.message)])
        }
    }

    /// Refuses each of `folders` that is a symbolic link.
    ///
    /// Reading everything lists each folder and reports the links in it without following them,
    /// but the commands that go straight to one profile or one project (`submit`, `vote`,
    /// `follow`, `user add`, `close`…) open paths through `users/`, `projects/` and
    /// `projects/<slug>/`. A link there, which a pull request can add, would have them read, and
    /// then write, files outside the content directory.
    public func requireRealFolders(_ folders: String...) throws(Diagnostics) {
        for folder in folders where FileSystem.isSymlink(folder) {
            throw Diagnostics([
                Diagnostic(path: folder, message: "is a symbolic link; links are not allowed in content, so it is not followed")
            ])
        }
    }

    private func listing(_ folder: String, into problems: inout [Diagnostic]) -> [FileSystem.Entry] {
        var entries: [FileSystem.Entry] = []
        listing(folder, into: &problems) { _, listed, _ in entries = listed }
        return entries
    }

    /// The folder's entries but dot files, given to `body` while the folder is open; a folder
    /// that can't be listed is a problem, and one that doesn't exist has no entries.
    private func listing(
        _ folder: String, into problems: inout [Diagnostic],
        _ body: (FileSystem.Folder, [FileSystem.Entry], inout [Diagnostic]) -> Void
    ) {
        do {
            try FileSystem.withListing(folder, observe: recorder?.listing(folder)) { open, entries in
                body(open, entries.filter { !$0.name.hasPrefix(".") }, &problems)
            }
        } catch {
            problems.append(Diagnostic(path: folder, message: error.message))
        }
    }

    /// Checks a folder's entries against the files and folders it may hold (images are always
    /// allowed); reports the rest, links included, and returns the names that are present and right.
    private func expect(
        _ entries: [FileSystem.Entry], in folder: String, files: Set<String>, folders: Set<String>,
        describing expected: String, into problems: inout [Diagnostic]
    ) -> Set<String> {
        var present: Set<String> = []
        for entry in entries {
            if entry.kind == .file && files.contains(entry.name) || entry.kind == .directory && folders.contains(entry.name) {
                present.insert(entry.name)
            } else if entry.kind != .file || !ContentLayout.isIgnored(entry.name) {
                problems.append(unexpected("\(folder)/\(entry.name)", entry, expected: expected))
            }
        }
        return present
    }

    private func unexpected(_ path: String, _ entry: FileSystem.Entry, expected: String) -> Diagnostic {
        let what =
            switch entry.kind {
            case .symlink: "symbolic link (links are not allowed in content)"
            case .directory: "folder"
            default: "file"
            }
        return Diagnostic(path: path, message: "unexpected \(what); expected \(expected)")
    }
}
