import ProlificCore

/// `projects/<slug>/project.md`: title, owner, created, rounds, round-length, tags, status, visibility; the
/// body is the starter text.
enum ProjectFile {
    static let maximumTagLength = 40

    static func parse(_ text: String, path: String, slug: Slug) throws(Diagnostics) -> Project {
        var (fields, document) = try FrontMatter.fields(of: text, path: path)
        let title = fields.string("title")
        let owner = fields.handle("owner")
        let created = fields.timestamp("created")
        let rounds = fields.integer("rounds", in: Config.roundLimitRange)
        let length = fields.span("round-length")
        let tags = fields.list("tags", expected: "a tag (a short text)") { tag -> String? in
            let trimmed = String(tag.trimmingCharacters(in: " \t"))
            return trimmed.isEmpty || trimmed.count > maximumTagLength || trimmed.contains("\n") ? nil : trimmed
        } ?? []
        if let problem = TextRules.problem(withTagCount: tags.count) { fields.report(problem, at: "tags") }
        let status = fields.string("status").flatMap { raw -> Project.Status? in
            guard let status = Project.Status(rawValue: raw) else {
                fields.report("'status' must be 'open' or 'complete', found '\(raw)'", at: "status")
                return nil
            }
            return status
        }
        let visibility = fields.string("visibility", required: false).flatMap { raw -> Project.Visibility? in
            guard let visibility = Project.Visibility(rawValue: raw) else {
                fields.report("'visibility' must be 'listed', 'unlisted' or 'draft', found '\(raw)'", at: "visibility")
                return nil
            }
            return visibility
        } ?? .listed
        fields.finish()
        if let title, title.trimmingCharacters(in: " \t").isEmpty {
            fields.report("'title' must not be empty", at: "title")
        } else if let title, let problem = TextRules.problem(withLine: title, named: "title", limit: TextRules.titleLimit) {
            // The limits `project new` keeps, for project files written by hand.
            fields.report(problem, at: "title")
        }
        if document.body.isEmpty {
            fields.report("the starter text (the body after the front matter) is empty", at: "")
        } else if let problem = TextRules.problem(withBody: document.body, named: "starter text", limit: TextRules.starterLimit) {
            fields.report(problem, atLine: document.bodyFirstLine)
        }
        guard fields.isValid, let title, let owner, let created, let rounds, let length, let status else {
            throw Diagnostics(fields.diagnostics)
        }
        return Project(
            slug: slug, title: title, owner: owner, created: created, roundLimit: rounds, roundLength: length,
            tags: tags, status: status, visibility: visibility, starter: document.body, origin: fields.origin)
    }

    static func render(_ project: Project) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("title", project.title)
        yaml.text("owner", project.owner.rawValue)
        yaml.plain("created", project.created)
        yaml.plain("rounds", project.roundLimit)
        yaml.plain("round-length", project.roundLength)
        yaml.texts("tags", project.tags, flow: true)
        yaml.plain("status", project.status.rawValue)
        if project.visibility != .listed { yaml.plain("visibility", project.visibility.rawValue) }
        return FrontMatter.join(yaml: try yaml.yaml(), body: project.starter)
    }
}
