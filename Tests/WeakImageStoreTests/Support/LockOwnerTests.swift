import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The owner check that ThreadSafetyTests relies on: only the holding thread sees the lock as its own.
final class LockOwnerTests: XCTestCase {
    func test_heldByThisThread_onlyInsideTheCriticalSection() {
        let lock = Lock(0)
        XCTAssertFalse(lock._isHeldByCurrentThread())
        lock.withLock { _ in XCTAssertTrue(lock._isHeldByCurrentThread()) }
        XCTAssertFalse(lock._isHeldByCurrentThread())
    }

    func test_heldByAnotherThread_isNotHeldByThisOne() {
        let lock = Lock(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            lock.withLock { _ in
                entered.signal()
                release.wait()
            }
            finished.signal()
        }
        entered.wait()
        XCTAssertFalse(lock._isHeldByCurrentThread(), "another thread's critical section was taken for this one's")
        release.signal()
        finished.wait()
    }
}
