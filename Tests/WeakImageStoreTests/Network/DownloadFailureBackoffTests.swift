import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A URL that failed is not requested again for the back-off: new tickets get its error at once,
/// off the caller's stack. Cancellation is not a failure.
final class DownloadFailureBackoffTests: DownloaderTestCase {
    func test_withinTheBackoff_aNewTicketGetsTheRememberedError_withoutARequest() {
        // Given
        server.respond(to: "/missing.png", with: .status(404))
        makeDownloader(failureBackoff: 10)
        download("/missing.png", label: "first")
        let error = ImageStoreError.httpStatus(server.url("/missing.png"), code: 404)
        XCTAssertEqual(outcomes.outcome("first")?.error, error)
        // When
        download("/missing.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.error, error)
        XCTAssertEqual(server.statistics.requests(to: "/missing.png"), 1)
        XCTAssertEqual(downloader.statistics.downloadsStarted, 1)
    }

    func test_afterTheBackoff_theURLIsRequestedAgain() {
        // Given
        server.respond(to: "/flaky.png", withSequence: [.status(503), .ok([1])])
        makeDownloader(failureBackoff: 0.2)
        download("/flaky.png", label: "first")
        XCTAssertEqual(outcomes.outcome("first")?.error, .httpStatus(server.url("/flaky.png"), code: 503))
        let failedAt = Date()
        // When: past the back-off (a deadline, not a guess: the back-off is the downloader's clock)
        Thread.sleep(until: failedAt.addingTimeInterval(0.25))
        download("/flaky.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, [1])
        XCTAssertEqual(server.statistics.requests(to: "/flaky.png"), 2)
    }

    func test_zeroBackoff_remembersNothing() {
        // Given
        server.respond(to: "/flaky.png", withSequence: [.status(503), .ok([1])])
        makeDownloader(failureBackoff: .zero)
        download("/flaky.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first")?.error)
        // When
        download("/flaky.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, [1])
        XCTAssertEqual(server.statistics.requests(to: "/flaky.png"), 2)
    }

    func test_aCancelledTransfer_isNotRemembered() {
        // Given
        var held = HTTPScriptedResponse.ok([1])
        held.gate = "go"
        server.respond(to: "/a.png", with: held)
        makeDownloader(failureBackoff: 10)
        let ticket = download("/a.png", label: "first")
        XCTAssertTrue(server.waitForRequests(to: "/a.png", count: 1))
        downloader.cancel(ticket)
        XCTAssertEqual(outcomes.outcome("first")?.error, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        // When
        download("/a.png", label: "second")
        server.openGate("go")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, [1])
        XCTAssertEqual(server.statistics.requests(to: "/a.png"), 2)
    }

    func test_rememberedError_isNeverDeliveredOnTheCallersStack() {
        // Given
        server.respond(to: "/missing.png", with: .status(404))
        makeDownloader(failureBackoff: 10)
        download("/missing.png", label: "first")
        XCTAssertNotNil(outcomes.outcome("first"))
        // When: the test runs on the main thread, so a call on the caller's stack would be there too
        XCTAssertTrue(Thread.isMainThread)
        let delivered = expectation(description: "remembered error")
        _ = downloader.download(source("/missing.png"), priority: .normal) { result in
            XCTAssertFalse(Thread.isMainThread, "called back on the caller's stack")
            XCTAssertNotNil(result.error)
            delivered.fulfill()
        }
        // Then
        wait(for: [delivered], timeout: 5)
    }

    func test_otherURLs_areNotAffected() {
        // Given
        server.respond(to: "/missing.png", with: .status(404))
        server.respond(to: "/fine.png", with: .ok([1]))
        makeDownloader(failureBackoff: 10)
        download("/missing.png")
        XCTAssertNotNil(outcomes.outcome("/missing.png")?.error)
        // When
        download("/fine.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/fine.png")?.bytes, [1])
    }
}
