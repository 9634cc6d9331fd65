/// A line and column in a text file, both from 1.
public struct TextPosition: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let start = TextPosition(line: 1, column: 1)

    public static func < (a: TextPosition, b: TextPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// Where a loaded value came from: its file, and the position of each of its keys.
///
/// Rules in the core report problems against an origin, so `check` can point at the exact line of a
/// bad ballot choice without the core ever touching a file.
public struct Origin: Hashable, Sendable {
    /// The file's path as it should be shown to the user (relative to where the command ran).
    public var path: String {
        get {
            switch file {
            case .path(let path): path
            case .named(let folder, let name, let suffix): folder + "/" + name + suffix
            case .snippet(let folder, let id): folder + "/" + id.rawValue + ".md"
            }
        }
        set { file = .path(newValue) }
    }
    /// Positions of keys (`"author"`) and of list items (`"for.2"`) inside the file.
    public var positions: Positions

    /// The path, or its parts, joined only when it is read: a rebuild decodes the origins of
    /// 300,000 kept snippets and ballots (`ProjectCodec`), whose paths only a diagnostic ever
    /// reads, and joining each one was a quarter of that decoding. The folder is one string
    /// every file in it shares; the name is a string or an id the value already holds.
    private var file: File

    private enum File: Sendable {
        case path(String)
        /// `folder/name` followed by `suffix` (`".yml"`).
        case named(folder: String, name: String, suffix: String)
        /// `folder/id.md`.
        case snippet(folder: String, id: SubmissionID)
    }

    public init(path: String, positions: Positions = [:]) {
        self.file = .path(path)
        self.positions = positions
    }

    /// The origin of `folder/name` followed by `suffix` (`".yml"`), joined when read.
    public init(folder: String, name: String, suffix: String, positions: Positions = [:]) {
        self.file = .named(folder: folder, name: name, suffix: suffix)
        self.positions = positions
    }

    /// The origin of the snippet file `folder/id.md`, joined when read.
    public init(folder: String, snippet id: SubmissionID, positions: Positions = [:]) {
        self.file = .snippet(folder: folder, id: id)
        self.positions = positions
    }

    /// The position of `key`, or the start of the file when the key is absent.
    public func position(of key: String) -> TextPosition { positions[key] ?? .start }

    /// A diagnostic at `key` in this file.
    public func error(at key: String, _ message: String) -> Diagnostic {
        Diagnostic(path: path, position: position(of: key), message: message)
    }

    /// Whether `other` is a copy of this origin: the same path and positions, compared without
    /// reading a key (`Positions.isIdentical(to:)`).
    public func isIdentical(to other: Origin) -> Bool {
        positions.isIdentical(to: other.positions) && path == other.path
    }

    /// Equal paths are equal however they are held.
    public static func == (a: Origin, b: Origin) -> Bool {
        a.path == b.path && a.positions == b.positions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(positions)
    }
}

/// One problem found in the content or the arguments, printed compiler-style:
/// `Content/projects/moon/rounds/0003/votes/bob.yml:4:5: error: 'x' is not a submission of round 3`.
public struct Diagnostic: Error, Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    /// The file the problem is in; nil for problems with arguments rather than files.
    public var path: String?
    public var position: TextPosition?
    public var message: String
    /// A second location that explains the first (`note:` lines).
    public var notes: [Note]

    public struct Note: Hashable, Sendable {
        public var path: String
        public var position: TextPosition
        public var message: String

        public init(path: String, position: TextPosition, message: String) {
            self.path = path
            self.position = position
            self.message = message
        }
    }

    public init(
        severity: Severity = .error, path: String?, position: TextPosition? = nil, message: String,
        notes: [Note] = []
    ) {
        self.severity = severity
        self.path = path
        self.position = position
        self.message = message
        self.notes = notes
    }

    /// A problem that is not tied to a file, such as a bad argument.
    public static func plain(_ message: String) -> Diagnostic {
        Diagnostic(path: nil, message: message)
    }

    public var description: String {
        var text = ""
        if let path {
            let p = position ?? .start
            text = "\(Self.visible(path)):\(p.line):\(p.column): "
        }
        text += "\(severity.rawValue): \(Self.visible(message))"
        for note in notes {
            text += "\n\(Self.visible(note.path)):\(note.position.line):\(note.position.column): note: \(Self.visible(note.message))"
        }
        return text
    }

    /// `text` with control and bidirectional formatting characters written as `\u{1B}`.
    ///
    /// Paths and quoted values come from the content: a file named with a line break would split
    /// the one line editors and CI annotators parse, an escape sequence would act on the
    /// terminal, and a right-to-left override would show the line in another order.
    public static func visible(_ text: String) -> String {
        func hidden(_ c: Unicode.Scalar) -> Bool {
            c.value < 0x20 || (0x7F...0x9F).contains(c.value) || (0x202A...0x202E).contains(c.value)
                || (0x2066...0x2069).contains(c.value) || c.value == 0x2028 || c.value == 0x2029 || c.value == 0x200E
                || c.value == 0x200F || c.value == 0x061C
        }
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        var shown = ""
        for c in text.unicodeScalars {
            if hidden(c) {
                shown += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(c)
            }
        }
        return shown
    }

    /// Files in path order, then by position, so reports are stable.
    public static func < (a: Diagnostic, b: Diagnostic) -> Bool {
        let pa = a.path ?? "", pb = b.path ?? ""
        if pa != pb { return pa < pb }
        let qa = a.position ?? .start, qb = b.position ?? .start
        if qa != qb { return qa < qb }
        return a.message < b.message
    }
}

/// A collection of problems thrown together, for commands that report everything they found.
public struct Diagnostics: Error, Sendable {
    public var all: [Diagnostic]
    public init(_ all: [Diagnostic]) { self.all = all }
}
