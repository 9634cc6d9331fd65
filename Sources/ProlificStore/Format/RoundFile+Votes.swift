import ProlificCore
import Yams

/// round.md's `votes`: each ballot file of a closed round, one line a voter, written by `close`
/// beside the seal (see `Round.recordedBallots`).
///
/// ```yaml
/// votes:
///   ann: 2026-11-04T09:12:00Z bram-20261103093000
///   cleo: 2026-11-05T17:40:00Z ann-20261102101500 bram-20261103093000
/// ```
///
/// Each value is the ballot's `cast` time and then its `for` list, separated by single spaces:
/// every ballot file the round held when it closed, as the tally read them.
extension RoundFile {
    /// A recorded ballot before the round's origin, which it takes, is known.
    struct RecordedVote {
        var voter: Handle
        var cast: Timestamp
        var choices: [SubmissionID]
    }

    static func parseVotes(_ fields: inout YAMLFields) -> [RecordedVote]? {
        guard var nested = fields.mapping("votes") else { return nil }
        var votes: [RecordedVote] = []
        for pair in nested.scalarPairs() {
            guard let voter = Handle(pair.key) else {
                nested.report("'\(pair.key)' is not a voter's handle: \(Handle.rule)", at: pair.key)
                continue
            }
            guard let value = pair.value, let vote = recordedVote(value, of: voter) else {
                nested.report(
                    "a recorded vote is '<voter>: <cast time> <submission id> …', found '\(pair.value ?? "")'", at: pair.key)
                continue
            }
            votes.append(vote)
        }
        nested.finish()
        fields.absorb(nested, prefix: "votes")
        if !isInFileOrder(votes) { votes.sort { precedesAsFileName($0.voter, $1.voter) } }
        return votes
    }

    /// `<cast time> <submission id> …`, one space between words. No id is a ballot with an
    /// empty `for` (`check` reports its file; the tally skips it), which a record must hold as
    /// its file does.
    ///
    /// Split by bytes, in place: a sealed round records a dozen votes, and splitting by
    /// `Character` was two thirds of reading them; an array of the words and a `String` made of
    /// each id were 40 % of what was left (`perf` of a large full build, 103 → 62 samples).
    static func recordedVote(_ text: String, of voter: Handle) -> RecordedVote? {
        let utf8 = text.utf8
        let space = UInt8(ascii: " ")
        var cast: Timestamp?
        var choices: [SubmissionID] = []
        choices.reserveCapacity(utf8.reduce(0) { $0 + ($1 == space ? 1 : 0) })
        var start = utf8.startIndex
        while true {
            let end = utf8[start...].firstIndex(of: space) ?? utf8.endIndex
            let word = Substring(utf8[start..<end])
            if cast == nil {
                guard let time = Timestamp(iso8601: word) else { return nil }
                cast = time
            } else {
                guard let id = SubmissionID(word) else { return nil }
                choices.append(id)
            }
            guard end != utf8.endIndex else { break }
            start = utf8.index(after: end)
        }
        guard let cast else { return nil }
        return RecordedVote(voter: voter, cast: cast, choices: choices)
    }

    /// The record of `ballots`, in the order of their files' names.
    static func votesNode(_ ballots: [Ballot]) -> Node {
        var votes = YAMLWriter()
        for ballot in ballots.sorted(by: { precedesAsFileName($0.voter, $1.voter) }) {
            votes.text(ballot.voter.rawValue, ([ballot.cast.iso8601] + ballot.choices.map(\.rawValue)).joined(separator: " "))
        }
        return votes.isEmpty ? Node([(Node, Node)]()) : votes.mapping
    }

    /// Whether the votes are in the order the loader lists their files (`<voter>.yml`, byte by
    /// byte), which the record keeps so that a build gives what the files would give.
    private static func isInFileOrder(_ votes: [RecordedVote]) -> Bool {
        zip(votes, votes.dropFirst()).allSatisfy { precedesAsFileName($0.voter, $1.voter) }
    }

    /// Whether `<a>.yml` sorts before `<b>.yml` byte by byte, without joining them: a handle has
    /// no `.`, so where one handle is the start of the other, the `.` of `.yml` decides.
    static func precedesAsFileName(_ a: Handle, _ b: Handle) -> Bool {
        let (x, y) = (a.rawValue.utf8, b.rawValue.utf8)
        var (i, j) = (x.startIndex, y.startIndex)
        while i != x.endIndex, j != y.endIndex {
            if x[i] != y[j] { return x[i] < y[j] }
            x.formIndex(after: &i)
            y.formIndex(after: &j)
        }
        if i == x.endIndex, j == y.endIndex { return false }
        return i == x.endIndex ? UInt8(ascii: ".") < y[j] : x[i] < UInt8(ascii: ".")
    }
}
