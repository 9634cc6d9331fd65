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
            guard FileSystem.isDirectory(layout.projectFolder(slug)) else {
                throw Self.refuse("unknown project '\(slug)': there is no \(layout.projectFolder(slug))")
            }
            let (content, timeline) = try tallyTimeline()
            guard let loaded = content.project(slug) else { throw Self.refuse("unknown project '\(slug)'") }
            let project = try settle(loaded)
            let plan: Closing.Plan?
            do throws(RuleViolation) {
                plan = try Closing.plan(project, trigger: .now, now: now, count: count(in: slug, timeline))
            } catch { throw Self.refuse(error) }
            guard let plan else { throw Self.refuse("round of '\(slug)' is not ready to close") }
            return try apply(plan, to: project)
        }
    }

    /// Everything the fair tally needs: the whole content, valid, and what git says about it.
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
        let evidence = GitEvidence.read(layout: layout, maintainers: Set(content.config.maintainers))
        return (content, TallyTimeline(content: content, evidence: evidence))
    }

    func count(in slug: Slug, _ timeline: TallyTimeline) -> (Round) -> Tally.Outcome {
        { round in
            let outcome = timeline.tally(round, of: slug, closingAt: now)
            return Tally.Outcome(record: outcome.record, winner: outcome.winner)
        }
    }

    /// `close --due`: closes (or extends) every round whose deadline has passed.
    ///
    /// A project whose files can't be written is reported; the others are still closed.
    public func closeDue() throws(Diagnostics) -> (reports: [CloseReport], problems: [Diagnostic]) {
        try locked { () throws(Diagnostics) in
            var reports: [CloseReport] = []
            var problems: [Diagnostic] = []
            let (content, timeline) = try tallyTimeline()
            for loaded in content.projects {
                do throws(Diagnostics) {
                    let project = try settle(loaded)
                    let plan: Closing.Plan?
                    do throws(RuleViolation) {
                        plan = try Closing.plan(project, trigger: .due, now: now, count: count(in: project.slug, timeline))
                    } catch { continue }
                    if let plan { reports.append(try apply(plan, to: project)) }
                } catch {
                    problems += error.all
                }
            }
            return (reports, problems)
        }
    }

    /// Writes a close plan: the round file first (the deciding write), then whatever settles the project.
    private func apply(_ plan: Closing.Plan, to project: Project) throws(Diagnostics) -> CloseReport {
        var project = project
        switch plan {
        case .extend(let round):
            try write({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, to: layout.roundFile(project.slug, round.number))
            project.rounds[project.rounds.count - 1] = round
            return CloseReport(project: project, outcome: .extended(round))
        case .close(let round):
            try write({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, to: layout.roundFile(project.slug, round.number))
            project.rounds[project.rounds.count - 1] = round
            project = try settle(project)
            return CloseReport(project: project, outcome: .closed(round, next: project.openRound))
        }
    }
}
