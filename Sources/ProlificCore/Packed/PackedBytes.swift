/// The bytes a value was decoded from, shared by the parts of it that are kept packed until read
/// (`PackedText`, `Positions(packed:range:)`).
///
/// A rebuild decodes every kept project from its cache (`ProjectCache`), and most of what that
/// holds, the snippets' Markdown and the positions diagnostics point at, is read only by pages
/// that are rendered again and by diagnostics: made into strings and arrays up front, they were
/// a third of that decoding, and most of its new memory. The bytes are a copy of an array, or a
/// file mapped into memory that `owner` keeps mapped; they are never written, so values holding
/// them stay `Sendable`.
public final class PackedBytes: @unchecked Sendable {
    public let bytes: UnsafeBufferPointer<UInt8>
    /// What keeps `bytes` valid when this object didn't allocate them.
    private let owner: AnyObject?

    /// A copy of `array`.
    public init(_ array: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: array.count)
        _ = copy.initialize(from: array)
        bytes = UnsafeBufferPointer(copy)
        owner = nil
    }

    /// `bytes` as they are, valid as long as `owner` lives (a mapped file).
    public init(_ bytes: UnsafeBufferPointer<UInt8>, owner: AnyObject) {
        self.bytes = bytes
        self.owner = owner
    }

    deinit {
        if owner == nil { UnsafeMutableBufferPointer(mutating: bytes).deallocate() }
    }
}
