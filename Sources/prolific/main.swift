import ProlificCLI

/// In an async function Swift picks the root command's async `main()` (needed by `serve`); at the
/// top level of main.swift it would pick the synchronous one.
func start() async { await Prolific.main() }

await start()
