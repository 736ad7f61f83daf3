import XCTest

@testable import WeakImageStore

/// The back-off's memory alone, on a clock the test controls.
final class RecentFailuresTests: XCTestCase {
    private let error = ImageStoreError.httpStatus(URL(string: "http://example.com/a.png")!, code: 404)
    private let identity = SourceIdentity.url("http://example.com/a.png")

    func test_aFailure_isRememberedForTheBackoff_thenForgotten() {
        // Given: 2 s
        var failures = RecentFailures(backoff: 2)
        // When
        failures.remember(error, for: identity, now: 1_000)
        // Then
        XCTAssertEqual(failures.failure(of: identity, now: 1_000), error)
        XCTAssertEqual(failures.failure(of: identity, now: 2_000_000_999), error)
        XCTAssertNil(failures.failure(of: identity, now: 2_000_001_000))
        XCTAssertEqual(failures.count, 0)
    }

    func test_zeroBackoff_remembersNothing() {
        var failures = RecentFailures(backoff: 0)
        failures.remember(error, for: identity, now: 0)
        XCTAssertNil(failures.failure(of: identity, now: 0))
    }

    func test_expiredFailures_areSwept_soTheTableStaysBounded() {
        // Given: 1 ns back-off, a new failure every nanosecond
        var failures = RecentFailures(backoff: 1e-9)
        // When
        for index in 0..<10_000 {
            failures.remember(error, for: .url("http://example.com/\(index)"), now: UInt64(index))
        }
        // Then
        XCTAssertLessThanOrEqual(failures.count, 64)
    }
}
