import ProlificCore

/// `rounds/NNNN/votes/<voter>.yml`: `voter`, `cast`, `for` (the approved submission ids).
enum BallotFile {
    static func parse(_ text: String, path: String, voter: Handle) throws(Diagnostics) -> Ballot {
        if let ballot = parseWritten(text, path: path, voter: voter) { return ballot }
        return try parseYAML(text, path: path, voter: voter)
    }

    /// The general reader: any YAML, every problem reported at its line and column.
    static func parseYAML(_ text: String, path: String, voter: Handle) throws(Diagnostics) -> Ballot {
        var fields = YAMLFields(yaml: FrontMatter.normalize(text), path: path)
        let named = fields.handle("voter")
        let cast = fields.timestamp("cast")
        let choices = fields.list("for", required: true, expected: "a submission id: \(SubmissionID.rule)") {
            SubmissionID($0)
        }
        fields.finish()
        if let named, named != voter {
            fields.report("voter '\(named)' does not match the file name '\(voter).yml'", at: "voter")
        }
        guard fields.isValid, let cast, let choices else { throw Diagnostics(fields.diagnostics) }
        return Ballot(voter: voter, cast: cast, choices: choices, origin: fields.origin)
    }

    static func render(_ ballot: Ballot) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.text("voter", ballot.voter.rawValue)
        yaml.plain("cast", ballot.cast)
        yaml.texts("for", ballot.choices.map(\.rawValue))
        return try yaml.yaml()
    }

    /// The ballot, when `text` is exactly in the shape `render` writes and every value in it is
    /// valid; nil for anything else, which `parseYAML` reads (and reports on).
    ///
    /// Ballots are most of the content's files (180,000 on the large benchmark) and nearly all
    /// come from `prolific vote`, or are the same few lines written by hand: reading those lines
    /// directly costs a fraction of building a YAML tree for them. The result is the one
    /// `parseYAML` gives, positions included (a test compares the two).
    static func parseWritten(_ text: String, path: String, voter: Handle) -> Ballot? {
        var text = text
        return text.withUTF8 { bytes -> Ballot? in
            var lines = WrittenLines(bytes: bytes)
            guard let named = lines.value(after: "voter: ").flatMap(Handle.init), named == voter,
                let cast = lines.value(after: "cast: ").flatMap({ Timestamp(iso8601: $0) }), lines.skip("for:\n")
            else { return nil }
            var choices: [SubmissionID] = []
            while !lines.isAtEnd {
                guard let choice = lines.value(after: "- ").flatMap(SubmissionID.init) else { return nil }
                choices.append(choice)
            }
            guard !choices.isEmpty else { return nil }
            // Made once the choices are counted, in one array of the right length.
            var positions = Positions()
            positions.reserveCapacity(3 + choices.count)
            positions["voter"] = TextPosition(line: 1, column: 8)
            positions["cast"] = TextPosition(line: 2, column: 7)
            positions["for"] = TextPosition(line: 4, column: 1)
            for i in choices.indices { positions["for.\(i)"] = TextPosition(line: 4 + i, column: 3) }
            return Ballot(voter: voter, cast: cast, choices: choices, origin: Origin(path: path, positions: positions))
        }
    }
}

/// The lines of a file in the one shape a writer gives it, read from the start.
struct WrittenLines {
    let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// Moves past `literal` if the text goes on with it.
    mutating func skip(_ literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes.count - offset >= expected.count,
            UnsafeBufferPointer(rebasing: bytes[offset..<(offset + expected.count)]).elementsEqual(expected)
        else { return false }
        offset += expected.count
        return true
    }

    /// The rest of the line after `prefix`, moving past the line, when it is a plain word YAML
    /// reads as that text: letters, digits and `-:._`, starting with a letter or digit, not a
    /// null (`null`, `Null`, `NULL`), the line ended by `\n`.
    mutating func value(after prefix: StaticString) -> Substring? {
        let start = offset
        guard skip(prefix) else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") {
            guard Self.isWordByte(bytes[end]) else {
                offset = start
                return nil
            }
            end += 1
        }
        guard end < bytes.count, end > offset, Self.isLetterOrDigit(bytes[offset]) else {
            offset = start
            return nil
        }
        let word = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        guard word != "null", word != "Null", word != "NULL" else {
            offset = start
            return nil
        }
        offset = end + 1
        return word
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_")
    }
}
