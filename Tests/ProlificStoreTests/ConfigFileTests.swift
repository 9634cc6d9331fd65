import ProlificCore
import Testing

@testable import ProlificStore

@Suite struct ConfigFileTests {
    func parse(_ text: String) throws(Diagnostics) -> Config {
        try ConfigFile.parse(text, path: "Content/prolific.yml")
    }

    func errors(_ text: String) -> [String]? { thrown { () throws(Diagnostics) in try parse(text) } }

    @Test func parsesAllSettings() throws {
        let config = try parse(
            """
            title: Prolific Demo
            base-url: https://example.org/stories
            defaults:
              round-length: 1d12h
              rounds: 4

            """)
        #expect(config.title == "Prolific Demo")
        #expect(config.baseURL == "https://example.org/stories/")
        #expect(config.roundLength == Make.span("36h"))
        #expect(config.rounds == 4)
        #expect(config.origin.path == "Content/prolific.yml")
        #expect(config.origin.position(of: "defaults.rounds") == TextPosition(line: 5, column: 11))
    }

    @Test func defaultsAreOptional() throws {
        let config = try parse("\u{FEFF}title: T\r\nbase-url: http://localhost:8000/\r\n")
        #expect(config.baseURL == "http://localhost:8000/")
        #expect(config.roundLength == Make.span("7d"))
        #expect(config.rounds == 10)
    }

    @Test func unknownKeys() {
        #expect(
            errors("title: T\nbase-url: https://x.org/\ncolour: red\ndefaults:\n  round-lenght: 7d\n")
                == [
                    "Content/prolific.yml:5:3: error: unknown key 'round-lenght'",
                    "Content/prolific.yml:3:1: error: unknown key 'colour'",
                ])
    }

    @Test func missingRequiredKeys() {
        #expect(
            errors("defaults:\n  rounds: 3\n")
                == [
                    "Content/prolific.yml:1:1: error: missing required key 'title'",
                    "Content/prolific.yml:1:1: error: missing required key 'base-url'",
                ])
        #expect(errors("title: ~\nbase-url: https://x.org/\n") == ["Content/prolific.yml:1:1: error: missing required key 'title'"])
        #expect(errors("").map(\.count) == 2)
    }

    @Test func wrongTypes() {
        #expect(
            errors("title: [a, b]\nbase-url: https://x.org/\ndefaults: 7d\n")
                == [
                    "Content/prolific.yml:1:8: error: 'title' must be a text, found a list",
                    "Content/prolific.yml:3:11: error: 'defaults' must be keys and values, found '7d'",
                ])
        #expect(
            errors("title: T\nbase-url: https://x.org/\ndefaults:\n  rounds: 0\n  round-length: 1.5d\n")
                == [
                    "Content/prolific.yml:5:17: error: 'round-length' must be a length like 90m, 36h, 7d or 2w, found '1.5d'",
                    "Content/prolific.yml:4:11: error: 'rounds' must be a whole number from 1 to 9999, found '0'",
                ])
    }

    @Test func baseURLMustBeAbsolute() {
        #expect(
            errors("title: T\nbase-url: example.org\n")
                == [
                    "Content/prolific.yml:2:11: error: 'base-url' must be an absolute http(s) URL with a host and no spaces, quotes, angle brackets, '?' or '#', found 'example.org'"
                ])
    }

    /// The base URL goes into every page, feed and calendar: only plain URL characters.
    @Test(arguments: [
        #"'https://x.org/"><script>alert(1)</script>'"#, #"'https://x.org/ onmouseover=alert(1)'"#,
        #"'javascript:alert(1)//https://'"#, #"https://"#, #"'https:///path'"#, #"'https://x.org/?q=1'"#,
        #"'https://x.org/#top'"#, #""https://x.org/\0""#, #"'https://x.org/a''b'"#, #""https://x.org/\u202Eevil""#,
        #"'https://x.org/a`b'"#, #"'https://x.org/{a}'"#, #"'https://x.org/<b>'"#, #""https://x.org/\tb""#,
    ])
    func baseURLRefusesWhatWouldNeedEscaping(_ value: String) {
        let problems = errors("title: T\nbase-url: \(value)\n") ?? []
        #expect(problems.count == 1 && problems.first?.contains("error: 'base-url' must be an absolute http(s) URL") == true, "\(problems)")
    }

    @Test func theTitleIsOneLineOfAtMostTwoHundredCharacters() {
        #expect(
            errors("title: \(String(repeating: "x", count: 201))\nbase-url: https://x.org/\n")
                == ["Content/prolific.yml:1:8: error: the title is 201 characters; at most 200"])
        #expect(
            errors("title: \"a\\u001Bb\"\nbase-url: https://x.org/\n")
                == ["Content/prolific.yml:1:8: error: the title must be one line without control characters"])
    }

    @Test func baseURLTakesPortsUserinfoAndSubDelimiters() throws {
        #expect(try parse("title: T\nbase-url: https://a.example:8443/~me/x%20y/(1)*;=,+!$&@/\n").baseURL == "https://a.example:8443/~me/x%20y/(1)*;=,+!$&@/")
    }

    @Test func notAMapping() {
        #expect(
            errors("- title\n- base-url\n")
                == ["Content/prolific.yml:1:1: error: expected keys and values ('key: value'), found a list"])
    }

    @Test func duplicateKey() {
        #expect(
            errors("title: A\nbase-url: https://x.org/\ntitle: B\n")
                == ["Content/prolific.yml:1:1: error: invalid YAML: duplicate key 'title'"])
    }

    @Test func invalidYAML() {
        #expect(
            errors("title: [unclosed\nbase-url: https://x.org/\n")
                == ["Content/prolific.yml:2:9: error: invalid YAML: did not find expected ',' or ']'"])
    }

    @Test(arguments: ["yes", "null", "123", "a: b", "~", "- item", "#hash", "Prolific — Über Geschichten 🌙", "  padded  ", "'quoted'"])
    func roundTrips(_ title: String) throws {
        let config = Config(title: title, baseURL: "https://example.org/x/", roundLength: Make.span("36h"), rounds: 4)
        let text = try ConfigFile.render(config)
        let back = try parse(text)
        #expect(back.title == title)
        #expect(back.baseURL == config.baseURL)
        #expect(back.roundLength == config.roundLength)
        #expect(back.rounds == config.rounds)
        #expect(try ConfigFile.render(back) == text)
    }

    @Test func rendersReadableYAML() throws {
        #expect(
            try ConfigFile.render(Config.defaults(title: "Demo"))
                == "title: Demo\nbase-url: https://example.org/\ndefaults:\n  round-length: 7d\n  rounds: 10\n")
    }
}

@Suite struct ConfigBadgesTests {
    @Test func badgesInTheConfigReplaceTheDefaults() throws {
        let text = """
            title: T
            base-url: https://example.org/
            badges:
              - id: wordsmith
                name: Wordsmith
                counts: snippets
                tiers: [2, 4]
            maintainers: [Keeper@Example.org]
            """
        let config = try ConfigFile.parse(text, path: "prolific.yml")
        #expect(config.badges.map(\.name) == ["Wordsmith"])
        #expect(config.badges[0].tiers == [Badge.Tier(name: "bronze", threshold: 2), Badge.Tier(name: "silver", threshold: 4)])
        #expect(config.maintainers == ["Keeper@Example.org"])
        #expect(try ConfigFile.parse(try ConfigFile.render(config), path: "prolific.yml").maintainers == config.maintainers)
    }

    @Test func badBadges() {
        func errors(_ badges: String) -> [String] {
            do {
                _ = try ConfigFile.parse("title: T\nbase-url: https://example.org/\nbadges:\n" + badges, path: "prolific.yml")
                return []
            } catch {
                return error.all.map(\.description)
            }
        }
        #expect(errors("  - {id: x, name: X, counts: likes, tiers: [1]}\n") == [
            "prolific.yml:4:30: error: 'counts' must be one of snippets, wins, projects, ballots, karma, found 'likes'"
        ])
        #expect(errors("  - {id: x, name: X, counts: wins, tiers: [5, 1]}\n") == [
            "prolific.yml:4:43: error: 'tiers' must be 1 to 3 rising thresholds (bronze, silver, gold)"
        ])
        #expect(
            errors("  - {id: x, name: X, counts: wins, tiers: [1]}\n  - {id: x, name: Y, counts: wins, tiers: [1]}\n")
                == ["prolific.yml:4:3: error: two badges share an id"])
    }
}
