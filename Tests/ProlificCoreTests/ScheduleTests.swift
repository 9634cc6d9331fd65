import Testing

@testable import ProlificCore

@Suite struct ScheduleTests {
    let round = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-09T00:00:00Z")

    @Test func dueAtAndAfterTheDeadline() {
        let project = Make.project(rounds: [round])
        #expect(!Schedule.isDue(project, now: Make.time("2026-11-08T23:59:59Z")))
        #expect(Schedule.isDue(project, now: Make.time("2026-11-09T00:00:00Z")))
        #expect(Schedule.isDue(project, now: Make.time("2027-01-01T00:00:00Z")))
        #expect(!Schedule.isDue(Make.project(), now: Make.time("2027-01-01T00:00:00Z")))
    }

    @Test func dueProjectsInSlugOrder() {
        let later = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-12-01T00:00:00Z", slug: "late")
        let projects = [
            Make.project("sun", rounds: [round]), Make.project("late", rounds: [later]), Make.project("moon", rounds: [round]),
        ]
        #expect(Schedule.dueProjects(projects, now: Make.time("2026-11-10T00:00:00Z")).map(\.slug.rawValue) == ["moon", "sun"])
    }

    @Test func progressRunsFromZeroToOne() {
        #expect(Schedule.progress(of: round, now: Make.time("2026-10-01T00:00:00Z")) == 0)
        #expect(Schedule.progress(of: round, now: Make.time("2026-11-01T00:00:00Z")) == 0)
        #expect(Schedule.progress(of: round, now: Make.time("2026-11-03T00:00:00Z")) == 0.25)
        #expect(Schedule.progress(of: round, now: Make.time("2026-11-09T00:00:00Z")) == 1)
        #expect(Schedule.progress(of: round, now: Make.time("2027-01-01T00:00:00Z")) == 1)
        let empty = Make.round(1, opened: "2026-11-01T00:00:00Z", closes: "2026-11-01T00:00:00Z")
        #expect(Schedule.progress(of: empty, now: Make.time("2026-10-01T00:00:00Z")) == 1)
    }
}

@Suite struct TextRulesTests {
    @Test func oneLineTexts() {
        #expect(TextRules.problem(withLine: "Ann", named: "name", limit: 10) == nil)
        #expect(TextRules.problem(withLine: "Zoë 🌙", named: "name", limit: 5) == nil)
        #expect(TextRules.problem(withLine: "", named: "name", limit: 10) == "the name must not be empty")
        #expect(TextRules.problem(withLine: " \t ", named: "name", limit: 10) == "the name must not be empty")
        #expect(TextRules.problem(withLine: "abcdefghijk", named: "title", limit: 10) == "the title is 11 characters; at most 10")
        #expect(TextRules.problem(withLine: "a\nb", named: "name", limit: 10) == "the name must be one line without control characters")
        #expect(TextRules.problem(withLine: "a\u{7F}", named: "name", limit: 10) == "the name must be one line without control characters")
    }

    @Test func bodies() {
        #expect(TextRules.problem(withBody: "Text", named: "snippet", limit: 10) == nil)
        #expect(TextRules.problem(withBody: " \n\t", named: "snippet", limit: 10) == "the snippet is empty")
        #expect(TextRules.problem(withBody: "", named: "bio", limit: 10, mayBeEmpty: true) == nil)
        // The limit is in bytes: 'ü' is two.
        #expect(TextRules.problem(withBody: "üüüüüü", named: "snippet", limit: 10) == "the snippet is 12 bytes; at most 10")
        #expect(TextRules.problem(withBody: "a\0b", named: "snippet", limit: 10) == "the snippet contains a NUL character")
    }

    /// The byte scans for control characters and NUL answer as the scalar scans they replaced,
    /// on texts mixing ASCII controls with two-, three- and four-byte characters.
    @Test func byteScansAgreeWithScalarScans() {
        let pieces = ["a", " ", "\0", "\n", "\t", "\u{7F}", "\u{80}", "é", "\u{2028}", "漢", "🌙", "\u{1F}", "\r\n", "e\u{301}"]
        var state: UInt64 = 0x5EED
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int(state % 9) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let control = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            #expect(TextRules.containsASCII(text, where: { $0 < 0x20 || $0 == 0x7F }) == control, "\(text.debugDescription)")
            #expect(TextRules.containsASCII(text, where: { $0 == 0 }) == text.unicodeScalars.contains("\0"), "\(text.debugDescription)")
            let sub = text.dropFirst()
            #expect(TextRules.containsASCII(String(sub), where: { $0 == 0 }) == sub.unicodeScalars.contains("\0"))
        }
    }

    @Test func tags() {
        #expect(TextRules.problem(withTag: "space") == nil)
        #expect(TextRules.problem(withTag: String(repeating: "x", count: 41)) == "the tag '\(String(repeating: "x", count: 41))' is 41 characters; at most 40")
    }
}
