/// Numbers in as few bytes as they need: 7 bits a byte, the high bit for "more" (LEB128), and
/// signed numbers zigzagged first so that small magnitudes of either sign stay short. The caches
/// (`BinaryWriter`, `ByteReader`) and packed positions (`Positions(packed:)`) write numbers so.
public enum LEB128 {
    /// Appends `value` to `bytes`.
    @inlinable
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends `value`, zigzagged.
    @inlinable
    public static func append(signed value: Int64, to bytes: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    /// The number at `offset` in `bytes` (before `end`), `offset` moved past it; nil past the end
    /// or beyond 64 bits.
    @inlinable @inline(__always)
    public static func read<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at offset: inout Int, end: Int) -> UInt64?
    where Bytes.Index == Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            let bits = UInt64(byte & 0x7F)
            guard shift < 63 || bits <= 1 else { return nil }
            value |= bits << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A signed number from its zigzag form.
    @inlinable @inline(__always)
    public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
