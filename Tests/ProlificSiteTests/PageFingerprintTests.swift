import ProlificCore
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

    func inputs(_ build: (inout PageInputs) -> Void) -> [UInt8] {
        var inputs = PageInputs()
        build(&inputs)
        return PageFingerprint.of(template: "round", inputs: inputs, theme: theme)
    }

    /// Typed inputs carry each value's type and each text's and list's length.
    @Test func inputsKeepValuesApart() {
        let all = [
            inputs { $0.add("a"); $0.add("bc") },
            inputs { $0.add("ab"); $0.add("c") },
            inputs { $0.add(Optional<String>.none) },
            inputs { $0.add(Optional("")) },
            inputs { $0.add("") },
            inputs { $0.add(1) },
            inputs { $0.add(1.0) },
            inputs { $0.add(true) },
            inputs { $0.list(2); $0.add("a"); $0.add("b") },
            inputs { $0.list(1); $0.add("a"); $0.add("b") },
            inputs { _ in },
        ]
        #expect(Set(all).count == all.count)
        #expect(inputs { $0.add("a"); $0.add("bc") } == all[0])
        // Fingerprints by inputs live apart from fingerprints by values.
        #expect(PageFingerprint.of(template: "round", values: [:], theme: theme) != inputs { _ in })
    }

    /// A page's context in its inputs changes wherever the values every page has change, and
    /// only there: the moment counts only on the pages that show it.
    @Test func aContextInItsInputsChangesWhereItsValuesDo() throws {
        let base = PageContext(
            site: .defaults(title: "Moon", baseURL: "https://moon.example/"), now: Timestamp(secondsSinceEpoch: 1_800_000_000),
            path: "projects/sea/index.html", title: "Sea", description: "A story.", section: .stories)
        func fingerprints(_ context: PageContext) throws -> ([UInt8], [UInt8]) {
            (try #require(PageFingerprint.of(template: "project", values: context.values([:]), theme: theme)),
             inputs { $0.add(context) })
        }
        let (values, described) = try fingerprints(base)
        var changes: [PageContext] = []
        for change in [
            { (c: inout PageContext) in c.site.title = "Sun" }, { $0.site.baseURL = "https://sun.example/" },
            { $0.path = "projects/sky/index.html" }, { $0.title = "Sky" }, { $0.description = "Another." },
            { $0.noindex = true }, { $0.section = .players }, { $0.section = nil }, { $0.showsMoment = true },
        ] as [(inout PageContext) -> Void] {
            var changed = base
            change(&changed)
            changes.append(changed)
        }
        for changed in changes {
            let (otherValues, otherDescribed) = try fingerprints(changed)
            #expect(otherValues != values)
            #expect(otherDescribed != described)
        }
        var later = base
        later.now = Timestamp(secondsSinceEpoch: 1_800_086_400)
        #expect(try fingerprints(later) == (values, described))
        var shown = base, shownLater = later
        shown.showsMoment = true
        shownLater.showsMoment = true
        #expect(try fingerprints(shown).1 != fingerprints(shownLater).1)
    }
}
