import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for Ctrl-C (`SIGINT`) or `SIGTERM`, so `serve` can stop its server and its build (a
/// `prolific build`, which a kill leaves harmless) and return normally.
enum StopSignal {
    /// Returns the first of the two signals to arrive, or nil if the task is cancelled first.
    static func next() async -> Int32? {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "prolific.serve.signals")
        let sources = [SIGINT, SIGTERM].map { number in
            // The default action would end the process at once; a dispatch source sees it instead.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            continuation.finish()
        }
        for await number in signals { return number }
        return nil
    }
}
