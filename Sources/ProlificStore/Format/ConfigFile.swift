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
        fields.finish()
        if let baseURL, !(baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")) {
            fields.report("'base-url' must be an absolute http(s) URL, found '\(baseURL)'", at: "base-url")
        }
        guard fields.isValid, let title, let baseURL else { throw Diagnostics(fields.diagnostics) }
        let fallback = Config.defaults()
        return Config(
            title: title, baseURL: baseURL.hasSuffix("/") ? baseURL : baseURL + "/",
            roundLength: length ?? fallback.roundLength, rounds: rounds ?? fallback.rounds, maintainers: maintainers,
            origin: fields.origin)
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
        return try yaml.yaml()
    }
}
