/// A snippet submitted to a round: `rounds/NNNN/submissions/<id>.md`.
public struct Submission: Hashable, Sendable {
    public var id: SubmissionID
    public var author: Handle
    public var submitted: Timestamp
    /// An ending snippet completes the project when it wins.
    public var ending: Bool
    /// The snippet's Markdown.
    public var body: String {
        get { text.string }
        set { text = SnippetText(newValue) }
    }
    /// The Markdown as held: a kept project's is made only when asked for (`SnippetText`).
    public var text: SnippetText
    public var origin: Origin

    public init(
        id: SubmissionID, author: Handle, submitted: Timestamp, ending: Bool = false, body: String,
        origin: Origin
    ) {
        self.id = id
        self.author = author
        self.submitted = submitted
        self.ending = ending
        self.text = SnippetText(body)
        self.origin = origin
    }
}
