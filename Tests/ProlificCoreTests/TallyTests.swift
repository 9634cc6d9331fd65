import Foundation
import Testing

@testable import ProlificCore

@Suite struct TallyTests {
    // Three snippets, submitted in the order ann, bob, cat.
    let ann = Make.submission("ann", at: "2026-11-02T10:00:00Z")
    let bob = Make.submission("bob", at: "2026-11-02T11:00:00Z")
    let cat = Make.submission("cat", at: "2026-11-02T12:00:00Z")
    let voteTime = "2026-11-03T00:00:00Z"

    func round(_ submissions: [Submission], _ ballots: [Ballot]) -> Round {
        Make.round(
            1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-08T00:00:00Z", submissions: submissions,
            ballots: ballots)
    }

    func scores(_ outcome: Tally.Outcome) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: outcome.record.scores.map { ($0.id.rawValue, $0.score) })
    }

    @Test func splitsEachBallotEquallyAndHighestWins() {
        let outcome = Tally.count(
            round(
                [ann, bob, cat],
                [
                    Make.ballot("dan", at: voteTime, for: [bob.id]),
                    Make.ballot("eve", at: voteTime, for: [bob.id, cat.id]),
                    Make.ballot("fay", at: voteTime, for: [cat.id, ann.id]),
                    Make.ballot("gus", at: voteTime, for: [ann.id, bob.id, cat.id]),
                ]))
        // bob 1 + 1/2 + 1/3, cat 1/2 + 1/2 + 1/3, ann 1/2 + 1/3
        #expect(outcome.winner == bob.id)
        #expect(outcome.record.method == "plain-1")
        #expect(outcome.record.method == Tally.method)
        #expect(outcome.record.ballots == 4)
        #expect(outcome.record.scores.map(\.id) == [bob.id, cat.id, ann.id])
        #expect(outcome.record.scores.map(\.score) == [1.8333, 1.3333, 0.8333])
    }

    @Test func scoresAreRoundedToFourDecimals() {
        let outcome = Tally.count(round([ann, bob, cat], [Make.ballot("dan", at: voteTime, for: [ann.id, bob.id, cat.id])]))
        #expect(outcome.record.scores.map(\.score) == [0.3333, 0.3333, 0.3333])
        #expect(Tally.rounded(1.0 / 3) == 0.3333)
        #expect(Tally.rounded(2.0 / 3) == 0.6667)
        #expect(Tally.rounded(2.5) == 2.5)
        #expect(Tally.rounded(0.00004) == 0)
    }

    @Test func tieGoesToTheEarliestSubmitted() {
        // cat was submitted after ann; both get one vote.
        let outcome = Tally.count(
            round(
                [cat, ann],
                [Make.ballot("dan", at: voteTime, for: [cat.id]), Make.ballot("eve", at: voteTime, for: [ann.id])]))
        #expect(outcome.winner == ann.id)
        #expect(outcome.record.scores.map(\.id) == [ann.id, cat.id])
    }

    @Test func tieAtTheSameSecondGoesToTheSmallerID() {
        let zed = Make.submission("zed", at: "2026-11-02T10:00:00Z")
        let amy = Make.submission("amy", at: "2026-11-02T10:00:00Z")
        let outcome = Tally.count(
            round(
                [zed, amy],
                [Make.ballot("dan", at: voteTime, for: [zed.id]), Make.ballot("eve", at: voteTime, for: [amy.id])]))
        #expect(outcome.winner == amy.id)
        #expect(outcome.record.scores.map(\.id) == [amy.id, zed.id])
    }

    @Test func scoresWithinFloatingPointNoiseTie() {
        // Ten ballots each split ten ways give each of ten snippets 0.1 * 10, which in floating point
        // is 0.9999999999999999; a late snippet with one whole vote has 1.0. That is a tie, so the
        // earliest snippet wins, not the late one.
        let early = (0..<10).map { i in Make.submission("a\(i)", at: "2026-11-02T10:00:0\(i)Z") }
        let late = Make.submission("zz", at: "2026-11-05T00:00:00Z")
        var ballots = (0..<10).map { i in Make.ballot("v\(i)", at: voteTime, for: early.map(\.id)) }
        ballots.append(Make.ballot("w", at: voteTime, for: [late.id]))
        let outcome = Tally.count(round(early + [late], ballots))
        #expect(outcome.winner == early[0].id)
        #expect(outcome.record.scores.allSatisfy { $0.score == 1 })
    }

    @Test func ownSnippetChoicesCountNothing() {
        // bob names his own snippet and ann's: ann gets his whole vote.
        let outcome = Tally.count(round([ann, bob], [Make.ballot("bob", at: voteTime, for: [bob.id, ann.id])]))
        #expect(scores(outcome) == [ann.id.rawValue: 1, bob.id.rawValue: 0])
        #expect(outcome.winner == ann.id)
        #expect(outcome.record.ballots == 1)
    }

    @Test func aBallotForOnlyOwnSnippetIsNotCounted() {
        let outcome = Tally.count(
            round(
                [ann, bob],
                [Make.ballot("bob", at: voteTime, for: [bob.id]), Make.ballot("cat", at: voteTime, for: [bob.id])]))
        #expect(outcome.record.ballots == 1)
        #expect(scores(outcome) == [ann.id.rawValue: 0, bob.id.rawValue: 1])
        #expect(outcome.winner == bob.id)
    }

    @Test func unknownIDsCountNothing() {
        let stranger = Make.id("zed", "2026-11-02T09:00:00Z")
        let outcome = Tally.count(
            round(
                [ann, bob],
                [
                    Make.ballot("dan", at: voteTime, for: [stranger, bob.id]),
                    Make.ballot("eve", at: voteTime, for: [stranger]),
                ]))
        #expect(scores(outcome) == [ann.id.rawValue: 0, bob.id.rawValue: 1])
        #expect(outcome.record.ballots == 1)
        #expect(!outcome.record.scores.contains { $0.id == stranger })
    }

    @Test func aChoiceNamedTwiceCountsOnce() {
        let outcome = Tally.count(round([ann, bob], [Make.ballot("dan", at: voteTime, for: [bob.id, bob.id, ann.id])]))
        #expect(scores(outcome) == [ann.id.rawValue: 0.5, bob.id.rawValue: 0.5])
    }

    @Test func withoutBallotsTheEarliestSubmittedWins() {
        let outcome = Tally.count(round([cat, bob, ann], []))
        #expect(outcome.winner == ann.id)
        #expect(outcome.record.ballots == 0)
        #expect(outcome.record.scores.map(\.id) == [ann.id, bob.id, cat.id])
        #expect(outcome.record.scores.allSatisfy { $0.score == 0 })
    }

    @Test func withoutSubmissionsThereIsNoWinner() {
        let outcome = Tally.count(round([], [Make.ballot("dan", at: voteTime, for: [ann.id])]))
        #expect(outcome.winner == nil)
        #expect(outcome.record.scores.isEmpty)
        #expect(outcome.record.ballots == 0)
    }

    @Test func ballotOrderDoesNotMatter() {
        let ballots = [
            Make.ballot("dan", at: voteTime, for: [ann.id, bob.id]),
            Make.ballot("eve", at: voteTime, for: [cat.id]),
            Make.ballot("fay", at: voteTime, for: [bob.id, cat.id, ann.id]),
        ]
        let first = Tally.count(round([ann, bob, cat], ballots))
        let second = Tally.count(round([cat, ann, bob], ballots.reversed()))
        #expect(first == second)
    }

    static let formatted: [(Double, String)] = [
        (2.5, "2.5"), (1.0 / 3, "0.3333"), (2.0 / 3, "0.6667"), (0, "0"), (2, "2"), (0.05, "0.05"),
        (1.23456, "1.2346"), (0.00004, "0"), (10.1, "10.1"), (3.0001, "3.0001"),
    ]

    @Test(arguments: formatted)
    func formats(_ score: Double, _ text: String) {
        #expect(Tally.format(score) == text)
    }

    /// The buffer-writing `format` against the plain spelling: rounded to four decimals, trailing
    /// zeros dropped, over negative, tiny, whole and large scores.
    @Test func formatsLikeThePlainSpelling() {
        func plain(_ score: Double) -> String {
            guard abs(score) < Tally.largestRounded else { return String(score) }
            let scaled = Int64((score * 10_000).rounded())
            let sign = scaled < 0 ? "-" : ""
            var fraction = String(scaled.magnitude % 10_000)
            if fraction == "0" { return sign + String(scaled.magnitude / 10_000) }
            fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(sign)\(scaled.magnitude / 10_000).\(fraction)"
        }
        var scores: [Double] = [-0.0, -0.00004, -0.00005, 0.00005, 0.1, 0.01, 0.001, 0.0001, 1e10 + 0.5, 99_999_999_999.99, 1e11, -1e11, 5e-324]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let magnitude = pow(10, Double(Int(x >> 59) % 12) - 4)
            scores.append((Double(x >> 11) / Double(1 << 53) - 0.5) * 2 * magnitude)
        }
        for score in scores { #expect(Tally.format(score) == plain(score), "\(score)") }
    }
}
