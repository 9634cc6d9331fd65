import ProlificCore

/// `prolific.yml`: the site's title, its base URL, and the defaults for new projects.
///
/// ```yaml
/// title: Prolific Demo
/// base-url: https://example.org/
/// defaults:
///   round-length: 7d
///   rounds: 10
/// maintainers: [keeper@example.org]
/// ```
enum ConfigFile {
    static func parse(_ text: String, path: String) throws(Diagnostics) -> Config {
        var fields = YAMLFields(yaml: FrontMatter.normalize(text), path: path)
        let title = fields.string("title")
        let baseURL = fields.string("base-url")
        var length: TimeSpan? = nil
        var rounds: Int? = nil
        if var defaults = fields.mapping("defaults") {
            length = defaults.span("round-length", required: false)
            rounds = defaults.integer("rounds", in: Config.roundLimitRange, required: false)
            defaults.finish()
            fields.absorb(defaults, prefix: "defaults")
        }
        let maintainers = fields.list("maintainers", expected: "a git identity (an email address)") { text -> String? in
            text.contains("@") && !text.contains(" ") ? text : nil
        } ?? []
        var badges: [Badge]? = nil
        if let entries = fields.mappings("badges") {
            badges = []
            for (index, var entry) in entries.enumerated() {
                if let badge = parseBadge(&entry) { badges?.append(badge) }
                entry.finish()
                fields.absorb(entry, prefix: "badges.\(index)")
            }
        }
        if let badges, Set(badges.map(\.id)).count != badges.count {
            fields.report("two badges share an id", at: "badges")
        }
        let former = parseFormer(&fields)
        fields.finish()
        if let title, let problem = TextRules.problem(withLine: title, named: "title", limit: TextRules.titleLimit) {
            // Every page shows the site's title: the same limits as a project's.
            fields.report(problem, at: "title")
        }
        if let baseURL, !Self.isBaseURL(baseURL) {
            fields.report(
                "'base-url' must be an absolute http(s) URL with a host and no spaces, quotes, angle brackets, '?' or '#', found '\(baseURL)'",
                at: "base-url")
        }
        guard fields.isValid, let title, let baseURL else { throw Diagnostics(fields.diagnostics) }
        let fallback = Config.defaults()
        return Config(
            title: title, baseURL: baseURL.hasSuffix("/") ? baseURL : baseURL + "/",
            roundLength: length ?? fallback.roundLength, rounds: rounds ?? fallback.rounds, maintainers: maintainers,
            badges: badges ?? Badge.defaults, former: former, origin: fields.origin)
    }

    /// The characters a base URL may have past its scheme: those of a URL's host and path
    /// (RFC 3986), but no quotes, no query and no fragment. It goes into every page, feed and
    /// calendar; the site escapes it too, but a value that needs escaping is a mistake anyway.
    static let baseURLCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/%@!$&()*+,;=".utf8)

    /// `http(s)://host[:port][/path]`, in plain URL characters.
    static func isBaseURL(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return false
        }
        guard let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first, !host.isEmpty,
            !host.hasPrefix(":"), !host.hasPrefix("@")
        else { return false }
        return rest.utf8.allSatisfy { baseURLCharacters.contains($0) }
    }

    /// `{id, name, description, counts, tiers: [bronze, silver, gold]}`.
    static func parseBadge(_ fields: inout YAMLFields) -> Badge? {
        let id = fields.string("id").flatMap { text -> Slug? in
            guard let slug = Slug(text) else {
                fields.report("'id' must be \(Slug.rule), found '\(text)'", at: "id")
                return nil
            }
            return slug
        }
        let name = fields.string("name")
        let description = fields.string("description", required: false) ?? ""
        let measure = fields.string("counts").flatMap { text -> Badge.Measure? in
            guard let measure = Badge.Measure(rawValue: text) else {
                let known = Badge.Measure.allCases.map(\.rawValue).joined(separator: ", ")
                fields.report("'counts' must be one of \(known), found '\(text)'", at: "counts")
                return nil
            }
            return measure
        }
        let thresholds = fields.list("tiers", required: true, expected: "a whole number from 1") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        if let thresholds, thresholds.isEmpty || thresholds.count > Badge.tierNames.count || thresholds != thresholds.sorted()
            || Set(thresholds).count != thresholds.count
        {
            fields.report("'tiers' must be 1 to \(Badge.tierNames.count) rising thresholds (bronze, silver, gold)", at: "tiers")
            return nil
        }
        guard let id, let name, let measure, let thresholds else { return nil }
        return Badge(
            id: id, name: name, description: description, measure: measure,
            tiers: zip(Badge.tierNames, thresholds).map { Badge.Tier(name: $0, threshold: $1) })
    }

    static func render(_ config: Config) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("title", config.title)
        yaml.text("base-url", config.baseURL)
        var defaults = YAMLWriter()
        defaults.plain("round-length", config.roundLength)
        defaults.plain("rounds", config.rounds)
        yaml.node("defaults", defaults.mapping)
        if !config.maintainers.isEmpty { yaml.texts("maintainers", config.maintainers) }
        if !config.former.isEmpty { yaml.node("former", formerNode(config.former)) }
        return try yaml.yaml()
    }
}
