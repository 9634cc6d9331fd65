/// SplitMix64: a small, fast pseudo-random generator with an explicit seed, so tools that need
/// randomness (the fairness simulation, the benchmark generator) give the same output every run.
/// The game's own rules never use it: their order comes from hashes of the content.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
