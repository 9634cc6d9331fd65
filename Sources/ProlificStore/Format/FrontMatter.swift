import ProlificCore

/// A Markdown file split into its YAML front matter and its body.
///
/// ```
/// ---
/// author: ann
/// ---
/// The snippet's Markdown…
/// ```
struct FrontMatter {
    /// The YAML between the fences.
    var yaml: String
    /// The line of the file where the YAML starts (2), for positions in diagnostics.
    var yamlFirstLine: Int
    /// The Markdown after the closing fence, with line ends normalized to `\n`.
    var body: String

    /// Splits `text`; a missing or unclosed front matter is a diagnostic at `path`.
    static func split(_ text: String, path: String) throws(Diagnostic) -> FrontMatter {
        let normalized = normalize(text)
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first.map({ $0.trimmingTrailingSpaces == "---" }) == true else {
            throw Diagnostic(
                path: path, position: .start, message: "expected front matter: a first line '---', then YAML, then '---'")
        }
        lines = lines.dropFirst()
        var yamlLines: [Substring] = []
        while let line = lines.first, line.trimmingTrailingSpaces != "---" {
            yamlLines.append(line)
            lines = lines.dropFirst()
        }
        guard !lines.isEmpty else {
            throw Diagnostic(
                path: path, position: TextPosition(line: yamlLines.count + 1, column: 1),
                message: "front matter is not closed by a line '---'")
        }
        let body = lines.dropFirst().joined(separator: "\n")
        return FrontMatter(yaml: yamlLines.joined(separator: "\n"), yamlFirstLine: 2, body: trimBody(body))
    }

    /// Splits a front-matter file and opens its YAML for reading, positions counted in the whole file.
    static func fields(of text: String, path: String) throws(Diagnostics) -> (YAMLFields, FrontMatter) {
        let document: FrontMatter
        do { document = try split(text, path: path) } catch { throw Diagnostics([error]) }
        return (YAMLFields(yaml: document.yaml, path: path, firstLine: document.yamlFirstLine), document)
    }

    /// Removes a byte-order mark and turns CRLF and CR line ends into LF.
    static func normalize(_ text: String) -> String {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.contains("\r") {
            text = text.replacingCRLF()
        }
        return text
    }

    /// Blank lines around the body carry no meaning; trimming them keeps files and pages tidy.
    static func trimBody(_ body: String) -> String {
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines = lines.dropFirst() }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines = lines.dropLast() }
        return lines.joined(separator: "\n")
    }

    /// The text of a front-matter file: YAML between fences, then the body.
    static func join(yaml: String, body: String) -> String {
        let yaml = yaml.hasSuffix("\n") ? yaml : yaml + "\n"
        let body = trimBody(body)
        return "---\n" + yaml + "---\n" + (body.isEmpty ? "" : "\n" + body + "\n")
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}

extension String {
    /// `\r\n` and lone `\r` become `\n`. (`\r\n` is a single Character in Swift, so work on scalars.)
    func replacingCRLF() -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            out.append(scalar)
        }
        return String(out)
    }
}
