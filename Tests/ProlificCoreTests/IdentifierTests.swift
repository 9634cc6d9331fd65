import Testing

@testable import ProlificCore

@Suite struct HandleAndSlugTests {
    static let longest = "a" + String(repeating: "b", count: 38)

    static let valid = ["a", "0", "ann", "mary-jo", "a-", "a--b", "42", "x9-y8", longest]

    static let invalid = [
        "",  // empty
        longest + "c",  // 40 characters
        "Ann", "ANN", "aNn",  // upper case
        "-ann", "-",  // leading '-'
        "ann.b", ".", "..", ".ann",  // dots
        "ann/b", "/", "a/../b",  // slashes
        "ann_b", "ann b", " ann", "ann ", "ann\n", "ann\0",
        "\u{0430}nn",  // Cyrillic 'а'
        "\u{FF41}nn",  // full-width 'ａ'
        "ann\u{0301}",  // combining accent
        "é", "ǆ",
    ]

    @Test(arguments: valid)
    func acceptsValidNames(_ text: String) throws {
        #expect(try #require(Handle(text)).rawValue == text)
        #expect(try #require(Slug(text)).rawValue == text)
    }

    @Test(arguments: invalid)
    func rejectsInvalidNames(_ text: String) {
        #expect(Handle(text) == nil)
        #expect(Slug(text) == nil)
    }

    @Test func lengthLimitIs39() {
        #expect(Self.longest.count == 39)
        #expect(Handle(Self.longest) != nil)
        #expect(Handle(Self.longest + "c") == nil)
        #expect(Slug(String(repeating: "9", count: 39)) != nil)
        #expect(Slug(String(repeating: "9", count: 40)) == nil)
    }

    @Test func acceptsSubstrings() {
        let text = "@ann"
        #expect(Handle(text.dropFirst())?.rawValue == "ann")
        // A substring (read in place) is judged as the same text on its own.
        for name in Self.valid + Self.invalid {
            #expect(Handle(("@" + name + "@").dropFirst().dropLast())?.rawValue == Handle(name)?.rawValue, "\(name.debugDescription)")
            #expect(Slug(("x" + name).dropFirst())?.rawValue == Slug(name)?.rawValue, "\(name.debugDescription)")
        }
    }

    @Test func describesAndOrdersByRawValue() {
        #expect(Make.handle("ann").description == "ann")
        #expect(Make.slug("the-moon").description == "the-moon")
        #expect([Make.handle("bob"), Make.handle("ann"), Make.handle("a-b")].sorted().map(\.rawValue) == ["a-b", "ann", "bob"])
        #expect(Make.slug("a") < Make.slug("b"))
    }
}

@Suite struct SubmissionIDTests {
    @Test func parsesAuthorAndTime() throws {
        let id = try #require(SubmissionID("ann-20261102101500"))
        #expect(id.author == Make.handle("ann"))
        #expect(id.time == Make.time("2026-11-02T10:15:00Z"))
    }

    @Test func parsesHyphenatedHandles() throws {
        let id = try #require(SubmissionID("mary-jo-20261102101500"))
        #expect(id.author.rawValue == "mary-jo")
        #expect(id.time == Make.time("2026-11-02T10:15:00Z"))
        let digits = try #require(SubmissionID("42-20261102101500"))
        #expect(digits.author.rawValue == "42")
    }

    @Test(arguments: [
        "ann-20261302101500",  // month 13
        "ann-20260230101500",  // Feb 30
        "ann-20260229101500",  // Feb 29 in a common year
        "ann-20260100101500",  // day 0
        "ann-20261102241500",  // hour 24
        "ann-20261102106000",  // minute 60
        "ann-20261102101560",  // second 60
        "ann-19691231235959",  // before 1970
        "ann-2026110210150",  // 13 digits
        "ann-202611021015000",  // 15 digits
        "ann-2026110210150x",
        "ann-2026-11-02T10:15:00Z",
        "ann20261102101500",  // no dash
        "-20261102101500",  // no author
        "Ann-20261102101500",  // upper case author
        "ann.b-20261102101500",
        "ann-",
        "",
        "ann-20261102101500.md",
        "ann-\u{301}20261102101500",  // a combining mark on the dash
        "ann\u{301}-20261102101500",
        "ann-20261102101500\u{301}",
    ])
    func rejects(_ text: String) {
        #expect(SubmissionID(text) == nil)
        // A substring is parsed in place (`SubmissionID.init(_: Substring)`), as its own text.
        #expect(SubmissionID(("@" + text + "@").dropFirst().dropLast()) == nil)
    }

    @Test(arguments: ["ann-20261102101500", "mary-jo-20280229235959", "a-19700101000000", "b--99991231235959"])
    func roundTripsRawValue(_ text: String) throws {
        let id = try #require(SubmissionID(text))
        #expect(id.rawValue == text)
        #expect(id.description == text)
        #expect(SubmissionID(id.rawValue) == id)
        #expect(SubmissionID(("@" + text + "@").dropFirst().dropLast()) == id)
    }

    @Test func buildsFromAuthorAndTime() {
        let id = SubmissionID(author: Make.handle("bob"), time: Make.time("2026-01-02T03:04:05Z"))
        #expect(id.rawValue == "bob-20260102030405")
    }

    @Test func ordersByRawValue() {
        let a = Make.id("ann", "2026-11-03T00:00:00Z")
        let b = Make.id("bob", "2026-11-01T00:00:00Z")
        let c = Make.id("ann", "2026-11-04T00:00:00Z")
        #expect([b, c, a].sorted() == [a, c, b])
    }

    /// `<` compares without spelling the ids out; it must still give their spelled-out order,
    /// also where one handle begins with another (`a` and `a-0`: the dash meets a digit) and for
    /// times whose year has more or fewer than four digits.
    @Test func orderIsTheOrderOfTheRawValues() {
        let handles = ["a", "a-0", "a-b", "a0", "ab", "b", "a-2", "a-20", "z-9"].map(Make.handle)
        let seconds: [Int64] = [
            -62_200_000_000, -1, 0, 86_399, 1_795_352_400, 1_795_352_401, 253_402_300_799, 253_402_300_800, 400_000_000_000,
        ]
        let ids = handles.flatMap { h in seconds.map { SubmissionID(author: h, time: Timestamp(secondsSinceEpoch: $0)) } }
        for x in ids {
            for y in ids {
                #expect((x < y) == (x.rawValue < y.rawValue), "\(x.rawValue) < \(y.rawValue)")
            }
        }
    }
}

@Suite struct RoundNumberTests {
    @Test(arguments: [("0001", 1), ("0042", 42), ("0100", 100), ("9999", 9999)])
    func parsesFolderNames(_ name: String, _ value: Int) throws {
        let number = try #require(RoundNumber(folderName: name))
        #expect(number.value == value)
        #expect(number.folderName == name)
    }

    @Test(arguments: ["0000", "1", "01", "001", "00a1", "10000", "", "+001", "-001", " 001", "0001 ", "٠٠٠١"])
    func rejectsFolderNames(_ name: String) {
        #expect(RoundNumber(folderName: name) == nil)
    }

    @Test func rangeIsOneTo9999() {
        #expect(RoundNumber(0) == nil)
        #expect(RoundNumber(-1) == nil)
        #expect(RoundNumber(10_000) == nil)
        #expect(RoundNumber(1) == RoundNumber.first)
        #expect(RoundNumber(9999)?.value == RoundNumber.maximum)
    }

    @Test func nextAndDescription() {
        #expect(Make.number(1).next == Make.number(2))
        #expect(Make.number(9999).next == nil)
        #expect(Make.number(7).description == "7")
        #expect(Make.number(7).folderName == "0007")
        #expect(Make.number(2) < Make.number(10))
    }
}
