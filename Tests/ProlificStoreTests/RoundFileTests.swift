import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct RoundFileTests {
    static let path = "Content/projects/moon/rounds/0002/round.md"

    func parse(_ text: String) throws(Diagnostics) -> Round {
        try RoundFile.parse(text, path: Self.path, number: Make.number(2))
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    static let closed = """
        ---
        opened: 2026-11-01T00:00:00Z
        closes: 2026-11-15T00:00:00Z
        extended:
        - at: 2026-11-08T09:00:00Z
          from: 2026-11-08T00:00:00Z
        closed: 2026-11-15T00:00:00Z
        winner: ann-20261109100000
        tally:
          method: plain-1
          ballots: 3
          scores:
            ann-20261109100000: 1.5
            bob-20261110100000: 1.3333
            cat-20261111100000: 0
        ---

        A note from the maintainers.

        """

    @Test func parsesAClosedRound() throws {
        let round = try parse(Self.closed)
        #expect(round.number == Make.number(2))
        #expect(round.opened == Make.time("2026-11-01T00:00:00Z"))
        #expect(round.closes == Make.time("2026-11-15T00:00:00Z"))
        #expect(round.extensions == [Round.Extension(at: Make.time("2026-11-08T09:00:00Z"), from: Make.time("2026-11-08T00:00:00Z"))])
        #expect(round.closed == Make.time("2026-11-15T00:00:00Z"))
        #expect(round.winner == Make.id("ann-20261109100000"))
        #expect(
            round.tally
                == TallyRecord(
                    method: "plain-1", ballots: 3,
                    scores: [
                        .init(id: Make.id("ann-20261109100000"), score: 1.5),
                        .init(id: Make.id("bob-20261110100000"), score: 1.3333),
                        .init(id: Make.id("cat-20261111100000"), score: 0),
                    ]))
        #expect(round.note == "A note from the maintainers.")
        #expect(!round.isOpen)
        #expect(round.submissions.isEmpty && round.ballots.isEmpty)
        #expect(round.origin.position(of: "winner") == TextPosition(line: 8, column: 9))
        #expect(round.origin.position(of: "tally.scores.bob-20261110100000") == TextPosition(line: 14, column: 25))
    }

    /// A comment leaves the file to Yams (`FlatYAML` reads a subset, whose keys it knows are
    /// unique): the same round, positions and errors either way.
    @Test func yamsAndTheFlatReaderGiveTheSamePositions() throws {
        let commented = Self.closed.replacingOccurrences(of: "method: plain-1", with: "method: plain-1  # by hand")
        #expect(try parse(commented) == parse(Self.closed))
        #expect(try parse(commented).origin.positions.map(\.key) == parse(Self.closed).origin.positions.map(\.key))
        let badScores = "---\nopened: 2026-11-01\ncloses: 2026-11-08\ntally:\n  method: plain-1\n  ballots: 1\n  scores:\n    ann-20261109100000: lots\n    nobody: 1\n    bob-20261110100000: 1\n  voters: 3\n---\n"
        let expected = [
            "\(Self.path):8:25: error: a score is '<submission id>: <number>', found 'ann-20261109100000'",
            "\(Self.path):9:13: error: a score is '<submission id>: <number>', found 'nobody'",
            "\(Self.path):11:3: error: unknown key 'voters'",
        ]
        #expect(errors(badScores) == expected)
        #expect(errors(badScores.replacingOccurrences(of: "ballots: 1", with: "ballots: 1 # one")) == expected)
        // A sealed file's position is its digest's, which `check` points at.
        let sealed = """
            ---
            opened: 2026-11-01T00:00:00Z
            closes: 2026-11-15T00:00:00Z
            closed: 2026-11-15T00:00:00Z
            sealed:
              sha256: \(String(repeating: "a", count: 64))
              files:
                submissions/ann-20261109100000.md: \(String(repeating: "b", count: 64))
                votes/bob.yml: \(String(repeating: "c", count: 64))
            ---

            """
        for text in [sealed, sealed.replacingOccurrences(of: "files:", with: "files:  # each file")] {
            let files = try #require(try parse(text).seal?.files)
            #expect(files.map(\.position) == [TextPosition(line: 8, column: 40), TextPosition(line: 9, column: 20)])
        }
    }

    @Test func parsesAnOpenRound() throws {
        let round = try parse("---\nopened: 2026-11-01T00:00:00Z\ncloses: 2026-11-08T00:00:00Z\n---\n")
        #expect(round.isOpen)
        #expect(round.winner == nil && round.tally == nil && round.extensions.isEmpty && round.note == "")
    }

    @Test func unknownKeys() {
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\nclosing: 2026-11-08\n---\n")
                == ["\(Self.path):4:1: error: unknown key 'closing'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\ntally:\n  method: plain-1\n  ballots: 0\n  scores: {}\n  voters: 3\n---\n")
                == ["\(Self.path):8:3: error: unknown key 'voters'"])
    }

    @Test func missingRequiredKeys() {
        #expect(errors("---\nopened: 2026-11-01\n---\n") == ["\(Self.path):1:1: error: missing required key 'closes'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\ntally:\n  method: plain-1\n  ballots: 0\n---\n")
                == ["\(Self.path):1:1: error: missing required key 'scores'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\nextended:\n- at: 2026-11-08\n---\n")
                == ["\(Self.path):1:1: error: missing required key 'from'"])
    }

    @Test func wrongTypes() {
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\nwinner: ann\n---\n")
                == ["\(Self.path):4:9: error: 'winner' must be a submission id: '<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC, found 'ann'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\nextended: 2026-11-01\n---\n")
                == ["\(Self.path):4:11: error: 'extended' must be a list, found '2026-11-01'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\ntally:\n  method: plain-1\n  ballots: -1\n  scores: {}\n---\n")
                == ["\(Self.path):6:12: error: 'ballots' must be a whole number from 0 to 2147483647, found '-1'"])
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\ntally:\n  method: plain-1\n  ballots: 1\n  scores:\n    ann-20261109100000: lots\n    nobody: 1\n---\n")
                == [
                    "\(Self.path):8:25: error: a score is '<submission id>: <number>', found 'ann-20261109100000'",
                    "\(Self.path):9:13: error: a score is '<submission id>: <number>', found 'nobody'",
                ])
    }

    @Test func invalidTimestamp() {
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08T00:00:00z\n---\n")
                == ["\(Self.path):3:9: error: 'closes' must be an ISO 8601 time in UTC like 2026-11-22T13:00:00Z, found '2026-11-08T00:00:00z'"])
    }

    @Test func duplicateKey() {
        #expect(
            errors("---\nopened: 2026-11-01\ncloses: 2026-11-08\ncloses: 2026-11-09\n---\n")
                == ["\(Self.path):3:1: error: invalid YAML: duplicate key 'closes'"])
    }

    @Test func invalidYAML() {
        #expect(
            errors("---\nopened: 2026-11-01\n\tcloses: 2026-11-08\n---\n")
                == ["\(Self.path):3:1: error: invalid YAML: found a tab character that violates indentation"])
    }

    @Test func roundTripsAClosedRound() throws {
        let round = try parse(Self.closed)
        let text = try RoundFile.render(round)
        var back = try parse(text)
        back.origin = round.origin
        var expected = round
        expected.origin = round.origin
        #expect(back == expected)
        #expect(try RoundFile.render(back) == text)
    }

    @Test func roundTripsWhatTheTallyGives() throws {
        let ids = ["ann-20261102100000", "bob-20261102110000", "cat-20261102120000"].map(Make.id)
        let submissions = ids.map { id in
            Submission(id: id, author: id.author, submitted: id.time, body: "x", origin: Origin(path: ""))
        }
        var round = Round(
            number: Make.number(2), opened: Make.time("2026-11-01"), closes: Make.time("2026-11-08"),
            closed: Make.time("2026-11-08"), note: "Ünïcode note: yes", submissions: submissions,
            ballots: [Ballot(voter: Make.handle("dan"), cast: Make.time("2026-11-03"), choices: ids, origin: Origin(path: ""))],
            origin: Origin(path: Self.path))
        let outcome = Tally.count(round)
        round.winner = outcome.winner
        round.tally = outcome.record
        let back = try parse(try RoundFile.render(round))
        #expect(back.tally == outcome.record)
        #expect(back.tally?.scores.map(\.score) == [0.3333, 0.3333, 0.3333])
        #expect(back.winner == ids[0])
        #expect(back.note == round.note)
    }

    @Test func roundTripsATallyWithoutScores() throws {
        let round = Round(
            number: Make.number(2), opened: Make.time("2026-11-01"), closes: Make.time("2026-11-08"),
            tally: TallyRecord(method: "plain-1", ballots: 0, scores: []), origin: Origin(path: Self.path))
        let text = try RoundFile.render(round)
        #expect(try parse(text).tally == round.tally)
    }

    /// A sealed path is relative and made of plain names: the byte scan agrees with the rule
    /// written with parts (no part empty or hidden, no NUL; hidden judged by Characters, as
    /// `RoundSeal` lists names) on every string of up to four characters from `a . / NUL é` and a
    /// combining acute accent, and on the paths `close` writes.
    @Test func aSealedPathIsMadeOfPlainNames() {
        func byParts(_ path: String) -> Bool {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.utf8.contains(0) }
        }
        let alphabet = ["a", ".", "/", "\0", "é", "\u{301}"]
        var strings = [""]
        var all: [String] = [""]
        for _ in 1...4 {
            strings = strings.flatMap { s in alphabet.map { s + $0 } }
            all += strings
        }
        for path in all {
            #expect(RoundFile.isSealedPath(path) == byParts(path), "\(Array(path.utf8))")
        }
        for path in ["submissions/ann-20261102101500.md", "votes/bo.yml", "images/map.png", "a/b/c"] {
            #expect(RoundFile.isSealedPath(path))
        }
        for path in ["", "/votes/bo.yml", "votes//bo.yml", "votes/", "../x", "votes/.bo.yml", ".x"] {
            #expect(!RoundFile.isSealedPath(path), "\(path)")
        }
    }
}
