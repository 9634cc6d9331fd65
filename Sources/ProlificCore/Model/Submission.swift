/// A snippet submitted to a round: `rounds/NNNN/submissions/<id>.md`.
public struct Submission: Hashable, Sendable {
    public var id: SubmissionID
    public var author: Handle
    public var submitted: Timestamp
    /// An ending snippet completes the project when it wins.
    public var ending: Bool
    /// The snippet's Markdown, as it is held: packed when decoded from a cache, so the texts a
    /// rebuild doesn't show are never made into strings (`PackedBytes`).
    public var text: PackedText
    public var origin: Origin

    /// The snippet's Markdown.
    public var body: String {
        get { text.string }
        set { text = PackedText(newValue) }
    }

    public init(
        id: SubmissionID, author: Handle, submitted: Timestamp, ending: Bool = false, body: String,
        origin: Origin
    ) {
        self.init(id: id, author: author, submitted: submitted, ending: ending, text: PackedText(body), origin: origin)
    }

    public init(id: SubmissionID, author: Handle, submitted: Timestamp, ending: Bool = false, text: PackedText, origin: Origin) {
        self.id = id
        self.author = author
        self.submitted = submitted
        self.ending = ending
        self.text = text
        self.origin = origin
    }
}
