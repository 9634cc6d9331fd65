import ProlificCore

/// The draws the simulation needs, on top of the seeded generator.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A standard normal draw (Box–Muller).
    mutating func normal() -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    mutating func chance(_ p: Double) -> Bool { uniform() < p }
}

#if canImport(Glibc)
    import Glibc
#endif
