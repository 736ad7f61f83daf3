import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A ticket that leaves while its transfer's response is due (the request out for about the
/// host's measured latency, no headers yet) holds the transfer until the headers show how much
/// is to come: a small body finishes for the ticket, a large one is cut at its headers, and a
/// response that does not come is cut after a quarter of the latency.
final class DownloadHeldCancellationTests: DownloaderTestCase {
    /// The host's latency the downloader measures before each test: 0.4 s, so the hold lasts its
    /// longest, 100 ms.
    private let latency = 0.4

    /// Measures the host's latency, then starts `target` and waits until its response is due.
    private func downloadWhenDue(_ target: String) -> DownloadTicket {
        var first = HTTPScriptedResponse.ok(bytes(10))
        first.delayBeforeHeaders = latency
        server.respond(to: "/first.png", with: first)
        makeDownloader()
        download("/first.png")
        XCTAssertEqual(outcomes.outcome("/first.png")?.bytes, bytes(10))
        let ticket = download(target)
        Thread.sleep(forTimeInterval: latency * 1.05)
        return ticket
    }

    func test_aSmallBody_whoseResponseIsDue_finishesForTheTicket() {
        // Given: a response held back by the server until the ticket left
        var due = HTTPScriptedResponse.ok(bytes(20_000))
        due.gate = "due"
        server.respond(to: "/due.png", with: due)
        let ticket = downloadWhenDue("/due.png")
        // When
        downloader.cancel(ticket)
        server.openGate("due")
        // Then: sent once, and kept
        XCTAssertTrue(outcomes.outcome("/due.png")?.bytes == bytes(20_000), "the body did not finish for the ticket")
        XCTAssertEqual(server.statistics.responsesAbortedByClient, 0)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 0)
    }

    func test_aLargeBody_whoseResponseIsDue_isCutAtItsHeaders() {
        // Given
        var due = HTTPScriptedResponse.ok(bytes(cutBodyLength))
        due.gate = "due"
        due.drip = .init(bytesPerPiece: 1_000, interval: 0.02)
        server.respond(to: "/due.png", with: due)
        let ticket = downloadWhenDue("/due.png")
        // When
        downloader.cancel(ticket)
        server.openGate("due")
        // Then
        XCTAssertEqual(outcomes.outcome("/due.png")?.error, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertLessThan(server.statistics.bodyBytesSent, cutBodyLength)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 1)
    }

    func test_aResponseThatDoesNotCome_isCutAfterTheHold() {
        // Given
        var due = HTTPScriptedResponse.ok(bytes(20_000))
        due.gate = "never"
        server.respond(to: "/due.png", with: due)
        let ticket = downloadWhenDue("/due.png")
        // When
        let cancelled = Date()
        downloader.cancel(ticket)
        // Then
        XCTAssertEqual(outcomes.outcome("/due.png")?.error, .cancelled)
        XCTAssertGreaterThanOrEqual(
            Date().timeIntervalSince(cancelled), 0.09, "the hold lasts a quarter of the latency")
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 1)
    }

    func test_aTicketLeavingBeforeTheResponseIsDue_isCutAtOnce() {
        // Given
        var due = HTTPScriptedResponse.ok(bytes(20_000))
        due.gate = "never"
        server.respond(to: "/early.png", with: due)
        var first = HTTPScriptedResponse.ok(bytes(10))
        first.delayBeforeHeaders = latency
        server.respond(to: "/first.png", with: first)
        makeDownloader()
        download("/first.png")
        XCTAssertNotNil(outcomes.outcome("/first.png"))
        let ticket = download("/early.png")
        // When
        let cancelled = Date()
        downloader.cancel(ticket)
        // Then
        XCTAssertEqual(outcomes.outcome("/early.png")?.error, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 0.09)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
    }
}
