#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
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
    /// The line of the file where `body` starts, so a rule about the body can point into it.
    var bodyFirstLine: Int = 1

    /// Splits `text`; a missing or unclosed front matter is a diagnostic at `path`.
    ///
    /// Works on UTF-8 bytes: this runs once per content file, tens of thousands of times a build.
    static func split(_ text: String, path: String) throws(Diagnostic) -> FrontMatter {
        let bytes = Array(normalize(text).utf8)
        let newline = UInt8(ascii: "\n")
        func lineEnd(_ start: Int) -> Int {
            var i = start
            while i < bytes.count && bytes[i] != newline { i += 1 }
            return i
        }
        func isFence(_ start: Int, _ end: Int) -> Bool {
            var e = end
            while e > start && (bytes[e - 1] == UInt8(ascii: " ") || bytes[e - 1] == UInt8(ascii: "\t")) { e -= 1 }
            return e - start == 3 && bytes[start] == UInt8(ascii: "-") && bytes[start + 1] == UInt8(ascii: "-")
                && bytes[start + 2] == UInt8(ascii: "-")
        }
        let firstEnd = lineEnd(0)
        guard isFence(0, firstEnd) else {
            throw Diagnostic(
                path: path, position: .start, message: "expected front matter: a first line '---', then YAML, then '---'")
        }
        let yamlStart = min(firstEnd + 1, bytes.count)
        var lineStart = yamlStart
        var lines = 0
        while lineStart < bytes.count {
            let end = lineEnd(lineStart)
            if isFence(lineStart, end) {
                let yaml = String(decoding: bytes[yamlStart..<max(yamlStart, lineStart - 1)], as: UTF8.self)
                let bodyStart = min(end + 1, bytes.count)
                let skipped = leadingBlankLines(bytes[bodyStart...])
                return FrontMatter(
                    yaml: yaml, yamlFirstLine: 2, body: trimBody(bytes[bodyStart...]), bodyFirstLine: lines + 3 + skipped)
            }
            lines += 1
            lineStart = end + 1
        }
        // Point at the line after the last one, where the closing '---' was expected.
        if bytes.last == newline { lines += 1 }
        throw Diagnostic(
            path: path, position: TextPosition(line: lines + 1, column: 1), message: "front matter is not closed by a line '---'")
    }

    /// How many whole blank lines `trimBody` drops at the start of `bytes`.
    static func leadingBlankLines(_ bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                count += 1
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                break
            }
        }
        return count
    }

    /// Drops blank lines (only spaces and tabs) at the start and end of a body.
    static func trimBody(_ bytes: ArraySlice<UInt8>) -> String {
        let newline = UInt8(ascii: "\n")
        func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        // Skip whole blank lines at the start.
        var i = start
        while i < bytes.endIndex {
            if bytes[i] == newline {
                start = i + 1
            } else if !isBlank(bytes[i]) {
                break
            }
            i += 1
        }
        if i == bytes.endIndex { return "" }
        // Skip whole blank lines at the end: back to the last line with content.
        var end = bytes.endIndex
        var j = bytes.endIndex - 1
        while j >= start {
            if bytes[j] == newline {
                end = j
            } else if !isBlank(bytes[j]) {
                break
            }
            j -= 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
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
        if text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst() }
        if Self.containsCarriageReturn(text) {
            text = text.replacingCRLF()
        }
        return text
    }

    /// Whether `text` holds a `\r`, found by `memchr`: every content file is asked.
    static func containsCarriageReturn(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0x0D, bytes.count) != nil
        }
        return found ?? text.utf8.contains(0x0D)
    }

    /// Blank lines around the body carry no meaning; trimming them keeps files and pages tidy.
    static func trimBody(_ body: String) -> String {
        trimBody(Array(body.utf8)[...])
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
