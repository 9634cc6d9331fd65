import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct BallotFileTests {
    static let path = "Content/projects/moon/rounds/0001/votes/cat.yml"

    func parse(_ text: String) throws(Diagnostics) -> Ballot {
        try BallotFile.parse(text, path: Self.path, voter: Make.handle("cat"))
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    @Test func parsesABallot() throws {
        let ballot = try parse("voter: cat\ncast: 2026-11-03T00:00:00Z\nfor:\n  - ann-20261102101500\n  - mary-jo-20261102101500\n")
        #expect(ballot.voter == Make.handle("cat"))
        #expect(ballot.cast == Make.time("2026-11-03T00:00:00Z"))
        #expect(ballot.choices == [Make.id("ann-20261102101500"), Make.id("mary-jo-20261102101500")])
        #expect(ballot.origin.path == Self.path)
        #expect(ballot.origin.position(of: "for.0") == TextPosition(line: 4, column: 5))
        #expect(ballot.origin.position(of: "for.1") == TextPosition(line: 5, column: 5))
    }

    @Test func acceptsAByteOrderMarkAndCRLF() throws {
        let ballot = try parse("\u{FEFF}voter: cat\r\ncast: 2026-11-03\r\nfor: [ann-20261102101500]\r\n")
        #expect(ballot.choices == [Make.id("ann-20261102101500")])
        #expect(ballot.origin.position(of: "for.0") == TextPosition(line: 3, column: 7))
    }

    @Test func voterMustMatchTheFileName() {
        #expect(
            errors("voter: bob\ncast: 2026-11-03T00:00:00Z\nfor: [ann-20261102101500]\n")
                == ["\(Self.path):1:8: error: voter 'bob' does not match the file name 'cat.yml'"])
    }

    @Test func unknownKey() {
        #expect(
            errors("voter: cat\ncast: 2026-11-03T00:00:00Z\nfor: [ann-20261102101500]\nagainst: [bob-20261102101500]\n")
                == ["\(Self.path):4:1: error: unknown key 'against'"])
    }

    @Test func missingRequiredKeys() {
        #expect(
            errors("voter: cat\ncast: 2026-11-03T00:00:00Z\n") == ["\(Self.path):1:1: error: missing required key 'for'"])
        #expect(
            errors("cast: 2026-11-03T00:00:00Z\nfor: [ann-20261102101500]\n")
                == ["\(Self.path):1:1: error: missing required key 'voter'"])
        #expect(
            errors("voter: cat\nfor: [ann-20261102101500]\n") == ["\(Self.path):1:1: error: missing required key 'cast'"])
    }

    @Test func wrongTypes() {
        #expect(
            errors("voter: cat\ncast: 2026-11-03T00:00:00Z\nfor: ann-20261102101500\n")
                == ["\(Self.path):3:6: error: 'for' must be a list, found 'ann-20261102101500'"])
        #expect(
            errors("voter: cat\ncast: 2026-11-03T00:00:00Z\nfor:\n  - ann\n  - [x]\n")
                == [
                    "\(Self.path):4:5: error: item 1 of 'for' must be a submission id: '<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC, found 'ann'",
                    "\(Self.path):5:5: error: item 2 of 'for' must be a submission id: '<author>-<yyyymmddhhmmss>', the author's handle and the submission time in UTC, found a list",
                ])
    }

    @Test func invalidTimestamp() {
        #expect(
            errors("voter: cat\ncast: 2026-11-31T00:00:00Z\nfor: [ann-20261102101500]\n")
                == ["\(Self.path):2:7: error: 'cast' must be an ISO 8601 time in UTC like 2026-11-22T13:00:00Z, found '2026-11-31T00:00:00Z'"])
    }

    @Test func duplicateKey() {
        #expect(
            errors("voter: cat\ncast: 2026-11-03T00:00:00Z\nfor: [ann-20261102101500]\nfor: [bob-20261102101500]\n")
                == ["\(Self.path):3:1: error: invalid YAML: duplicate key 'for'"])
    }

    @Test func invalidYAML() {
        #expect(
            errors("voter: cat\ncast: [2026\nfor: x\n")
                == ["\(Self.path):3:4: error: invalid YAML: did not find expected ',' or ']'"])
    }

    @Test func anEmptyListParses() throws {
        // Whether a ballot names anything is a rule (`check`), not a matter of format.
        #expect(try parse("voter: cat\ncast: 2026-11-03\nfor: []\n").choices == [])
    }

    @Test func roundTrips() throws {
        let ballot = Ballot(
            voter: Make.handle("cat"), cast: Make.time("2026-11-03T04:05:06Z"),
            choices: [Make.id("mary-jo-20261102101500"), Make.id("123-20261102101500"), Make.id("yes-20261102101500")],
            origin: Origin(path: Self.path))
        let text = try BallotFile.render(ballot)
        var back = try parse(text)
        back.origin = ballot.origin
        #expect(back == ballot)
        #expect(try BallotFile.render(back) == text)
    }

    /// The reader for the shape `vote` writes gives what the YAML reader gives, positions
    /// included, and leaves every other text to it: checked on written ballots and on 20,000
    /// of them with a byte changed, added or removed.
    @Test func writtenBallotsReadAsTheYAMLReaderReadsThem() throws {
        var random = FlatYAMLTests.SplitMix(seed: 7)
        let alphabet = Array("abcz09-_:. \n\t#'\"[]{}~&*!|>%@`,?\u{E9}".utf8)
        var fast = 0, slow = 0
        for n in 0..<2_000 {
            let choices = (0...(n % 5)).map { _ in Make.id("a\(n % 7)-2026110\(n % 9 + 1)10150\(n % 10)") }
            let ballot = Ballot(
                voter: Make.handle("cat"), cast: Make.time("2026-11-03T00:00:0\(n % 10)Z"), choices: choices,
                origin: Origin(path: Self.path))
            let written = try BallotFile.render(ballot)
            let read = BallotFile.parseWritten(written, path: Self.path, voter: Make.handle("cat"))
            #expect(read != nil)
            #expect(read == (try? BallotFile.parseYAML(written, path: Self.path, voter: Make.handle("cat"))))
            for _ in 0..<10 {
                var bytes = Array(written.utf8)
                let at = random.next(bytes.count)
                let byte = alphabet[random.next(alphabet.count)]
                switch random.next(3) {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                guard let quick = BallotFile.parseWritten(text, path: Self.path, voter: Make.handle("cat")) else {
                    slow += 1
                    continue
                }
                fast += 1
                #expect(quick == (try? BallotFile.parseYAML(text, path: Self.path, voter: Make.handle("cat"))), "\(text)")
            }
        }
        #expect(fast > 500 && slow > 10_000, "\(fast) read directly, \(slow) left to YAML")
    }
}
