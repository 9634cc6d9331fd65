/// A text that is a `String`, or UTF-8 bytes in a shared buffer (`PackedBytes`) made into one
/// only when it is read: a snippet's Markdown as a rebuild decodes it from the project cache.
///
/// Bytes that are not UTF-8 read as `String(decoding:as:)` repairs them. Two texts are equal
/// when their strings are, however each is held.
public struct PackedText: Hashable, Sendable {
    private enum Storage: Sendable {
        case string(String)
        case packed(PackedBytes, Range<Int>)
    }

    private var storage: Storage

    public init(_ string: String) { storage = .string(string) }

    /// The bytes in `range` of `buffer` (clamped to it).
    public init(utf8 buffer: PackedBytes, range: Range<Int>) {
        storage = .packed(buffer, range.clamped(to: 0..<buffer.bytes.count))
    }

    /// The text as a string, made from its bytes each time when it is packed.
    public var string: String {
        switch storage {
        case .string(let string): string
        case .packed(let buffer, let range): String(decoding: UnsafeBufferPointer(rebasing: buffer.bytes[range]), as: UTF8.self)
        }
    }

    /// Whether the text is still bytes, not yet a string (tests).
    public var isPacked: Bool {
        if case .packed = storage { true } else { false }
    }

    /// Calls `body` with the text's UTF-8 bytes, without making a string of packed ones.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .string(var string): return try string.withUTF8(body)
        case .packed(let buffer, let range): return try body(UnsafeBufferPointer(rebasing: buffer.bytes[range]))
        }
    }

    public static func == (a: PackedText, b: PackedText) -> Bool {
        if case .packed(let x, let r) = a.storage, case .packed(let y, let s) = b.storage, x === y, r == s { return true }
        return a.string == b.string
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(string) }
}
