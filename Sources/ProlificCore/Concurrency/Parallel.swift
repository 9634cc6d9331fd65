import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Work spread over every core: pages are independent of each other, and a 2-core machine
/// renders a big site in half the time.
///
/// The closures of `map` read only immutable values (the site model, the theme), cmark, which
/// keeps no global state between calls, and files (each call its own, or only stat-ed); that is
/// why the unchecked boxes below are sound. The
/// closures given to `background`, `beside` and `Pipeline` own what they change (the history
/// cache, the site being written) until the caller waits for them.
public enum Parallel {
    /// One worker per core this process may run on (its CPU affinity, as `taskset` or a
    /// container's cpuset sets it; else every online core), at most 16: counted once, as glibc
    /// reads `/sys/devices/system/cpu/online` for every `sysconf` (148 times in a large rebuild).
    public static let workers: Int = max(1, min(16, usableCores()))

    private static func usableCores() -> Int {
        #if os(Linux)
            // glibc's sched_getaffinity, which Swift's Glibc module doesn't declare: the mask of
            // cores allowed, 1,024 bits.
            typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
            if let symbol = dlsym(nil, "sched_getaffinity") {
                var mask = [UInt64](repeating: 0, count: 16)
                let found = mask.withUnsafeMutableBytes { bytes -> Bool in
                    guard let base = bytes.baseAddress else { return false }
                    return unsafeBitCast(symbol, to: Affinity.self)(0, bytes.count, base) == 0
                }
                let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
                if found, count > 0 { return count }
            }
        #endif
        return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// `items.map(transform)`, in order, on every core, each worker taking `batch` items at a
    /// time (a few long items need 1). The first failure is thrown after all workers stop.
    public static func map<T, R, E: Error>(_ items: [T], batch: Int = 8, _ transform: (T) throws(E) -> R) throws(E) -> [R] {
        if items.count < 2 || workers == 1 {
            var out: [R] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try transform(item)) }
            return out
        }
        let results = Slots<R, E>(count: items.count)
        let next = Counter()
        // At most the items: the counter, which every worker's last take still advances, stays
        // far from overflowing whatever `batch` is.
        let size = min(max(1, batch), items.count)
        withoutActuallyEscaping(transform) { transform in
            let work = Unchecked(transform)
            let input = Unchecked(items)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                // Small batches from a shared counter: pages differ a lot in cost.
                while !results.hasFailed, let range = next.take(size, of: input.value.count) {
                    for index in range {
                        do throws(E) {
                            results.set(index, try work.value(input.value[index]))
                        } catch {
                            results.fail(error)
                            return
                        }
                    }
                }
            }
        }
        if let failure = results.failure { throw failure }
        return results.values()
    }

    /// `(aside(), here())`: `aside` on a thread of its own (`background`), `here` on the
    /// caller's thread meanwhile, not inside a `concurrentPerform` (where a nested `map` gets no
    /// other worker and runs its items one by one), so `here` may spread its own work over every
    /// core: a site's standings are counted on both cores while the replay runs aside, and when
    /// the replay is kept from the last build (a fraction of a second) nothing waits on a half
    /// that holds only one core.
    public static func beside<A, B>(_ aside: () -> A, _ here: () -> B) -> (A, B) {
        let result = Slots<A, Never>(count: 1)
        let b = withoutActuallyEscaping(aside) { aside in
            // The thread lets go of `aside` before it says it is done: a non-escaping closure
            // still held when this block ends would stop the program.
            let work = Once(aside)
            let pending = background { if let value = work.run() { result.set(0, value) } }
            defer { pending.wait() }
            return here()
        }
        return (result.values()[0], b)
    }

    /// A closure run once, and let go of as it ends.
    private final class Once<A>: @unchecked Sendable {
        private var work: (() -> A)?
        init(_ work: @escaping () -> A) { self.work = work }

        /// The closure's value; nil if it ran already.
        func run() -> A? {
            defer { work = nil }
            return work?()
        }
    }

    /// Starts `work` on a thread of its own, for the caller to `wait` on when it needs it done:
    /// work that can run beside the next stages fills the moments they leave a core idle.
    ///
    /// Not on one of Dispatch's workers: there are as many as cores, and work that holds one
    /// for seconds (or waits, as the history cache waits for the replay) left `map` a worker
    /// short, so that the model's two halves (then run by a `concurrentPerform`) ran one after
    /// the other (the model of a large rebuild took 0.87–0.89 s instead of 0.55–0.58 s). The
    /// kernel shares the cores between the threads.
    public static func background(_ work: @escaping @Sendable () -> Void) -> Pending {
        let pending = Pending()
        pending.group.enter()
        let job = Job {
            work()
            pending.group.leave()
        }
        // No thread to be had: a worker, as before.
        if !startThread(job) { DispatchQueue.global().async { job.run() } }
        return pending
    }

    /// Starts `work` on a thread of its own that the kernel runs only while a core would
    /// otherwise be idle (Linux's `SCHED_IDLE`): work done ahead that the stages would do anyway
    /// when they need it, such as looking at the site's files, fills the gaps in their work
    /// without taking a core from them. The work is optional: false, and `work` never run, where
    /// no thread can be started; skipped too if the kernel refuses the thread that policy.
    @discardableResult
    public static func whenIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
        #if os(Linux)
            return startThread(
                Job {
                    var none = sched_param()
                    // SCHED_IDLE (5), which Swift's Glibc module doesn't name. At the normal
                    // priority the work would take a core from the stages it means to serve.
                    guard pthread_setschedparam(pthread_self(), 5, &none) == 0 else { return }
                    work()
                })
        #else
            return false
        #endif
    }

    /// Runs `job` on a new, detached thread; false if none could be started.
    private static func startThread(_ job: Job) -> Bool {
        #if canImport(Glibc)
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { argument in
                guard let argument else { return nil }
                Unmanaged<Job>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(job).toOpaque())
            if started == 0 {
                pthread_detach(thread)
                return true
            }
            Unmanaged.passUnretained(job).release()
        #endif
        return false
    }

    /// A closure for a thread to run.
    private final class Job: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Work started by `background`.
    public final class Pending: Sendable {
        fileprivate let group = DispatchGroup()

        /// Returns once the work is done.
        public func wait() { group.wait() }
    }

    /// A value one thread gives once and another waits for and takes: work in the background
    /// that can use what a later stage works out anyway, or do without it.
    public final class Handoff<Value: Sendable>: @unchecked Sendable {
        private let lock = ThreadLock()
        private let given = DispatchGroup()
        private var value: Value?
        private var isSettled = false
        private var isDiscarded = false

        public init() { given.enter() }

        /// Keeps the group's enter and leave paired when a handoff is let go of unsettled.
        deinit { if !isSettled { given.leave() } }

        /// Gives `value` to whoever waits, unless a value (or nothing) was given already.
        public func give(_ value: Value) { settle(value) }

        /// Tells whoever waits that no value comes, unless one was given already.
        public func giveNothing() { settle(nil) }

        /// The value given, once it is given; nil if nothing is, or if it was taken already: the
        /// handoff doesn't keep it (a replay's history is tens of megabytes).
        public func take() -> Value? {
            given.wait()
            return lock.withLock {
                defer { value = nil }
                return value
            }
        }

        /// Lets go of the value, given already or to come, without waiting for it: nobody will
        /// take it, and it is not kept.
        public func discard() {
            lock.withLock {
                isDiscarded = true
                value = nil
            }
        }

        private func settle(_ value: Value?) {
            let first = lock.withLock {
                guard !isSettled else { return false }
                (self.value, isSettled) = (isDiscarded ? nil : value, true)
                return true
            }
            if first { given.leave() }
        }
    }

    /// Items one thread sends and a thread of its own consumes, one at a time and in the order
    /// sent: a build renders its next batch of pages while the last one is written, so that
    /// the writer's waits on the file system (its folders' locks, new pages of memory for the
    /// files) leave no core idle. `send` blocks while `capacity` items are sent and not yet
    /// consumed (the one being consumed included), so a slow consumer bounds the memory of what
    /// is produced ahead: with 1, the producer makes the next item while the last is consumed.
    public final class Pipeline<Item>: @unchecked Sendable {
        private let queue: Queue
        private let done: Pending

        /// Starts the consuming thread (`background`): `consume` runs there, for each item sent.
        /// The pipeline must be finished: until then the thread waits for items.
        public init(capacity: Int, consume: @escaping (Item) -> Void) {
            let queue = Queue(capacity: capacity)
            let consumer = Unchecked(consume)
            self.queue = queue
            done = Parallel.background {
                while let item = queue.next() {
                    consumer.value(item)
                    queue.room.signal()
                }
            }
        }

        /// A pipeline let go of unfinished ends its thread once the items sent are consumed.
        deinit { queue.end() }

        /// Hands `item` to the consumer, once fewer than `capacity` items are left to consume.
        /// After `finish`, nothing is sent (the item is dropped).
        public func send(_ item: Item) {
            guard !queue.isEnded else { return }
            queue.room.wait()
            queue.add(item)
        }

        /// Returns once every item sent is consumed, and the consuming thread has ended. Later
        /// calls return at once; nothing may be sent after the first.
        public func finish() {
            queue.end()
            done.wait()
        }

        /// The items waiting, then nil for the end.
        private final class Queue: @unchecked Sendable {
            let room: DispatchSemaphore
            private let ready = DispatchSemaphore(value: 0)
            private let lock = ThreadLock()
            private var waiting: [Item?] = []
            private var ended = false

            /// Whether the end was sent.
            var isEnded: Bool { lock.withLock { ended } }

            init(capacity: Int) { room = DispatchSemaphore(value: max(1, capacity)) }

            func add(_ item: Item?) {
                lock.withLock { waiting.append(item) }
                ready.signal()
            }

            /// Sends the end, once.
            func end() {
                let first = lock.withLock {
                    defer { ended = true }
                    return !ended
                }
                if first { add(nil) }
            }

            /// The next item, once there is one; nil at the end.
            func next() -> Item? {
                ready.wait()
                return lock.withLock { waiting.removeFirst() }
            }
        }
    }

    /// Lets go of `value` on another thread, or keeps it until the process exits once
    /// `leaveReleasedToExit` was called. Freeing a big site's model, millions of small objects,
    /// takes a build a few hundred milliseconds it needn't wait for: a test run gets the memory
    /// back a moment later, and a command that exits right after its work lets the exit return it.
    ///
    /// `value` is taken over (`consuming`), so that once the caller hands over its own
    /// references (`release(consume model)`), the other thread holds the last one.
    public static func release(_ value: consuming Any) {
        release(value, keepingIn: leftToExit)
    }

    /// `release`, keeping `value` in `leftovers` when they are left to the process's exit.
    static func release(_ value: consuming Any, keepingIn leftovers: Leftovers) {
        let box = Dropped(consume value)
        if !leftovers.keep(box) { DispatchQueue.global(qos: .utility).async { box.drop() } }
    }

    /// Makes `release` keep what it is given until the process exits instead of freeing it,
    /// for a command that exits as soon as its work is done (`build`). Freeing a large site's
    /// content and model, millions of objects, took a core 0.2–0.3 s at the end of a build,
    /// while the build still had its stamp to save; the kernel takes the memory back with the
    /// process at once (compilers skip freeing for the same reason). It can't be undone: a
    /// process that goes on (a test run) must never call it.
    public static func leaveReleasedToExit() {
        leftToExit.leaveToExit()
    }

    private static let leftToExit = Leftovers()

    /// What `release` was given, kept (never freed) once the process's exit is to free it.
    final class Leftovers: Sendable {
        private let state = Mutex((leftToExit: false, kept: [Dropped]()))

        func leaveToExit() { state.withLock { $0.leftToExit = true } }

        /// Whether `box` is kept: false when it is to be dropped.
        func keep(_ box: Dropped) -> Bool {
            state.withLock { state in
                if state.leftToExit { state.kept.append(box) }
                return state.leftToExit
            }
        }

        var count: Int { state.withLock { $0.kept.count } }
    }

    /// Holds a value until `drop`, on whichever thread calls it.
    final class Dropped: @unchecked Sendable {
        private var value: Any?
        init(_ value: consuming Any) { self.value = consume value }
        func drop() { value = nil }
    }

    /// A value shared with the workers, who only read it.
    struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Hands out consecutive ranges of indices.
    ///
    /// Atomic, like `Slots`: every worker takes a range every few items, and with a lock a worker
    /// preempted while holding it (by the site writer's thread, on two cores) kept the other
    /// waiting for the rest of its time slice.
    final class Counter: Sendable {
        private let next = Atomic<Int>(0)

        func take(_ size: Int, of count: Int) -> Range<Int>? {
            let start = next.wrappingAdd(size, ordering: .relaxed).oldValue
            guard start < count else { return nil }
            return start..<min(count, start + size)
        }
    }

    /// One slot per item; each is written by one worker only, straight into memory allocated
    /// once (no lock: see `Counter`), and read once the workers are done.
    final class Slots<R, E: Error>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<R?>
        private let failed = Atomic<Bool>(false)
        private let lock = ThreadLock()
        private var firstFailure: E?

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func set(_ index: Int, _ value: R) {
            slots[index] = value
        }

        func fail(_ error: E) {
            lock.withLock { if firstFailure == nil { firstFailure = error } }
            failed.store(true, ordering: .releasing)
        }

        /// Whether a worker failed: an atomic read for the workers' loop, the error itself after.
        var hasFailed: Bool { failed.load(ordering: .acquiring) }

        var failure: E? { hasFailed ? lock.withLock { firstFailure } : nil }

        func values() -> [R] { slots.compactMap { $0 } }
    }
}

/// A lock without Foundation (the core imports nothing else).
final class ThreadLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
