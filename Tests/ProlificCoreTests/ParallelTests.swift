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

    /// Background work that waits doesn't hold a worker `both` needs: with every worker's worth
    /// of it waiting, both halves still run at the same time (the first waits for the second).
    /// On Dispatch's workers, the second half started only when Dispatch added a worker, about
    /// 2 s later.
    @Test func backgroundWorkThatWaitsLeavesBothItsCores() {
        let release = DispatchSemaphore(value: 0)
        let pending = (0..<Parallel.workers).map { _ in Parallel.background { release.wait() } }
        defer {
            for _ in pending { release.signal() }
            for job in pending { job.wait() }
        }
        let secondRan = DispatchSemaphore(value: 0)
        let (together, _) = Parallel.both(
            { secondRan.wait(timeout: .now() + 1) == .success },
            { secondRan.signal() })
        #expect(together || Parallel.workers == 1)
    }

    @Test func aHandoffGivesItsValueOnce() {
        let handoff = Parallel.Handoff<[Int]>()
        // Taken on another thread, which waits for it; checked here, where the test runs.
        final class Box: @unchecked Sendable { var value: [Int]? }
        let box = Box()
        let taken = Parallel.background { box.value = handoff.take() }
        handoff.give([1, 2, 3])
        handoff.give([4])
        taken.wait()
        #expect(box.value == [1, 2, 3])
        #expect(handoff.take() == nil, "taken already")
        let none = Parallel.Handoff<Int>()
        none.giveNothing()
        none.give(1)
        #expect(none.take() == nil)
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
