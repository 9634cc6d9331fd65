import Foundation
import Testing

@testable import ProlificStore

/// Events from several threads, in the order they happened.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func add(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}

@Suite struct ContentLockTests {
    @Test func aSecondLockWaitsUntilTheFirstIsReleased() throws {
        let tmp = try TemporaryDirectory()
        let directory = tmp.path
        var first: ContentLock? = try ContentLock(directory: directory)
        let log = EventLog()
        let waiting = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        let thread = Thread {
            do {
                let second = try ContentLock(directory: directory, waiting: { log.add("waiting"); waiting.signal() })
                log.add("acquired")
                withExtendedLifetime(second) {}
            } catch {
                log.add("failed: \(error)")
                waiting.signal()
            }
            finished.signal()
        }

        withExtendedLifetime(first) {
            thread.start()
            // The second lock must find the folder locked (a safety net, not a timing assertion).
            #expect(waiting.wait(timeout: .now() + 30) == .success)
            // Give a lock that wrongly returned early the chance to say so.
            for _ in 0..<5 { Thread.sleep(forTimeInterval: 0.01) }
            #expect(log.all == ["waiting"])
            log.add("releasing")
        }
        first = nil
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(log.all == ["waiting", "releasing", "acquired"])
    }

    @Test func aReleasedLockCanBeTakenAgainWithoutWaiting() throws {
        let tmp = try TemporaryDirectory()
        var waited = false
        do { _ = try ContentLock(directory: tmp.path) }
        let again = try ContentLock(directory: tmp.path, waiting: { waited = true })
        withExtendedLifetime(again) {}
        #expect(!waited)
        // It leaves nothing behind in the folder.
        #expect(try tmp.snapshot() == [:])
    }

    @Test func aMissingFolderCannotBeLocked() throws {
        let tmp = try TemporaryDirectory()
        let missing = tmp.path("missing")
        do {
            _ = try ContentLock(directory: missing)
            Issue.record("locked a folder that does not exist")
        } catch {
            #expect(error.path == missing)
            #expect(error.description == "\(missing): error: cannot open the content folder: No such file or directory")
        }
    }
}
