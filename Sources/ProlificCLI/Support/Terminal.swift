import ArgumentParser
import Foundation
import ProlificCore
import ProlificStore

/// Printing and failing, the same way in every command.
package enum Terminal {
    package static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Runs `body`; on failure prints every diagnostic to standard error and exits with 1.
    package static func guarded<T>(_ body: () throws -> T) throws -> T {
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
        let bytes: [UInt8]
        if let file, file != "-" {
            bytes = try readFile(file, option: "--file", limit: textLimit)
        } else {
            if isatty(FileHandle.standardInput.fileDescriptor) != 0 {
                error("Reading the \(what) from standard input; end it with Ctrl-D.")
            }
            bytes = try readAll(FileHandle.standardInput.fileDescriptor, name: "standard input", limit: textLimit)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Diagnostics([.plain("the \(what) in '\(file ?? "standard input")' is not valid UTF-8 text")])
        }
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// The most text read from `--file` or standard input: more than any text a command takes
    /// (the action then says its own limit), far less than would exhaust memory.
    static let textLimit = FileSystem.maximumFileSize

    /// The bytes of the file an option names, at most `limit`. A bigger file, or an endless one
    /// such as `/dev/zero` or a pipe that never closes, is refused with `tooBig` once `limit`
    /// bytes are read, rather than read whole into memory.
    static func readFile(_ path: String, option: String, limit: Int, tooBig: String? = nil) throws(Diagnostics) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Diagnostics([.plain("cannot read \(option) '\(path)': \(String(cString: strerror(errno)))")])
        }
        defer { close(fd) }
        return try readAll(fd, name: "\(option) '\(path)'", limit: limit, tooBig: tooBig)
    }

    /// Reads `fd` to its end; more than `limit` bytes is an error.
    static func readAll(_ fd: Int32, name: String, limit: Int, tooBig: String? = nil) throws(Diagnostics) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Diagnostics([.plain("cannot read \(name): \(String(cString: strerror(errno)))")]) }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw Diagnostics([.plain("\(name) is more than \(limit >> 20) MiB; \(tooBig ?? "no text a command takes is that long")")])
            }
            bytes += chunk[..<n]
        }
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
