import ProlificCore

extension Game {
    /// What closing did to one project.
    public struct CloseReport: Sendable {
        public enum Outcome: Sendable {
            /// The round closed; the project continues with `next` or is complete.
            case closed(Round, next: Round?)
            /// A due round without submissions got more time.
            case extended(Round)
        }
        public var project: Project
        public var outcome: Outcome
    }

    /// `close PROJECT`: closes the open round now.
    public func close(_ slug: Slug) throws(Diagnostics) -> CloseReport {
        try locked { () throws(Diagnostics) in
            let project = try settle(try reader.loadProjectStrictly(slug))
            guard let report = try close(project, trigger: .now) else {
                throw Self.refuse("round of '\(slug)' is not ready to close")
            }
            return report
        }
    }

    /// Plans and applies closing one project; the tally's context comes from the history cache.
    private func close(_ project: Project, trigger: Closing.Trigger) throws(Diagnostics) -> CloseReport? {
        // The build stamp before anything is read: the next build after it may take the tally.
        let stamp = FileInventory.stamp(BuildStamp.path(layout))
        var closing: (context: TallyContext, past: HandedTallies.Past)? = nil
        if let round = project.openRound, !round.submissions.isEmpty, trigger == .now || round.closes <= now {
            closing = try closingContext(for: round, of: project)
        }
        let plan: Closing.Plan?
        var tallied: (round: Round, outcome: FairTally.Outcome)? = nil
        do throws(RuleViolation) {
            plan = try Closing.plan(project, trigger: trigger, now: now) { round in
                guard let closing else { return Tally.Outcome(record: TallyRecord(method: FairTally.method, ballots: 0, scores: []), winner: nil) }
                let outcome = FairTally.count(round, slug: project.slug, context: closing.context)
                tallied = (round, outcome)
                return Tally.Outcome(record: outcome.record, winner: outcome.winner)
            }
        } catch { throw Self.refuse(error) }
        guard let plan else { return nil }
        let report = try apply(plan, to: project)
        // Once the round is closed: the next build takes the tally rather than make it again.
        if case .closed = report.outcome, let closing, let tallied {
            HandedTallies.hand(
                tallied.outcome, of: tallied.round, slug: project.slug, context: closing.context, past: closing.past,
                after: stamp, layout: layout)
        }
        return report
    }

    /// Everything `audit` needs to re-run any round: the whole content, valid, and what git says.
    ///
    /// A tally is only reproducible against the history `check` will see, so a content directory
    /// with errors is refused rather than tallied against part of itself.
    func tallyTimeline() throws(Diagnostics) -> (Content, TallyTimeline) {
        let (content, problems) = reader.loadAll()
        let errors = problems.filter { $0.severity == .error }.sorted()
        guard let content, errors.isEmpty else {
            let first = errors.first.map { "; the first: \($0.description)" } ?? ""
            throw Self.refuse(
                "cannot tally: the content has \(errors.count) error\(errors.count == 1 ? "" : "s")\(first) (run 'prolific check')")
        }
        return (content, TallyTimeline(content: content, evidence: reader.evidence(content.config, kept: true)))
    }

    /// `close --due`: closes (or extends) every round whose deadline has passed.
    ///
    /// Projects are closed in the order of their deadlines, so each tally's history extends the
    /// previous one's. A project that can't be read or written is reported; the others still close.
    /// Only projects that may have something to do are read whole: one whose latest round is open
    /// until later, or that is complete, is set aside at a glance (`ContentReader.glance`), its
    /// other files unread (`check` reads them).
    public func closeDue() throws(Diagnostics) -> (reports: [CloseReport], problems: [Diagnostic]) {
        try locked { () throws(Diagnostics) in
            var reports: [CloseReport] = []
            var problems: [Diagnostic] = []
            var due: [Project] = []
            let entries: [FileSystem.Entry]
            do throws(FileSystem.Failure) { entries = try FileSystem.list(layout.projectsFolder) ?? [] } catch {
                throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
            }
            // A linked project folder is read as a project so that its refusal is reported.
            let slugs = entries.compactMap { entry in entry.kind == .directory || entry.kind == .symlink ? Slug(entry.name) : nil }
            // Safe on every core: the game's reader records no inventory, and the file system,
            // the layout and the parsers keep no state.
            assert(reader.recorder == nil)
            let glances = Parallel.map(slugs) { reader.glance(at: $0) }
            for (slug, glance) in zip(slugs, glances) {
                switch glance {
                case .complete: continue
                case .openUntil(let deadline) where deadline > now: continue
                default: break
                }
                do throws(Diagnostics) {
                    let project = try settle(try reader.loadProjectStrictly(slug))
                    if Schedule.isDue(project, now: now) { due.append(project) }
                } catch {
                    problems += error.all
                }
            }
            due.sort { ($0.openRound?.closes ?? now, $0.slug) < ($1.openRound?.closes ?? now, $1.slug) }
            for project in due {
                do throws(Diagnostics) {
                    if let report = try close(project, trigger: .due) { reports.append(report) }
                } catch {
                    problems += error.all
                }
            }
            return (reports, problems)
        }
    }

    /// Writes a close plan: the round file with its seal first (the deciding write), then whatever
    /// settles the project.
    private func apply(_ plan: Closing.Plan, to project: Project) throws(Diagnostics) -> CloseReport {
        var project = project
        switch plan {
        case .extend(let round):
            try write({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, to: layout.roundFile(project.slug, round.number))
            project.rounds[project.rounds.count - 1] = round
            return CloseReport(project: project, outcome: .extended(round))
        case .close(var round):
            // Sealed under the lock, from the files as they are now: what the tally counted.
            round.seal = try RoundSeal(layout: layout).seal(project.slug, round.number)
            // The ballots counted, beside their files' seal: a build reads them from here.
            round.recordedBallots = round.ballots
            try write({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, to: layout.roundFile(project.slug, round.number))
            project.rounds[project.rounds.count - 1] = round
            project = try settle(project)
            return CloseReport(project: project, outcome: .closed(round, next: project.openRound))
        }
    }
}
