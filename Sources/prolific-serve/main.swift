import ProlificServe

/// In an async function Swift picks the command's async `main()`; at the top level of main.swift
/// it would pick the synchronous one.
func start() async { await ServeProgram.main() }

await start()
