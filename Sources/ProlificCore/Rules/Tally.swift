/// The plain count of a round's ballots.
///
/// This is the plain count, kept to re-check rounds recorded with it (`plain-1`) and as the baseline
/// the fairness simulation compares against; new rounds are decided by `FairTally`. Each ballot weighs 1, split equally among the snippets it names; the
/// highest total wins; ties go to the earliest submitted snippet, then the smaller id.
public enum Tally {
    /// Recorded in round.md so `check` knows which rules decided a closed round.
    public static let method = "plain-1"

    /// Scores closer than this are a tie; shares like 1/3 don't add up exactly in floating point.
    static let tolerance = 1e-9

    /// The result of counting: every snippet's score in ranking order, and the winner.
    public struct Outcome: Hashable, Sendable {
        public var record: TallyRecord
        public var winner: SubmissionID?

        public init(record: TallyRecord, winner: SubmissionID?) {
            self.record = record
            self.winner = winner
        }
    }

    /// Counts the ballots of `round` cast before its cutoff (as the fair tally does). Choices that
    /// are not snippets of the round, or that are the voter's own, count for nothing; a snippet
    /// nobody chose scores 0. No submissions, no winner. Hidden snippets are left out
    /// (`Moderation.counted`).
    public static func count(_ round: Round) -> Outcome {
        let round = Moderation.counted(round)
        var scores: [SubmissionID: Double] = [:]
        for submission in round.submissions { scores[submission.id] = 0 }
        var counted = 0
        let cutoff = TallyContext.cutoff(of: round)
        for ballot in round.ballots.sorted(by: { $0.voter < $1.voter }) where ballot.cast < cutoff {
            let valid = Array(Set(ballot.choices)).sorted().filter { id in
                scores[id] != nil && id.author != ballot.voter
            }
            guard !valid.isEmpty else { continue }
            counted += 1
            let share = 1.0 / Double(valid.count)
            for id in valid { scores[id, default: 0] += share }
        }
        let ranked = round.submissions.sorted { a, b in
            let sa = scores[a.id] ?? 0, sb = scores[b.id] ?? 0
            if abs(sa - sb) > tolerance { return sa > sb }
            if a.submitted != b.submitted { return a.submitted < b.submitted }
            return a.id < b.id
        }
        let record = TallyRecord(
            method: method, ballots: counted,
            scores: ranked.map { TallyRecord.Score(id: $0.id, score: rounded(scores[$0.id] ?? 0)) })
        return Outcome(record: record, winner: ranked.first?.id)
    }

    /// Scores are recorded to four decimals: enough to tell every split apart, short enough to read.
    public static func rounded(_ score: Double) -> Double {
        guard abs(score) < largestRounded else { return score }
        return (score * 10_000).rounded() / 10_000
    }

    /// `2.5`, `1.3333`, `-0.25`, `0`: at most four decimals and no trailing zeros, as round.md
    /// records scores. Total: round.md is text anyone can edit, and the site prints what it holds.
    public static func format(_ score: Double) -> String {
        guard abs(score) < largestRounded else { return String(score) }
        let scaled = Int64((score * 10_000).rounded())
        // Written backwards into one buffer (at most a sign, 11 digits, a point and 4 decimals):
        // every explained ballot on every round page prints a few of these.
        var digits = scaled.magnitude
        return String(unsafeUninitializedCapacity: 17) { buffer in
            var end = 17
            func put(_ byte: UInt8) {
                end -= 1
                buffer[end] = byte
            }
            var fraction = digits % 10_000
            digits /= 10_000
            if fraction != 0 {
                var trailing = true
                for _ in 0..<4 {
                    let digit = UInt8(fraction % 10)
                    fraction /= 10
                    if trailing && digit == 0 { continue }
                    trailing = false
                    put(48 + digit)
                }
                put(UInt8(ascii: "."))
            }
            repeat {
                put(48 + UInt8(digits % 10))
                digits /= 10
            } while digits > 0
            if scaled < 0 { put(UInt8(ascii: "-")) }
            // Move the text to the front of the buffer.
            let count = 17 - end
            for i in 0..<count { buffer[i] = buffer[end + i] }
            return count
        }
    }

    /// Past this a `Double` has no fourth decimal left to round to (and ten-thousandths would
    /// overflow `Int64`), so a score is kept as it is; no tally comes near: a score is at most
    /// the number of ballots, so only a hand-edited round.md holds one.
    static let largestRounded = 1e11
}
