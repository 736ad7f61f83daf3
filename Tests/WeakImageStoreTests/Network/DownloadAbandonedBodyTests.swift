import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A transfer cancelled too late to stop it (on Linux a task's cancellation takes effect some
/// milliseconds after `cancel()`): a body that arrives whole is kept, not dropped.
final class DownloadAbandonedBodyTests: DownloaderTestCase {
    func test_aBodyThatArrivesWholeAfterItsLastTicketLeft_isKept() throws {
        // Given: a transfer under way, the session's queue held so its cancellation cannot end it
        var held = HTTPScriptedResponse.ok(bytes(10))
        held.gate = "never"
        server.respond(to: "/late.png", with: held)
        makeDownloader()
        let kept = outcomes.recorder("kept")
        let ticket = downloader.download(
            source("/late.png"), keepsAbandonedBody: { kept(.success($0)) }, priority: .normal,
            completion: outcomes.recorder("ticket"))
        XCTAssertTrue(server.waitUntil { $0.requests(to: "/late.png") == 1 })
        let queueHeld = DispatchSemaphore(value: 0)
        let releaseQueue = DispatchSemaphore(value: 0)
        downloader.sessionDelegate.queue.queue.async {
            queueHeld.signal()
            releaseQueue.wait()
        }
        queueHeld.wait()
        defer { releaseQueue.signal() }
        downloader.cancel(ticket)
        XCTAssertEqual(outcomes.outcome("ticket")?.error, .cancelled)
        let task = try XCTUnwrap(downloader.abandonedTaskIdentifiers.first)
        // When: the session reports the body whole anyway
        let body = DownloadResponse(content: .body(Data([1, 2, 3])), headers: [:], requestTime: 0, responseTime: 0)
        downloader.transferEnded(taskIdentifier: task, with: .finished(.success(body), keeping: nil, resumedBytes: 0))
        // Then
        XCTAssertEqual(outcomes.outcome("kept")?.bytes, [1, 2, 3])
        XCTAssertEqual(outcomes.calls("ticket"), 1, "the ticket got its cancellation only")
        XCTAssertEqual(downloader.abandonedTaskIdentifiers, [])
    }
}
