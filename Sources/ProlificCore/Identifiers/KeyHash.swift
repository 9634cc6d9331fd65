/// A dictionary hash for keys of bytes (handles, paths), cheaper than the standard library's.
///
/// `Hasher` is SipHash-1-3: a handle, at most 39 bytes and usually under 16, paid for setting
/// up its state and finalizing it (four rounds) more than for its bytes. A rebuild of the large
/// benchmark after a `close` looks players up by handle (the explore order, the profiles'
/// inputs, the standings) in 62–91 of its 1,746–1,921 `perf` samples (four runs), 42 with this
/// hash (two runs). Here each 8-byte word is mixed into a 64-bit state started from the
/// dictionary's seed and the key's length, by one multiplication and shift, then the state is
/// scrambled once.
///
/// Still keyed: a dictionary's seed differs between processes, and each step is a bijection of
/// the state, so two keys of the same length up to 8 bytes never share a hash, and whether
/// longer ones do depends on the seed, which content can't know.
public enum KeyHash {
    /// The hash of `bytes` under `seed`, for `Hashable._rawHashValue(seed:)`.
    @inline(__always)
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: Int) -> Int {
        var state = UInt64(truncatingIfNeeded: seed) ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= raw.count {
            state = mix(state, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        if offset < raw.count {
            var last: UInt64 = 0
            var shift: UInt64 = 0
            while offset < raw.count {
                last |= UInt64(raw[offset]) << shift
                shift += 8
                offset += 1
            }
            state = mix(state, last)
        }
        state ^= state >> 29
        state &*= 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 32
        return Int(truncatingIfNeeded: state)
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (state ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return mixed ^ (mixed >> 32)
    }
}
