import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension Parallel {
    /// `items.map(transform)` on every core, handed to `deliver` in order, `batch` results at a
    /// time, with no wait between batches: a worker done with its share of one batch goes on
    /// with the next while the other finishes, and whichever worker completes a batch delivers
    /// it (`deliver` runs on one thread at a time, batch after batch, each seeing the last one's
    /// effects). Workers run at most `ahead` batches beyond the last delivered, so a slow
    /// `deliver` (the site's writer, full) bounds what waits in memory.
    ///
    /// `map` batch by batch waited at the end of each batch for its last items: with the
    /// writer's thread as a third on two cores, a worker preempted there left the other idle for
    /// up to 40 ms, 50 times in a large build's pages.
    ///
    /// Workers take `take` items at a time, the first `leading` items one at a time (a few long
    /// items first). The first failure, of `transform` or `deliver`, is thrown once every worker
    /// has stopped; nothing is delivered after it.
    public static func stream<T, R, E: Error>(
        _ items: [T], batch: Int, ahead: Int = 2, take: Int = 8, leading: Int = 0,
        _ transform: (T) throws(E) -> R, deliver: ([R]) throws(E) -> Void
    ) throws(E) {
        guard !items.isEmpty else { return }
        let batch = max(1, batch)
        if workers == 1 || items.count == 1 {
            var results: [R] = []
            for start in stride(from: 0, to: items.count, by: batch) {
                results.removeAll(keepingCapacity: true)
                for item in items[start..<min(items.count, start + batch)] { results.append(try transform(item)) }
                try deliver(results)
            }
            return
        }
        let state = BatchStream<R, E>(count: items.count, batch: batch, ahead: max(1, ahead))
        withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(deliver) { deliver in
                let work = Unchecked(transform)
                let hand = Unchecked(deliver)
                let input = Unchecked(items)
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while let range = state.take(max(1, take), leading: leading) {
                        guard state.waitForRoom(before: range.lowerBound) else { return }
                        var completed = false
                        for index in range {
                            do throws(E) {
                                state.set(index, try work.value(input.value[index]))
                            } catch {
                                state.fail(error)
                                return
                            }
                            if state.finishedItem(index) { completed = true }
                        }
                        if completed { state.deliverCompleted(hand.value) }
                    }
                }
                // Every worker is done: what is left is delivered here.
                state.deliverCompleted(hand.value)
            }
        }
        if let failure = state.firstFailure { throw failure }
    }
}

/// The shared state of `Parallel.stream`: a slot per item, how many items each batch still
/// waits for, and the batches delivered.
final class BatchStream<R, E: Error>: @unchecked Sendable {
    let count: Int
    let batch: Int
    let ahead: Int
    private let slots: UnsafeMutableBufferPointer<R?>
    /// Per batch, the items not yet done.
    private let remaining: UnsafeMutablePointer<Atomic<Int>>
    private let batches: Int
    private let next = Atomic<Int>(0)
    private let failed = Atomic<Bool>(false)
    /// Batches delivered; written by the thread delivering, read anywhere.
    private let delivered = Atomic<Int>(0)
    /// Whether a thread is delivering. Taken and let go of with sequentially consistent
    /// operations, as the counts are changed and read: a worker that completes a batch while
    /// another delivers, and can't take the flag, is seen by that one when it looks again after
    /// letting go (either the worker's count comes first in the one order of these operations,
    /// or the flag was free when it tried).
    private let delivering = Atomic<Bool>(false)
    /// Where workers wait for room (`waitForRoom`): allocated once, so the mutex and condition
    /// keep their addresses.
    private let roomLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let room = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let failure = Mutex<E?>(nil)

    init(count: Int, batch: Int, ahead: Int) {
        (self.count, self.batch, self.ahead) = (count, batch, ahead)
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        batches = (count + batch - 1) / batch
        remaining = .allocate(capacity: batches)
        for b in 0..<batches {
            (remaining + b).initialize(to: Atomic(min(count, (b + 1) * batch) - b * batch))
        }
        pthread_mutex_init(roomLock, nil)
        pthread_cond_init(room, nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
        remaining.deinitialize(count: batches)
        remaining.deallocate()
        pthread_mutex_destroy(roomLock)
        pthread_cond_destroy(room)
        roomLock.deallocate()
        room.deallocate()
    }

    /// The next items to work on: `size` of them, or one while among the first `leading`, never
    /// past the end of their batch (whose room `waitForRoom` checks); nil when none are left or
    /// a worker failed.
    func take(_ size: Int, leading: Int) -> Range<Int>? {
        var start = next.load(ordering: .relaxed)
        while !hasFailed {
            guard start < count else { return nil }
            let end = min(count, (start / batch + 1) * batch, start + (start < leading ? 1 : size))
            let (exchanged, found) = next.compareExchange(expected: start, desired: end, ordering: .relaxed)
            if exchanged { return start..<end }
            start = found
        }
        return nil
    }

    /// Waits while the item at `index` is more than `ahead` batches beyond the last delivered;
    /// false once a worker failed.
    func waitForRoom(before index: Int) -> Bool {
        let needed = index / batch - ahead + 1
        guard delivered.load(ordering: .acquiring) < needed else { return !hasFailed }
        pthread_mutex_lock(roomLock)
        while delivered.load(ordering: .acquiring) < needed, !hasFailed { pthread_cond_wait(room, roomLock) }
        pthread_mutex_unlock(roomLock)
        return !hasFailed
    }

    func set(_ index: Int, _ value: R) { slots[index] = value }

    /// Counts the item at `index` done; true when it was its batch's last.
    func finishedItem(_ index: Int) -> Bool {
        remaining[index / batch].subtract(1, ordering: .sequentiallyConsistent).newValue == 0
    }

    /// Delivers every completed batch after the last delivered, in order, unless another thread
    /// is delivering: that one looks again once it lets go, so no completed batch is left
    /// behind (see `delivering`). Nothing is delivered once a worker failed.
    func deliverCompleted(_ deliver: ([R]) throws(E) -> Void) {
        while !hasFailed, nextIsComplete {
            guard delivering.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
            else { return }
            while !hasFailed, nextIsComplete {
                let b = delivered.load(ordering: .relaxed)
                let range = b * batch..<min(count, (b + 1) * batch)
                var results: [R] = []
                results.reserveCapacity(range.count)
                for index in range {
                    if let value = slots[index].take() { results.append(value) }
                }
                do throws(E) {
                    try deliver(results)
                } catch {
                    // Failed before letting go, so no other thread delivers after it.
                    fail(error)
                    break
                }
                delivered.store(b + 1, ordering: .sequentiallyConsistent)
                wakeWaiters()
            }
            delivering.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Whether the batch after the last delivered is all done.
    private var nextIsComplete: Bool {
        let b = delivered.load(ordering: .sequentiallyConsistent)
        return b < batches && remaining[b].load(ordering: .sequentiallyConsistent) == 0
    }

    private func wakeWaiters() {
        pthread_mutex_lock(roomLock)
        pthread_cond_broadcast(room)
        pthread_mutex_unlock(roomLock)
    }

    func fail(_ error: E) {
        failure.withLock { if $0 == nil { $0 = error } }
        failed.store(true, ordering: .sequentiallyConsistent)
        wakeWaiters()
    }

    var hasFailed: Bool { failed.load(ordering: .sequentiallyConsistent) }

    /// The first failure, once every worker has stopped.
    var firstFailure: E? { hasFailed ? failure.withLock { $0 } : nil }
}
