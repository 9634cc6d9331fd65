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

    /// Results are kept in slots written by their worker alone (no lock) and freed with the
    /// slots: none is lost, none outlives the map's answer.
    @Test func mapKeepsEveryResultAndFreesItsSlots() {
        final class Box: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        final class Weak: @unchecked Sendable { weak var box: Box? }
        let watched = (0..<5000).map { _ in Weak() }
        do {
            let boxes = Parallel.map(Array(0..<5000), batch: 3) { (n: Int) -> Box in
                let box = Box(n)
                watched[n].box = box
                return box
            }
            #expect(boxes.map(\.value) == Array(0..<5000))
            #expect(watched.allSatisfy { $0.box != nil })
        }
        #expect(watched.allSatisfy { $0.box == nil })
        #expect(Parallel.map([Int]()) { $0 } == [])
        #expect(Parallel.map([7]) { $0 + 1 } == [8])
    }

    /// Background work that waits doesn't hold a worker `map` needs: with every worker's worth
    /// of it waiting, `map` still runs on every core (its first item waits for one a second
    /// worker takes: workers take 8 items at a time). On Dispatch's workers, the second worker
    /// started only when Dispatch added one, about 2 s later.
    @Test func backgroundWorkThatWaitsLeavesEveryCoreToMap() {
        let release = DispatchSemaphore(value: 0)
        let pending = (0..<Parallel.workers).map { _ in Parallel.background { release.wait() } }
        defer {
            for _ in pending { release.signal() }
            for job in pending { job.wait() }
        }
        let secondRan = DispatchSemaphore(value: 0)
        let results = Parallel.map(Array(0..<16)) { (n: Int) -> Bool in
            if n == 0 { return secondRan.wait(timeout: .now() + 1) == .success }
            if n == 15 { secondRan.signal() }
            return true
        }
        #expect(results[0] || Parallel.workers == 1)
    }

    /// A few long items (git's history read in parts) run at once with `batch: 1`; a worker
    /// taking 8 at a time would run both of two items itself, one after the other.
    @Test func longItemsTakenOneAtATimeRunAtOnce() {
        let secondRan = DispatchSemaphore(value: 0)
        let results = Parallel.map([0, 1], batch: 1) { (n: Int) -> Bool in
            if n == 0 { return secondRan.wait(timeout: .now() + 2) == .success }
            secondRan.signal()
            return true
        }
        #expect(results[0] || Parallel.workers == 1)
    }

    /// `whenIdle` runs its work on a thread of its own at the idle policy (SCHED_IDLE, 5), and
    /// leaves the caller's thread at its own.
    @Test func workWhenIdleRunsAtTheIdlePolicyOnItsOwnThread() {
        final class Box: @unchecked Sendable { var policy: Int32? }
        let box = Box(), ran = DispatchSemaphore(value: 0)
        #expect(Parallel.whenIdle {
            box.policy = sched_getscheduler(0)
            ran.signal()
        })
        // Not run at all where the kernel refuses the policy: waited for a while, not forever.
        #expect(ran.wait(timeout: .now() + 60) == .success)
        #expect(box.policy == 5)
        #expect(sched_getscheduler(0) != 5, "the caller's policy is its own")
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
        // Discarded before or after it is given: not kept, and the taker isn't left waiting.
        let early = Parallel.Handoff<Int>(), late = Parallel.Handoff<Int>()
        early.discard()
        early.give(1)
        late.give(2)
        late.discard()
        #expect(early.take() == nil && late.take() == nil)
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

    /// Signals when it is freed (and touches nothing another test reads).
    final class Watched: Sendable {
        let freed: DispatchSemaphore
        init(_ freed: DispatchSemaphore) { self.freed = freed }
        deinit { freed.signal() }
    }

    /// Once what is released is left to the process's exit (`build`), it is kept, not freed;
    /// before, it is freed.
    @Test func releaseLeftToExitKeeps() {
        let leftovers = Parallel.Leftovers()
        let freedBefore = DispatchSemaphore(value: 0)
        Parallel.release([Watched(freedBefore)], keepingIn: leftovers)
        #expect(freedBefore.wait(timeout: .now() + 10) == .success)
        #expect(leftovers.count == 0)
        leftovers.leaveToExit()
        let freedAfter = DispatchSemaphore(value: 0)
        Parallel.release([Watched(freedAfter)], keepingIn: leftovers)
        #expect(freedAfter.wait(timeout: .now() + 0.2) == .timedOut)
        #expect(leftovers.count == 1)
    }

    /// `beside` runs its first half on another thread and its second on the caller's, at the
    /// same time, and gives both values; a `map` in the second half spreads over every core
    /// (inside `both` it runs item by item, on one thread).
    @Test func besideRunsAsideAndHere() {
        // Other suites running at the same time may hold every Dispatch worker for a while (a
        // test mapping a few thousand items), and a `map` then runs on its caller alone: tries
        // for up to five seconds. The bug this guards against (a `map` inside `both`) ran on one
        // thread every time.
        let deadline = DispatchTime.now() + 5
        while !besideRunsAsideAndHere(lastTry: DispatchTime.now() > deadline) {}
    }

    /// One try of the above; false when the map ran on one thread only and it is not the last try.
    func besideRunsAsideAndHere(lastTry: Bool) -> Bool {
        let caller = pthread_self()
        let asideStarted = DispatchSemaphore(value: 0)
        let (aside, here) = Parallel.beside(
            { () -> Bool in
                asideStarted.signal()
                return pthread_equal(caller, pthread_self()) == 0
            },
            { () -> (Bool, Bool, Int) in
                // The first half runs meanwhile: this half can wait for it to start.
                let together = asideStarted.wait(timeout: .now() + 10) == .success
                let threads = NSLockLike()
                var seen: Set<UInt> = []
                let squares = Parallel.map(Array(0..<64)) { (n: Int) -> Int in
                    usleep(2_000)
                    threads.locked { _ = seen.insert(UInt(pthread_self())) }
                    return n * n
                }
                let onCaller = pthread_equal(caller, pthread_self()) != 0
                return (together && onCaller, seen.count > 1 || Parallel.workers == 1, squares.reduce(0, +))
            })
        #expect(aside, "the first half ran on another thread")
        #expect(here.0, "the second half ran on the caller's thread, beside the first")
        #expect(here.2 == (0..<64).map { $0 * $0 }.reduce(0, +))
        if !here.1 && !lastTry { return false }
        #expect(here.1, "a map inside the second half used more than one thread")
        return true
    }

    /// A pipeline consumes every item in the order sent, on another thread; `finish` returns
    /// once the last is consumed; a sender waits while `capacity` items are sent and not yet
    /// consumed, so a slow consumer bounds what is produced ahead.
    @Test func aPipelineConsumesInOrderAndHoldsBackItsSender() {
        final class Log: @unchecked Sendable {
            let lock = NSLockLike()
            var consumed: [Int] = []
            var sent = 0
            var mostAhead = 0
            var onCallersThread = false
        }
        let log = Log()
        let caller = pthread_self()
        let gate = DispatchSemaphore(value: 0)
        let pipeline = Parallel.Pipeline<Int>(capacity: 1) { item in
            if item == 0 { gate.wait() }  // the first item holds the consumer
            log.lock.locked {
                if pthread_equal(caller, pthread_self()) != 0 { log.onCallersThread = true }
                log.mostAhead = max(log.mostAhead, log.sent - log.consumed.count)
                log.consumed.append(item)
            }
        }
        let sender = Parallel.background {
            for item in 0..<50 {
                pipeline.send(item)
                log.lock.locked { log.sent += 1 }
            }
        }
        // The consumer holds item 0, so the second `send` waits.
        usleep(100_000)
        #expect(log.lock.locked { log.sent } == 1)
        gate.signal()
        sender.wait()
        pipeline.finish()
        #expect(log.consumed == Array(0..<50))
        #expect(log.mostAhead <= 1)
        #expect(!log.onCallersThread)
        pipeline.finish()  // a second call returns at once
    }
}

/// A mutex for the tests' shared logs.
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
