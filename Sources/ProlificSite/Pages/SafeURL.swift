/// Which link targets written by players may become an `href`.
enum SafeURL {
    /// `http:`, `https:` and `mailto:` URLs without spaces or control characters; anything else
    /// (`javascript:`, `data:`, relative paths that might point anywhere in the site) is shown as
    /// text instead.
    static func isExternal(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:") else { return false }
        return !url.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\"" || $0 == "<" || $0 == ">" }
    }
}
