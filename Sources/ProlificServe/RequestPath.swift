import Foundation

/// What a request's path asks for, decided from its text alone, before the disk is touched.
///
/// The raw, still percent-encoded path is judged rather than the server's tidied one, so that
/// `..`, `%2e%2e`, `%2f` and NUL are refused instead of being quietly normalised into some other
/// file: a path that tries to climb out is a bad request, not a lookup.
enum RequestPath: Equatable {
    /// A file inside the site, as path components; a path ending in `/` asks for its `index.html`.
    case file([String])
    /// The live-reload endpoint, which answers with the current build token.
    case buildToken
    /// A path that no file of the site could have: traversal, NUL, an encoded slash, bad encoding.
    case invalid

    /// The live-reload endpoint; `__` keeps it apart from every path the site writes.
    static let buildTokenPath = "/__prolific/build"

    init(raw: String) {
        if raw == Self.buildTokenPath {
            self = .buildToken
            return
        }
        guard raw.hasPrefix("/") else {
            self = .invalid
            return
        }
        var components: [String] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            guard let name = String(part).removingPercentEncoding, Self.isPlainName(name) else {
                self = .invalid
                return
            }
            components.append(name)
        }
        if raw.hasSuffix("/") { components.append("index.html") }
        self = .file(components)
    }

    /// A single file or folder name: not `.` or `..`, no slash or backslash, no NUL.
    static func isPlainName(_ name: String) -> Bool {
        name != "." && name != ".." && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }
}
