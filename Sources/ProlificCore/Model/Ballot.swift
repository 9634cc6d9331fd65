/// One voter's ballot in one round: `rounds/NNNN/votes/<voter>.yml`, or its line in a closed
/// round's record (round.md's `votes`, see `Round.recordedBallots`).
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

    /// Where `key` (`"cast"`, `"for.1"`) is: in a ballot file, that key's position; in round.md's
    /// record, whose ballots share the round's origin, the voter's line (`votes.<voter>`).
    public func position(of key: String) -> TextPosition {
        origin.positions[key] ?? origin.positions["votes." + voter.rawValue] ?? .start
    }

    /// A diagnostic at `key` of this ballot (`position(of:)`).
    public func error(at key: String, _ message: String) -> Diagnostic {
        Diagnostic(path: origin.path, position: position(of: key), message: message)
    }
}
