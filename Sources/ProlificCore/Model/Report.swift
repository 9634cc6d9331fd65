/// A reader's report of a snippet: `reports/<id>.md`, added by pull request (or copied from an
/// issue by a maintainer). Open reports are the moderation queue `status` lists.
public struct Report: Hashable, Sendable {
    public var id: ReportID
    public var project: Slug
    /// The round the snippet is in, when the reporter gave it.
    public var round: RoundNumber?
    public var snippet: SubmissionID
    /// Why, in Markdown: the body of the file.
    public var reason: String
    public var origin: Origin

    public init(id: ReportID, project: Slug, round: RoundNumber? = nil, snippet: SubmissionID, reason: String, origin: Origin) {
        self.id = id
        self.project = project
        self.round = round
        self.snippet = snippet
        self.reason = reason
        self.origin = origin
    }
}
