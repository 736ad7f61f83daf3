import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The pace a task is held to, on an injected clock (nanoseconds).
final class TransferWatchTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    private func makeWatch(timeout: Double = 100, minimumBytes: Int = 100, window: Double = 10) -> TransferWatch {
        TransferWatch(
            limits: .init(timeout: timeout, minimumBytesPerWindow: minimumBytes, window: window), startTime: 0)
    }

    func test_beforeTheResponse_onlyTheDeadlineCounts() {
        var watch = makeWatch(timeout: 30)
        XCTAssertNil(watch.check(at: 29 * second))
        XCTAssertEqual(watch.check(at: 31 * second), "the transfer took longer than the limit of 30.0 s")
    }

    func test_fewerBytesThanTheMinimumInAWindow_isTooSlow() {
        var watch = makeWatch()
        watch.responseArrived(at: 1 * second)
        watch.bodyBytesArrived(99)
        XCTAssertNil(watch.check(at: 5 * second), "too early to judge")
        XCTAssertEqual(
            watch.check(at: 11 * second), "the server sent 99 bytes in 10.0 s, fewer than the minimum of 100")
    }

    func test_theWindowSlides_anEarlyBurstDoesNotCoverALaterStall() {
        // Given: a burst right after the response, checked every 2.5 s as for a 10 s window
        var watch = makeWatch()
        watch.responseArrived(at: 0)
        watch.bodyBytesArrived(10_000)
        for time in stride(from: 2_500, through: 10_000, by: 2_500) {
            XCTAssertNil(watch.check(at: UInt64(time) * second / 1_000))
        }
        // When: 50 bytes in the next 10 s
        watch.bodyBytesArrived(50)
        // Then: judged on the last 10 s (2.5 s to 12.5 s), not since the response
        XCTAssertEqual(
            watch.check(at: 12_500 * second / 1_000),
            "the server sent 50 bytes in 10.0 s, fewer than the minimum of 100")
    }

    func test_noMinimum_judgesOnlyTheDeadline() {
        var watch = makeWatch(timeout: .infinity, minimumBytes: 0)
        watch.responseArrived(at: 0)
        XCTAssertNil(watch.check(at: 1_000_000 * second))
    }

    func test_checkInterval_isAQuarterOfTheShorterLimit_atMostFiveSeconds() {
        XCTAssertEqual(TransferWatch.Limits(timeout: 120, minimumBytesPerWindow: 1, window: 20).checkInterval, 5)
        XCTAssertEqual(TransferWatch.Limits(timeout: 120, minimumBytesPerWindow: 1, window: 0.4).checkInterval, 0.1)
        XCTAssertEqual(TransferWatch.Limits(timeout: 0.2, minimumBytesPerWindow: 1, window: 20).checkInterval, 0.05)
    }
}
