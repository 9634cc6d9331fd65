import FuzzSupport

/// libFuzzer's entry point for the content files: each input is a path and a file's text
/// (`ContentInput`), parsed as `ContentReader` parses it, then checked by `ContentChecks`.
///
/// Built only by `make fuzz` (PROLIFIC_FUZZ=1, `-sanitize=fuzzer`), whose libFuzzer provides
/// `main`; this file must not be named main.swift, or Swift would emit a second one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let input = ContentInput(FuzzInput.bytes(data, size)) {
        ContentChecks.run(input)
    }
    return 0
}
