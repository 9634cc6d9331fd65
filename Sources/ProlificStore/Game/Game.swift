import ProlificCore

/// The game's actions on a content directory: each reads only what it needs, applies the rules of
/// the core, and writes atomically while holding the content lock.
///
/// Every failure is thrown as `Diagnostics`, and nothing is written before every check has passed,
/// so a refused command leaves the content exactly as it was.
public struct Game: Sendable {
    public let layout: ContentLayout
    public let reader: ContentReader
    /// The moment the command acts at: `--now`, or the clock, read once by the CLI.
    public let now: Timestamp
    /// The files this game's actions wrote or removed, for `--commit`.
    public let changes = ChangeLog()

    public init(content root: String, now: Timestamp) {
        layout = ContentLayout(root: root)
        reader = ContentReader(layout: layout)
        self.now = now
    }

    /// Runs `body` while holding the lock on the content directory.
    func locked<T>(waiting: () -> Void = {}, _ body: () throws(Diagnostics) -> T) throws(Diagnostics) -> T {
        _ = try reader.loadConfig()
        let lock: ContentLock
        do { lock = try ContentLock(directory: layout.root, waiting: waiting) } catch {
            throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    // MARK: Writing

    func write(_ text: () throws(AtomicFile.Failure) -> String, to path: String) throws(Diagnostics) {
        do { try AtomicFile.write(try text(), to: path) } catch { throw Self.diagnostics(error, path: path) }
        changes.record(path)
    }

    func create(_ text: () throws(AtomicFile.Failure) -> String, at path: String, exists: String) throws(Diagnostics) {
        do {
            try AtomicFile.create(try text(), at: path)
            changes.record(path)
        } catch {
            if case .exists = error { throw Diagnostics([Diagnostic(path: path, message: exists)]) }
            throw Self.diagnostics(error, path: path)
        }
    }

    static func diagnostics(_ failure: AtomicFile.Failure, path: String) -> Diagnostics {
        switch failure {
        case .exists(let p): Diagnostics([Diagnostic(path: p, message: "already exists")])
        case .io(let p, let message): Diagnostics([Diagnostic(path: p.isEmpty ? path : p, message: message)])
        }
    }

    static func refuse(_ violation: RuleViolation) -> Diagnostics {
        Diagnostics([.plain(violation.message)])
    }

    static func refuse(_ message: String) -> Diagnostics {
        Diagnostics([.plain(message)])
    }

    // MARK: Settling

    /// Brings a project whose last round has closed to its next state: the next round opened, or
    /// project.md marked complete. Idempotent; see `Closing.nextStep`.
    func settle(_ project: Project) throws(Diagnostics) -> Project {
        var project = project
        while let step = Closing.nextStep(for: project) {
            switch step {
            case .open(var round):
                let path = layout.roundFile(project.slug, round.number)
                round.origin = Origin(path: path)
                try create({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, at: path, exists: "round file already exists")
                project.rounds.append(round)
            case .complete:
                project.status = .complete
                let snapshot = project
                try write({ () throws(AtomicFile.Failure) in try ProjectFile.render(snapshot) }, to: layout.projectFile(project.slug))
            }
        }
        return project
    }
}
