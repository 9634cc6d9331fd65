#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the harnesses share: turning libFuzzer's bytes into text, and failing loudly.
///
/// A harness that only waits for a trap finds crashes; one that also checks properties (a parsed
/// value renders and reads back the same) finds logic bugs. A broken property aborts, which
/// libFuzzer records like any crash: the input is saved as `crash-…` and the run stops.
public enum Property {
    /// Stops the run with `message` on standard error when `condition` is false.
    @inlinable
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Prints `message` and aborts: the signal libFuzzer reports as a finding.
    public static func fail(_ message: String) -> Never {
        var line = "property failed: \(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }
}

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
public enum FuzzInput {
    /// The bytes as an array (a copy: the harness never holds on to libFuzzer's buffer).
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }
}
