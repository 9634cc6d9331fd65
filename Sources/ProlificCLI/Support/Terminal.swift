import ArgumentParser
import Foundation
import ProlificCore

/// Printing and failing, the same way in every command.
enum Terminal {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Runs `body`; on failure prints every diagnostic to standard error and exits with 1.
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let diagnostics as Diagnostics {
            for diagnostic in diagnostics.all { error(diagnostic.description) }
            throw ExitCode.failure
        } catch let diagnostic as Diagnostic {
            error(diagnostic.description)
            throw ExitCode.failure
        }
    }

    /// Markdown from `--file F` (`-` for standard input) or, without it, from standard input.
    static func readText(file: String?, what: String) throws -> String {
        let data: Data
        if let file, file != "-" {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw Diagnostics([.plain("cannot read --file '\(file)'")])
            }
            data = contents
        } else {
            if isatty(FileHandle.standardInput.fileDescriptor) != 0 {
                error("Reading the \(what) from standard input; end it with Ctrl-D.")
            }
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
            throw Diagnostics([.plain("the \(what) in '\(file ?? "standard input")' is not valid UTF-8 text")])
        }
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `value` as pretty-printed JSON, with sorted keys, and empty lists and objects as `[]` and `{}`.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return compactingEmpty(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Foundation's pretty printer writes an empty array as `[`, a blank line and `]` (an object the
    /// same): this makes it `[]`. A line break never occurs inside a JSON string (it is `\n` there),
    /// so a bracket, a line break and only spaces up to the closing bracket is always an empty container.
    static func compactingEmpty(_ json: String) -> String {
        json.replacing(#/\[\n[ ]*\n[ ]*\]/#, with: "[]").replacing(#/\{\n[ ]*\n[ ]*\}/#, with: "{}")
    }
}
