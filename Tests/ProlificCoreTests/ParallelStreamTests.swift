import Dispatch
import Glibc
import Testing

@testable import ProlificCore

@Suite(.serialized) struct ParallelStreamTests {
    /// What `deliver` saw: the batches in order, and whether two deliveries ever overlapped.
    final class Deliveries: @unchecked Sendable {
        let lock = NSLockLike()
        var batches: [[Int]] = []
        var inside = false
        var overlapped = false
        /// The most batches a worker was ahead of the last delivered.
        var mostAhead = 0
        /// The threads that worked on items.
        var threads: Set<UInt> = []

        func deliver(_ batch: [Int]) {
            lock.locked {
                if inside { overlapped = true }
                inside = true
            }
            usleep(200)
            lock.locked {
                batches.append(batch)
                inside = false
            }
        }

        func working(on index: Int, batch: Int) {
            lock.locked {
                mostAhead = max(mostAhead, index / batch - batches.count)
                threads.insert(UInt(pthread_self()))
            }
        }
    }

    @Test func everyBatchIsDeliveredOnceInOrderOneAtATime() {
        let items = Array(0..<5003)
        let log = Deliveries()
        Parallel.stream(items, batch: 64, take: 3, leading: 10) { (n: Int) -> Int in
            log.working(on: n, batch: 64)
            return n * 2
        } deliver: { log.deliver($0) }
        #expect(log.batches.flatMap { $0 } == items.map { $0 * 2 })
        #expect(log.batches.dropLast().allSatisfy { $0.count == 64 })
        #expect(log.batches.last?.count == 5003 % 64)
        #expect(!log.overlapped)
        // Workers ran at most `ahead` (2) batches beyond the last delivered: the one after it
        // and the next.
        #expect(log.mostAhead <= 1)
    }

    /// A slow delivery holds the workers back: what waits in memory stays within `ahead`.
    @Test func aSlowDeliveryHoldsTheWorkersBack() {
        let log = Deliveries()
        Parallel.stream(Array(0..<2000), batch: 50, ahead: 3) { (n: Int) -> Int in
            log.working(on: n, batch: 50)
            return n
        } deliver: { batch in
            // The first delivery waits (up to 5 s) for a worker to reach the last batch it may.
            for _ in 0..<5000 where log.batches.isEmpty && Parallel.workers > 1 {
                if log.lock.locked({ log.mostAhead }) >= 2 { break }
                usleep(1000)
            }
            usleep(1000)
            log.deliver(batch)
        }
        #expect(log.batches.flatMap { $0 } == Array(0..<2000))
        #expect(log.mostAhead <= 2)
        // Reached, unless one thread did all the work (Dispatch gave no other: a loaded machine).
        #expect(log.mostAhead == 2 || log.threads.count == 1)
    }

    /// No wait at the end of a batch: an item of the first batch runs while one of the second
    /// does. With a batch at a time, the first item would wait for the second in vain while the
    /// other thread waited for the first.
    @Test func anItemOfTheNextBatchRunsBeforeTheLastOfThisOne() {
        final class Watch: @unchecked Sendable {
            let later = DispatchSemaphore(value: 0)
            let lock = NSLockLike()
            var waiting: UInt?
            /// Whether another thread worked on items while item 0 waited.
            var otherRan = false
        }
        let watch = Watch()
        let log = Deliveries()
        Parallel.stream(Array(0..<1000), batch: 512, take: 1) { (n: Int) -> Int in
            let me = UInt(pthread_self())
            if n == 0 {
                watch.lock.locked { watch.waiting = me }
                let signaled = watch.later.wait(timeout: .now() + 5) == .success
                watch.lock.locked { watch.waiting = nil }
                return signaled ? 1 : 0
            }
            watch.lock.locked { if let waiting = watch.waiting, waiting != me { watch.otherRan = true } }
            if n == 600 { watch.later.signal() }
            return n
        } deliver: { log.deliver($0) }
        // Item 600 ran while item 0 waited, unless no other thread worked meanwhile.
        #expect(log.batches.first?.first == 1 || !watch.otherRan)
        #expect(log.batches.flatMap { $0 }.count == 1000)
    }

    struct Failed: Error, Equatable { let at: Int }

    @Test func aFailureStopsTheStreamAndNothingIsDeliveredPastIt() {
        let log = Deliveries()
        var caught: Failed?
        do throws(Failed) {
            let transform = { (n: Int) throws(Failed) -> Int in
                if n == 777 { throw Failed(at: 777) }
                return n
            }
            let deliver = { (batch: [Int]) throws(Failed) in log.deliver(batch) }
            try Parallel.stream(Array(0..<3000), batch: 64, transform, deliver: deliver)
        } catch { caught = error }
        #expect(caught == Failed(at: 777))
        // Batch 12 holds item 777: only batches before it may have been delivered, in order.
        #expect(log.batches.count <= 12)
        #expect(log.batches.flatMap { $0 } == Array(0..<(log.batches.count * 64)))
    }

    /// The delivery that fails is the last call: no batch is handed over after it, nor again.
    @Test func aFailedDeliveryIsTheLast() {
        final class Calls: @unchecked Sendable {
            let lock = NSLockLike()
            var firsts: [Int?] = []
        }
        let calls = Calls()
        var caught: Failed?
        do throws(Failed) {
            let transform = { (n: Int) throws(Failed) -> Int in n }
            let deliver = { (batch: [Int]) throws(Failed) in
                calls.lock.locked { calls.firsts.append(batch.first) }
                if batch.first == 192 { throw Failed(at: 192) }
                usleep(200)
            }
            try Parallel.stream(Array(0..<3000), batch: 64, transform, deliver: deliver)
        } catch { caught = error }
        #expect(caught == Failed(at: 192))
        #expect(calls.firsts == [0, 64, 128, 192])
    }

    @Test func nothingToDeliverForNoItems() {
        let log = Deliveries()
        Parallel.stream([Int](), batch: 8) { $0 } deliver: { log.deliver($0) }
        Parallel.stream([5], batch: 8) { $0 + 1 } deliver: { log.deliver($0) }
        #expect(log.batches == [[6]])
    }
}
