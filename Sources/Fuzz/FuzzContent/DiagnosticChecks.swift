import FuzzSupport
import ProlificCore

/// Where diagnostics point: `check` prints `path:line:column`, and editors and CI annotators jump there.
enum DiagnosticChecks {
    /// A failed parse says why, at the file's path, on a line the file has (or the one after its
    /// last, where an unclosed front matter's fence was expected).
    static func check(_ failure: Diagnostics, of input: ContentInput) {
        Property.require(!failure.all.isEmpty, "\(input.path) fails to parse without a diagnostic")
        let lines = lineCount(input.text)
        for diagnostic in failure.all {
            Property.require(diagnostic.path == input.path, "a diagnostic names another file: \(diagnostic)")
            guard let position = diagnostic.position else { continue }
            Property.require(
                (1...lines + 1).contains(position.line) && position.column >= 1,
                "a diagnostic points outside the file (\(lines) lines): \(diagnostic)")
        }
    }

    /// A snippet's body starts at the line its origin records (rules about the body point there).
    static func checkBodyPosition(of submission: Submission, in text: String) {
        // Positions count lines of the normalized text; on plain LF text they are the file's own.
        guard !text.utf8.contains(UInt8(ascii: "\r")), !text.utf8.starts(with: [0xEF, 0xBB, 0xBF]),
            let first = submission.body.split(separator: "\n", omittingEmptySubsequences: false).first,
            let line = submission.origin.positions["body"]?.line
        else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        Property.require(
            line >= 1 && line <= lines.count && lines[line - 1] == first,
            "the body is recorded at line \(line), but it starts with \(String(reflecting: first))")
    }

    /// Lines of `text` at most, as any reader counts them: LF, CRLF and a lone CR each end one,
    /// and so do NEL, LS and PS, which libyaml (YAML 1.1) takes as line breaks in its marks.
    static func lineCount(_ text: String) -> Int {
        var count = 1
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": if !previousCR { count += 1 }
            case "\r", "\u{85}", "\u{2028}", "\u{2029}": count += 1
            default: break
            }
            previousCR = scalar == "\r"
        }
        return count
    }
}
