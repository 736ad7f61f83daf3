import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The back-off's memory alone, on a clock the test controls.
final class RecentFailuresTests: XCTestCase {
    private let error = ImageStoreError.httpStatus(URL(string: "http://example.com/a.png")!, code: 404)
    private let identity = SourceIdentity.url("http://example.com/a.png")

    func test_aFailure_isRememberedForTheBackoff_thenForgotten() {
        // Given: 2 s
        var failures = RecentFailures(backoff: 2, maximumBackoff: 2)
        // When
        failures.remember(error, for: identity, now: 1_000, jitter: 0)
        // Then
        XCTAssertEqual(failures.failure(of: identity, now: 1_000), error)
        XCTAssertEqual(failures.failure(of: identity, now: 2_000_000_999), error)
        XCTAssertNil(failures.failure(of: identity, now: 2_000_001_000))
        XCTAssertEqual(failures.count, 1, "kept to count the next failure as one more in a row")
        XCTAssertNil(failures.failure(of: identity, now: 4_000_001_000))
        XCTAssertEqual(failures.count, 0)
    }

    func test_zeroBackoff_remembersNothing() {
        var failures = RecentFailures(backoff: 0, maximumBackoff: 0)
        failures.remember(error, for: identity, now: 0)
        XCTAssertNil(failures.failure(of: identity, now: 0))
    }

    func test_expiredFailures_areSwept_soTheTableStaysBounded() {
        // Given: 1 ns back-off, a new failure every nanosecond
        var failures = RecentFailures(backoff: 1e-9, maximumBackoff: 1e-9)
        // When
        for index in 0..<10_000 {
            failures.remember(error, for: .url("http://example.com/\(index)"), now: UInt64(index * 2), jitter: 0)
        }
        // Then
        XCTAssertLessThanOrEqual(failures.count, 64)
    }

    func test_failuresInARow_doubleTheBackoff_upToTheMaximum() {
        // Given: 1 s, at most 5 s
        var failures = RecentFailures(backoff: 1, maximumBackoff: 5)
        var now: UInt64 = 0
        var backoffs: [UInt64] = []
        // When: each failure right after the back-off before it ended
        for _ in 0..<5 {
            failures.remember(error, for: identity, now: now, jitter: 0)
            var end = now
            while failures.failure(of: identity, now: end) != nil { end += 1_000_000 }
            backoffs.append((end - now) / 1_000_000)
            now = end
        }
        // Then: milliseconds
        XCTAssertEqual(backoffs, [1_000, 2_000, 4_000, 5_000, 5_000])
    }

    func test_jitter_addsUpToAQuarter() {
        var failures = RecentFailures(backoff: 4, maximumBackoff: 4)
        failures.remember(error, for: identity, now: 0, jitter: 1)
        XCTAssertNotNil(failures.failure(of: identity, now: 4_999_999_999))
        XCTAssertNil(failures.failure(of: identity, now: 5_000_000_000))
    }

    func test_aFailureLongAfterTheLast_startsAgainAtTheBase() {
        // Given: two failures in a row (1 s, then 2 s)
        var failures = RecentFailures(backoff: 1, maximumBackoff: 10)
        failures.remember(error, for: identity, now: 0, jitter: 0)
        failures.remember(error, for: identity, now: 1_000_000_000, jitter: 0)
        // When: the next one more than the maximum after that back-off ended
        let later: UInt64 = 3_000_000_000 + 10_000_000_000
        failures.remember(error, for: identity, now: later, jitter: 0)
        // Then: 1 s again
        XCTAssertNotNil(failures.failure(of: identity, now: later + 999_999_999))
        XCTAssertNil(failures.failure(of: identity, now: later + 1_000_000_000))
    }
}
