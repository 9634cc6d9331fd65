import Dispatch
import Glibc
import Testing

@testable import ProlificCore

@Suite struct ParallelTests {
    @Test func mapKeepsOrderAndThrowsTheFirstFailure() {
        let items = Array(0..<1000)
        #expect(Parallel.map(items) { $0 * 2 } == items.map { $0 * 2 })
        struct Odd: Error {}
        #expect(throws: Odd.self) { try Parallel.map(items) { (n: Int) throws(Odd) -> Int in if n == 501 { throw Odd() }; return n } }
    }

    @Test func bothRunsEachHalfOnce() {
        let (a, b) = Parallel.both({ (1...100).reduce(0, +) }, { "done" })
        #expect(a == 5050 && b == "done")
    }

    /// Tells, from its deinit, which thread freed it.
    final class Tracked: @unchecked Sendable {
        let freed: DispatchSemaphore
        let owner: pthread_t
        nonisolated(unsafe) static var freedElsewhere = false
        init(_ freed: DispatchSemaphore) { (self.freed, owner) = (freed, pthread_self()) }
        deinit {
            Self.freedElsewhere = pthread_equal(owner, pthread_self()) == 0
            freed.signal()
        }
    }

    /// What `release` is given is freed, on another thread than the caller's.
    @Test func releaseFreesOnAnotherThread() {
        let freed = DispatchSemaphore(value: 0)
        let value = [Tracked(freed)]
        Parallel.release(consume value)
        #expect(freed.wait(timeout: .now() + 10) == .success)
        #expect(Tracked.freedElsewhere)
    }
}
