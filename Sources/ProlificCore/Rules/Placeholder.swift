/// The line `prolific new submission` writes where the snippet goes, and how `check` recognises it.
///
/// A contributor who runs `new submission` gets a correctly named file to fill in and commit in a
/// pull request. The placeholder is an error for `check`, so a template committed unedited fails
/// the pull request's check instead of entering the round as a snippet.
public enum Placeholder {
    /// What marks the line; unlikely in a story, easy to search for.
    public static let marker = "TODO(prolific)"

    /// The body of a new snippet file.
    public static let snippet =
        "\(marker): replace this line with your snippet, what happens next, in Markdown. "
        + "'prolific check' fails while this line is here."

    /// The line of `body` (from 0) that holds the marker, if any.
    ///
    /// The marker is looked for among the body's UTF-8 bytes: `String.contains` compares
    /// Characters, and running it over the 100,000 snippets of a large game was an eighth of
    /// `check`'s time. A marker followed by a combining mark (which makes `)` another Character)
    /// is still found.
    public static func line(in body: String) -> Int? {
        var body = body
        return body.withUTF8 { bytes -> Int? in
            guard let offset = offset(of: markerBytes, in: bytes) else { return nil }
            return bytes[..<offset].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
    }

    private static let markerBytes = Array(marker.utf8)

    /// Where `needle` first starts in `bytes`.
    static func offset(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var start = 0
        while start <= bytes.count - needle.count {
            if bytes[start] == first, (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return start }
            start += 1
        }
        return nil
    }

    /// A snippet whose body still holds the placeholder is not a snippet yet.
    ///
    /// The problem points at the placeholder's line: the body's first line is the origin's `body`
    /// position (the start of the file when it is unknown).
    public static func problems(of submission: Submission) -> [Diagnostic] {
        guard let line = line(in: submission.body) else { return [] }
        let origin = submission.origin
        let start = origin.positions["body"]?.line ?? 1
        return [
            Diagnostic(
                path: origin.path, position: TextPosition(line: start + line, column: 1),
                message: "the snippet is still the placeholder of 'prolific new submission'; "
                    + "replace the line '\(marker): …' with your snippet")
        ]
    }
}
