import FuzzSupport

/// libFuzzer's entry point for identifiers, durations, timestamps and content paths: each input,
/// as text, goes through every parser (`IdentifierChecks`, `TimeChecks`, `PathChecks`).
///
/// Built only by `make fuzz` (PROLIFIC_FUZZ=1, `-sanitize=fuzzer`), whose libFuzzer provides
/// `main`; this file must not be named main.swift, or Swift would emit a second one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Names come from file names and YAML scalars, both text by the time they are parsed.
    let text = String(decoding: FuzzInput.bytes(data, size), as: UTF8.self)
    // Parsers take `some StringProtocol`, compiled once for String and once for Substring (file
    // names arrive as slices): half the inputs go in as a slice whose indices don't start at 0.
    if size % 2 == 0 {
        IdentifierChecks.run(text)
        TimeChecks.run(text)
    } else {
        let slice = ("/" + text).dropFirst()
        IdentifierChecks.run(slice)
        TimeChecks.run(slice)
    }
    PathChecks.run(text)
    return 0
}
