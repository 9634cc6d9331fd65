import ProlificCore
import Testing

@testable import ProlificStore

/// Inputs `make fuzz` found (docs/reliability.md), kept as tests so they stay fixed. Each is also a
/// `regression-*` seed in Tests/Fuzz/Corpus/, so every fuzz run starts from it.
@Suite struct FuzzRegressionTests {
    static let path = "Content/projects/moon/rounds/0001/round.md"

    /// A round.md whose tally holds `score`, as a maintainer might hand-edit it.
    static func round(score: String) -> String {
        """
        ---
        opened: 2026-11-10T14:00:00Z
        closes: 2026-11-17T14:00:00Z
        tally:
          method: fair-1
          ballots: 4
          scores:
            chidi-20261112090000: \(score)
        ---

        """
    }

    /// The score of `text` after it is read, written back and read again, as `moderate hide` does.
    func scoreAfterRewrite(_ text: String) throws -> (written: String, score: Double?) {
        let round = try RoundFile.parse(text, path: Self.path, number: Make.number(1))
        let written = try RoundFile.render(round)
        let again = try RoundFile.parse(written, path: Self.path, number: Make.number(1))
        return (written, again.tally?.scores.first?.score)
    }

    /// FuzzContent, `regression-negative-score.md`: `-.1732` was written back as `0.1732`, because
    /// `Tally.format` took the sign from the whole part, which is 0.
    @Test func aNegativeScoreKeepsItsSign() throws {
        let (written, score) = try scoreAfterRewrite(Self.round(score: "-.1732"))
        #expect(written.contains("chidi-20261112090000: -0.1732\n"))
        #expect(score == -0.1732)
    }

    /// `regression-huge-score.md`: `Tally.format` converted ten-thousandths to `Int64`, which traps
    /// past 9.2e14; a round.md with such a score crashed `build` (round pages) and any rewrite.
    @Test(arguments: ["1e300", "-1.7976931348623157e308", "922337203685478"])
    func aHugeScoreIsWrittenInsteadOfTrapping(_ text: String) throws {
        let (_, score) = try scoreAfterRewrite(Self.round(score: text))
        #expect(score == Double(text))
    }

    static let formatted: [(Double, String)] = [
        (-0.25, "-0.25"), (-2, "-2"), (-1.5, "-1.5"), (-0.00004, "0"), (1e300, "1e+300"), (-1e11, "-100000000000.0"),
        (99_999_999_999.5, "99999999999.5"),
    ]

    @Test(arguments: formatted)
    func formatsEveryFiniteScore(_ score: Double, _ text: String) {
        #expect(Tally.format(score) == text)
        #expect(Double(Tally.format(score)) == Tally.rounded(score))
    }
}
