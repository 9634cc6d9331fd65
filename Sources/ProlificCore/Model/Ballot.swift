/// One voter's ballot in one round: `rounds/NNNN/votes/<voter>.yml`.
///
/// A ballot approves one or more snippets; its weight is split equally among them.
public struct Ballot: Hashable, Sendable {
    public var voter: Handle
    public var cast: Timestamp
    /// The approved snippets, in the order the voter wrote them.
    public var choices: [SubmissionID]
    public var origin: Origin

    public init(voter: Handle, cast: Timestamp, choices: [SubmissionID], origin: Origin) {
        self.voter = voter
        self.cast = cast
        self.choices = choices
        self.origin = origin
    }
}
