import ProlificCore

/// `reports/<reporter>-<yyyymmddhhmmss>.md`: a reader's report of a snippet. Front matter
/// `project`, `snippet` and optionally `round`; the body says why.
///
/// ```
/// ---
/// project: moon
/// snippet: bo-20261102101500
/// ---
/// This paragraph is copied from a published novel.
/// ```
enum ReportFile {
    static func parse(_ text: String, path: String, id: ReportID) throws(Diagnostics) -> Report {
        var (fields, document) = try FrontMatter.fields(of: text, path: path)
        let project = fields.string("project").flatMap { text -> Slug? in
            guard let slug = Slug(text) else {
                fields.report("'project' must be a project slug: \(Slug.rule), found '\(text)'", at: "project")
                return nil
            }
            return slug
        }
        let round = fields.integer("round", in: 1...RoundNumber.maximum, required: false)
        let snippet = fields.submissionID("snippet")
        fields.finish()
        if fields.isValid, let problem = TextRules.problem(withBody: document.body, named: "report (the body after the front matter)", limit: TextRules.reportLimit) {
            fields.report(problem, at: "")
        }
        guard fields.isValid, let project, let snippet else { throw Diagnostics(fields.diagnostics) }
        return Report(
            id: id, project: project, round: round.flatMap { RoundNumber($0) }, snippet: snippet, reason: document.body,
            origin: fields.origin)
    }

    static func render(_ report: Report) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("project", report.project.rawValue)
        if let round = report.round { yaml.plain("round", round.value) }
        yaml.text("snippet", report.snippet.rawValue)
        return FrontMatter.join(yaml: try yaml.yaml(), body: report.reason)
    }
}
