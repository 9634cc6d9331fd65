import ProlificCore

extension Game {
    /// `moderate hide`: records in the snippet's round.md that `by` hid it now, and why.
    public func hide(_ id: SubmissionID, in slug: Slug, by: String, reason: String) throws(Diagnostics) -> Round {
        try moderate(id, in: slug) { project throws(RuleViolation) in
            try Moderation.hide(id, in: project, by: by, reason: reason, now: now)
        }
    }

    /// `moderate unhide`: removes the snippet's entry from `hidden` (git keeps the record).
    public func unhide(_ id: SubmissionID, in slug: Slug) throws(Diagnostics) -> Round {
        try moderate(id, in: slug) { project throws(RuleViolation) in try Moderation.unhide(id, in: project) }
    }

    /// Applies `change` to the round holding `id` and rewrites that round.md: one atomic write.
    private func moderate(
        _ id: SubmissionID, in slug: Slug, _ change: (Project) throws(RuleViolation) -> Round
    ) throws(Diagnostics) -> Round {
        try locked { () throws(Diagnostics) in
            let project = try reader.loadProjectStrictly(slug, depth: .all)
            let round: Round
            do throws(RuleViolation) { round = try change(project) } catch { throw Self.refuse(error) }
            try write({ () throws(AtomicFile.Failure) in try RoundFile.render(round) }, to: layout.roundFile(slug, round.number))
            return round
        }
    }

    /// `moderate dismiss`: deletes a report that needs no action (git keeps the record). A report
    /// that doesn't parse can be dismissed too: it may be junk.
    public func dismiss(_ id: ReportID) throws(Diagnostics) {
        try locked { () throws(Diagnostics) in
            try reader.requireRealFolders(layout.reportsFolder)
            let path = layout.reportFile(id)
            guard FileSystem.exists(path), !FileSystem.isDirectory(path) else {
                throw Self.refuse("unknown report '\(id)': there is no \(path)")
            }
            try deleteFile(path)
        }
    }

    /// Removes one file and records it for `--commit`.
    func deleteFile(_ path: String) throws(Diagnostics) {
        do throws(FileSystem.Failure) { try FileSystem.removeTree(path) } catch {
            throw Diagnostics([Diagnostic(path: error.path, message: error.message)])
        }
        changes.record(path)
    }

    /// The moderation queue and every hidden snippet, for `status`: reports that don't parse are
    /// left to `check`, whose count `status` prints.
    public func moderation(of projects: [Project]) -> (queue: [Report], problems: [Diagnostic]) {
        var problems: [Diagnostic] = []
        let reports = reader.loadReports(into: &problems)
        return (Moderation.queue(reports, projects: projects), problems.filter { $0.severity == .error })
    }
}
