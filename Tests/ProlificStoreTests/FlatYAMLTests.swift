import ProlificCore
import Testing
import Yams

@testable import ProlificStore

/// `FlatYAML` must agree with Yams wherever it answers: the same tree, the same texts and styles,
/// the same positions. Anything else it must leave to Yams (nil).
@Suite struct FlatYAMLTests {
    /// What Yams makes of `yaml`, or nil when it refuses it or finds no document.
    func composed(_ yaml: String) -> YAMLValue? {
        guard let node = try? Yams.compose(yaml: yaml, .basic, .default, .utf8) else { return nil }
        return YAMLValue(node)
    }

    func expectAgreement(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let flat = FlatYAML.parse(yaml) else { return }
        let yams = composed(yaml)
        #expect(flat == yams, "\(yaml.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "---\nvoter: u1158\ncast: 2025-01-02T00:30:00Z\nfor:\n- u4869-20250101050000\n",
        "voter: cat\ncast: 2026-11-03T00:00:00Z\nfor:\n  - ann-20261102101500\n  - mary-jo-20261102101500\n",
        "author: u1072\nsubmitted: 2025-01-01T01:00:00Z\nending: false",
        """
        opened: 2025-01-01T00:00:00Z
        closes: 2025-01-08T00:00:00Z
        closed: 2025-01-08T00:00:00Z
        winner: u1072-20250101010000
        tally:
          method: fair-1
          ballots: 12
          scores:
            u1072-20250101010000: 0.175
            u2046-20250101030000: 0
        note:
        """,
        "title: 'Project 0: it''s a ''test'''\nowner: u3677\nround-length: 7d\n\nstatus:   open   \n",
        "name: User 0\njoined: 2024-11-02T00:00:00Z\nbio: ~\nwebsite: null\n",
        // How the CLI writes a project's tags and a profile's follows and emails.
        "title: Project 0\ntags: [tag0, sci-fi]\nstatus: open\n",
        "name: Ann\nfollows:\n  projects: [moon, sun-2]\n  users: []\nemails: [ann@example.org, 'a.b+c@x.org']\n",
    ])
    func readsWhatContentFilesAreWrittenIn(_ yaml: String) throws {
        let flat = try #require(FlatYAML.parse(yaml))
        #expect(flat == composed(yaml))
    }

    @Test func givesPositionsAndStyles() throws {
        let flat = try #require(FlatYAML.parse("a: x\nb:\nc: 'q'\nd:\n  - y\n"))
        guard case .mapping(let pairs, let at) = flat else { Issue.record("not a mapping"); return }
        #expect(at == TextPosition(line: 1, column: 1))
        #expect(pairs.map(\.key.text) == ["a", "b", "c", "d"])
        #expect(pairs[0].value == .scalar("x", plain: true, at: TextPosition(line: 1, column: 4)))
        #expect(pairs[1].value == .scalar("", plain: true, at: TextPosition(line: 2, column: 3)))
        #expect(pairs[2].value == .scalar("q", plain: false, at: TextPosition(line: 3, column: 4)))
        #expect(
            pairs[3].value
                == .sequence([.scalar("y", plain: true, at: TextPosition(line: 5, column: 5))], at: TextPosition(line: 5, column: 3)))
    }

    @Test(arguments: [
        "a: b # note",  // a comment
        "a: \"b\"",  // double quotes
        "a: {b: c}",  // a flow mapping
        "a: [b, [c]]",  // a nested flow list
        "a: [b,]",  // a trailing comma
        "a: [b, c] # note",  // a comment after a flow list
        "a: [b,\n  c]",  // a flow list over two lines
        "a: [b: c]",  // a colon in a flow list
        "a:\n- [b]",  // a flow list as a list's item
        "a: []\n  b: c",  // a flow list, then a deeper line
        "a: [b]\n  c",  // a flow list, then a deeper line
        "a: @b",  // an indicator that starts a plain scalar
        "a: [@b]",  // the same in a flow list
        "a: &x b\nc: *x",  // an anchor and an alias
        "a: !tag b",  // a tag
        "a: b\n  c",  // a scalar over two lines
        "a:\tb",  // a tab
        "a: café",  // outside ASCII
        "a: b\na: c",  // a duplicate key
        "a: b: c",  // a colon and space inside a plain scalar
        "a: 'b",  // an unclosed quote
        "a: |\n  b",  // a block scalar
        "- a\n- b",  // a list at the root
        "plain text",  // a scalar at the root
        "",  // nothing
        "---\na: b\n---\nc: d",  // two documents
        "  a: b",  // an indented root
        "a:\n-",  // an empty list item
        "a:\n- b: c",  // a list of mappings
        "a: b\r\nc: d",  // a carriage return
    ])
    func leavesEverythingElseToYams(_ yaml: String) {
        #expect(FlatYAML.parse(yaml) == nil)
    }

    /// Duplicates are found by scanning a mapping's first keys and by a set past them.
    @Test(arguments: [3, 31, 32, 33, 100])
    func findsADuplicateKeyAmongMany(_ count: Int) throws {
        let keys = (0..<count).map { "votes/u\($0).yml" }
        let distinct = keys.map { "\($0): x\n" }.joined()
        let flat = try #require(FlatYAML.parse(distinct))
        #expect(flat == composed(distinct))
        for twice in [0, count / 2, count - 1] {
            #expect(FlatYAML.parse(distinct + "\(keys[twice]): y\n") == nil, "key \(twice) of \(count) again")
        }
        #expect(FlatYAML.parse(distinct + "\(keys[0].dropLast()): y\n") != nil, "a key one byte shorter than another")
        #expect(FlatYAML.parse(distinct + "\(keys[count - 1])x: y\n") != nil, "a key one byte longer than another")
    }

    @Test func givesAFlowListsPositions() throws {
        let flat = try #require(FlatYAML.parse("tags: [ a b ,'it''s', c]\nnone: []"))
        guard case .mapping(let pairs, _) = flat else { Issue.record("not a mapping"); return }
        #expect(
            pairs[0].value
                == .sequence(
                    [
                        .scalar("a b", plain: true, at: TextPosition(line: 1, column: 9)),
                        .scalar("it's", plain: false, at: TextPosition(line: 1, column: 14)),
                        .scalar("c", plain: true, at: TextPosition(line: 1, column: 23)),
                    ], at: TextPosition(line: 1, column: 7)))
        #expect(pairs[1].value == .sequence([], at: TextPosition(line: 2, column: 7)))
        #expect(flat == composed("tags: [ a b ,'it''s', c]\nnone: []"))
    }

    /// Random flow lists: items good and bad, spaced in every way, compared with Yams.
    @Test func agreesWithYamsOnGeneratedFlowLists() {
        var random = SplitMix(seed: 0xF10E)
        let goodItems = ["a", "tag0", "sci-fi", "a b", "a@b.org", "x.y", "(x)", "~", "null", "'q'", "'it''s'", "''", "'a, b'", "'[x]'", "+1", "_x", "a=b"]
        let badItems = ["", "-a", "a:b", "a: b", "?a", "[b]", "{b}", "#c", "a #c", "'a", "\"q\"", "&a", "*a", "!t", "é", "a!", "'a'b"]
        let spaces = ["", "", " ", "  "]
        var accepted = 0
        let total = 20_000
        for _ in 0..<total {
            var text = "k: [" + spaces[random.next(spaces.count)]
            let count = random.next(4)
            for index in 0..<count {
                if index > 0 { text += spaces[random.next(spaces.count)] + "," + spaces[random.next(spaces.count)] }
                text += random.next(8) == 0 ? badItems[random.next(badItems.count)] : goodItems[random.next(goodItems.count)]
            }
            if random.next(20) == 0 { text += "," }
            text += spaces[random.next(spaces.count)] + (random.next(30) == 0 ? "" : "]")
            if random.next(20) == 0 { text += " x" }
            text += random.next(2) == 0 ? "\nz: 1\n" : ""
            if FlatYAML.parse(text) != nil { accepted += 1 }
            expectAgreement(text)
        }
        #expect(accepted > total / 3, "accepted \(accepted) of \(total)")
    }

    /// Random near-YAML: pieces of the subset mixed with what lies just outside it.
    @Test func agreesWithYamsOnGeneratedText() {
        var random = SplitMix(seed: 0x5EED)
        let goodKeys = [
            "a", "b", "c", "d", "e", "voter", "for", "x-y", "k_1", "2025", "a.b", "null", "_z", "votes/u1.yml",
            "submissions/u1-20250101010000.md", "a/b/c", "a//b", "a/",
        ]
        // libyaml refuses a key longer than 1,024 characters.
        let badKeys = ["-a", "a b", "#c", "?", "a:b", "'q'", "\"q\"", "[a]", "é", "/a", "a/:b", "a/ b", String(repeating: "k/", count: 550)]
        let goodScalars = [
            "x", "u1-20250101010000", "2025-01-01T00:00:00Z", "0.175", "~", "null", "true", "a b  c", "a:b",
            "'it''s'", "''", "'a: #b'", "(x)", "x?", "x,y", "a=b", "/p/q", "+1", "_x", ".5", "...", "x ", "  x",
            "don't", "a!", "ann@example.org",
        ]
        let badScalars = [
            "-1", "a: b", "a:", "a #c", "a#c", "'a", "'a'b'", "\"q\"", "[a]", "{a: b}", "&a x", "*a", "!t x", "|",
            ">", "@x", "%x", "`x", ",x", "!x", "---", "-", "- x", "é", "a\tb", "?x", ":x",
        ]
        func pick(_ good: [String], _ bad: [String]) -> String {
            random.next(10) == 0 ? bad[random.next(bad.count)] : good[random.next(good.count)]
        }
        var accepted = 0
        let total = 30_000
        for _ in 0..<total {
            var lines: [String] = []
            if random.next(4) == 0 { lines.append("---") }
            for _ in 0..<(1 + random.next(5)) {
                let indent = String(repeating: " ", count: [0, 0, 0, 0, 0, 1, 2, 4][random.next(8)])
                let key = pick(goodKeys, badKeys)
                switch random.next(7) {
                case 0:
                    lines.append("\(indent)\(key):")
                case 1:
                    lines.append("\(indent)- \(pick(goodScalars, badScalars))")
                case 2:
                    lines.append("")
                case 3:
                    lines.append("\(indent)\(key):")
                    let inner = indent + String(repeating: " ", count: random.next(3) * 2)
                    for _ in 0..<(1 + random.next(3)) {
                        lines.append(
                            random.next(2) == 0
                                ? "\(inner)- \(pick(goodScalars, badScalars))"
                                : "\(inner)\(pick(goodKeys, badKeys)): \(pick(goodScalars, badScalars))")
                    }
                default:
                    lines.append("\(indent)\(key): \(pick(goodScalars, badScalars))")
                }
            }
            let yaml = lines.joined(separator: "\n") + (random.next(2) == 0 ? "\n" : "")
            if FlatYAML.parse(yaml) != nil { accepted += 1 }
            expectAgreement(yaml)
        }
        // The property means little unless the fast reader answers often.
        #expect(accepted > total / 10, "accepted \(accepted) of \(total)")
    }

    /// A small, seeded generator: the same texts on every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }
}
