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
            let plan: Closing.Plan?
            do throws(RuleViolation) { plan = try Closing.plan(project, trigger: .now, now: now) } catch { throw Self.refuse(error) }
            guard let plan else { throw Self.refuse("round of '\(slug)' is not ready to close") }
            return try apply(plan, to: project)
        }
    }

    /// `close --due`: closes (or extends) every round whose deadline has passed.
    ///
    /// A project that can't be read is reported and skipped; the others are still closed.
    public func closeDue() throws(Diagnostics) -> (reports: [CloseReport], problems: [Diagnostic]) {
        try locked { () throws(Diagnostics) in
            var reports: [CloseReport] = []
            var problems: [Diagnostic] = []
            let entries: [FileSystem.Entry]
            do throws(FileSystem.Failure) { entries = try FileSystem.list(layout.projectsFolder) ?? [] } catch {
                throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
            }
            for entry in entries where entry.kind == .directory {
                guard let slug = Slug(entry.name) else { continue }
                do throws(Diagnostics) {
                    let project = try settle(try reader.loadProjectStrictly(slug))
                    let plan: Closing.Plan?
                    do throws(RuleViolation) { plan = try Closing.plan(project, trigger: .due, now: now) } catch { continue }
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
