import Foundation

extension Process {
    /// Starts the process; the function returned waits for its end (its status is then read).
    ///
    /// The end is awaited by the termination handler, not by `waitUntilExit()` alone: on Linux
    /// that runs the run loop in 50 ms slices until the child has ended, so each command took at
    /// least 50 ms however quick it was (a `git rev-parse` of 3 ms took 56 ms, at the start of
    /// every build). `waitUntilExit()` is still called once the child has ended: it returns at
    /// once, and it is what lets Foundation drop the run-loop source that holds the process and
    /// its pipes.
    public func spawn() throws -> () -> Void {
        let exited = DispatchSemaphore(value: 0)
        terminationHandler = { _ in exited.signal() }
        try run()
        return { [self] in
            exited.wait()
            waitUntilExit()
        }
    }
}
