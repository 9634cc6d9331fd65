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
    public static func line(in body: String) -> Int? {
        guard body.contains(marker) else { return nil }
        for (index, line) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains(marker) {
            return index
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
