import Testing

@testable import ProlificSite

@Suite struct PageFingerprintTests {
    let theme: [UInt8] = Array(repeating: 7, count: 32)

    func fingerprint(_ values: [String: Any], template: String = "round", theme: [UInt8]? = nil) -> [UInt8]? {
        PageFingerprint.of(template: template, values: values, theme: theme ?? self.theme)
    }

    var page: [String: Any] {
        [
            "title": "Round 3", "number": 3, "open": false, "score": 1.5,
            "site": ["title": "Moon", "base": "/"] as [String: String],
            "votes": [["voter": "ann", "weight": 2], ["voter": "bo", "weight": 1]] as [[String: Any]],
            "tags": ["sea", "night"], "winner": ["html": String(repeating: "<p>long text</p>", count: 1_000)] as [String: Any],
            "seal": Optional<String>.none as Any,
        ]
    }

    @Test func theSameValuesGiveTheSameFingerprintWhateverTheirOrder() throws {
        let first = try #require(fingerprint(page))
        #expect(first.count == 16)
        var rebuilt: [String: Any] = [:]
        for (key, value) in page.reversed() { rebuilt[key] = value }
        #expect(fingerprint(rebuilt) == first)
    }

    /// Every change a page could render differently for changes the fingerprint.
    @Test func anyChangeOfTemplateThemeOrValueChangesIt() throws {
        let base = try #require(fingerprint(page))
        var changes: [[String: Any]] = []
        for (key, value) in [
            ("title", "Round 4"), ("number", 4), ("open", true), ("score", 1.25), ("tags", ["sea"]), ("extra", ""),
        ] as [(String, Any)] {
            var changed = page
            changed[key] = value
            changes.append(changed)
        }
        var deep = page
        deep["votes"] = [["voter": "ann", "weight": 2], ["voter": "bo", "weight": 2]] as [[String: Any]]
        changes.append(deep)
        var html = page
        html["winner"] = ["html": String(repeating: "<p>long text</p>", count: 1_000) + "."] as [String: Any]
        changes.append(html)
        var site = page
        site["site"] = ["title": "Moon", "base": "/x/"] as [String: String]
        changes.append(site)
        var seal = page
        seal["seal"] = Optional("abc") as Any
        changes.append(seal)
        // A string's bytes, not its characters: a decomposed é is another page.
        var accent = page
        accent["title"] = "Caf\u{E9}"
        var decomposed = page
        decomposed["title"] = "Cafe\u{301}"
        changes += [accent, decomposed]
        let all = try changes.map { try #require(fingerprint($0)) }
        #expect(Set(all + [base]).count == all.count + 1)
        #expect(fingerprint(page, template: "user") != base)
        #expect(fingerprint(page, theme: Array(repeating: 8, count: 32)) != base)
    }

    /// A string and a list that would write the same bytes without their lengths differ.
    @Test func lengthsKeepValuesApart() {
        #expect(fingerprint(["a": "bc", "d": ""]) != fingerprint(["a": "b", "d": "c"]))
        #expect(fingerprint(["a": ["x", "y"]]) != fingerprint(["a": ["xy"]]))
    }

    /// A value with no fixed order or of a shape pages don't use gives no fingerprint: the page
    /// is always rendered.
    @Test func unorderedOrUnknownValuesGiveNone() {
        struct Custom { var name = "x" }
        #expect(fingerprint(["tags": Set(["a", "b"])]) == nil)
        #expect(fingerprint(["thing": Custom()]) == nil)
        #expect(fingerprint(["list": [Custom()]]) == nil)
    }
}
