import ProlificCore

/// `rounds/NNNN/submissions/<id>.md`: front matter `author`, `submitted`, `ending`; the body is the
/// snippet. The file name must agree with the author and the time.
enum SubmissionFile {
    static func parse(_ text: String, path: String, id: SubmissionID) throws(Diagnostics) -> Submission {
        var (fields, document) = try FrontMatter.fields(of: text, path: path)
        let author = fields.handle("author")
        let submitted = fields.timestamp("submitted")
        let ending = fields.bool("ending", required: false) ?? false
        fields.finish()
        if let author, author != id.author {
            fields.report("author '\(author)' does not match the file name '\(id).md'", at: "author")
        }
        if let submitted, submitted != id.time {
            fields.report(
                "submitted \(submitted) does not match the file name '\(id).md' (\(id.time))", at: "submitted")
        }
        if document.body.isEmpty {
            if fields.isValid { fields.report("the snippet (the body after the front matter) is empty", at: "") }
        } else if let problem = TextRules.problem(withBody: document.body, named: "snippet", limit: TextRules.snippetLimit) {
            // The limit `submit` keeps, for snippets added by hand or by pull request.
            fields.report(problem, atLine: document.bodyFirstLine)
        }
        guard fields.isValid, let author, let submitted else { throw Diagnostics(fields.diagnostics) }
        var origin = fields.origin
        origin.positions["body"] = TextPosition(line: document.bodyFirstLine, column: 1)
        return Submission(id: id, author: author, submitted: submitted, ending: ending, body: document.body, origin: origin)
    }

    static func render(_ submission: Submission) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("author", submission.author.rawValue)
        yaml.plain("submitted", submission.submitted)
        yaml.plain("ending", submission.ending)
        return FrontMatter.join(yaml: try yaml.yaml(), body: submission.body)
    }
}
