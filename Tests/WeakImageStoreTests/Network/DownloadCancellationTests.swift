import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Cancellation reaches the socket: a running transfer whose last ticket leaves is cancelled
/// there, a queued one never reaches the server, and a ticket that leaves gets `.cancelled` once.
final class DownloadCancellationTests: DownloaderTestCase {
    func test_lastTicketLeaving_closesTheConnection_andTheCompletionGetsCancelled() {
        // Given: a body that takes minutes to drip
        var response = HTTPScriptedResponse.ok(bytes(cutBodyLength))
        response.drip = .init(bytesPerPiece: 10, interval: 0.02)
        server.respond(to: "/slow.png", with: response)
        makeDownloader()
        let ticket = download("/slow.png")
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSent >= 10 })
        // When
        downloader.cancel(ticket)
        // Then
        XCTAssertEqual(outcomes.outcome("/slow.png")?.error, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertEqual(server.statistics.completedResponses, 0)
        XCTAssertLessThan(server.statistics.bodyBytesSent, cutBodyLength)
        XCTAssertTrue(waitUntilNoBodyFiles(), "nothing received is kept: \(bodyFiles())")
        XCTAssertEqual(outcomes.calls("/slow.png"), 1)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 1)
    }

    func test_oneOfTwoTicketsLeaving_keepsTheTransfer() {
        // Given
        var response = HTTPScriptedResponse.ok([1, 2, 3])
        response.gate = "go"
        server.respond(to: "/a.png", with: response)
        makeDownloader()
        let leaving = download("/a.png", label: "leaving")
        download("/a.png", label: "staying")
        XCTAssertTrue(server.waitForRequests(to: "/a.png", count: 1))
        // When
        downloader.cancel(leaving)
        server.openGate("go")
        // Then
        XCTAssertEqual(outcomes.outcome("leaving")?.error, .cancelled)
        XCTAssertEqual(outcomes.outcome("staying")?.bytes, [1, 2, 3])
        XCTAssertEqual(server.statistics.responsesAbortedByClient, 0)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 0)
    }

    func test_200Started_190CancelledBeforeTheirTurn_reachTheServerAtMost16Times() {
        // Given: every response held, so the first 6 transfers keep their slots
        for index in 0..<200 {
            var response = HTTPScriptedResponse.ok([UInt8(index % 256)])
            response.gate = "go"
            server.respond(to: "/\(index).png", with: response)
        }
        makeDownloader(maximumConcurrentDownloads: 6)
        let tickets = (0..<200).map { download("/\($0).png") }
        // When: all but the first 10 leave before their turn
        for ticket in tickets[10...] { downloader.cancel(ticket) }
        server.openGate("go")
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 200))
        XCTAssertLessThanOrEqual(server.statistics.totalRequests, 16)
        XCTAssertEqual(server.statistics.totalRequests, 10)
        for index in 0..<10 { XCTAssertEqual(outcomes.outcome("/\(index).png")?.bytes, [UInt8(index)]) }
        for index in 10..<200 { XCTAssertEqual(outcomes.outcome("/\(index).png")?.error, .cancelled) }
        XCTAssertEqual(downloader.statistics.downloadsStarted, 10)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 0, "none was under way")
    }

    func test_cancellingAfterTheOutcome_doesNothing() {
        // Given
        server.respond(to: "/a.png", with: .ok([1]))
        makeDownloader()
        let ticket = download("/a.png")
        XCTAssertEqual(outcomes.outcome("/a.png")?.bytes, [1])
        // When
        downloader.cancel(ticket)
        downloader.cancel(ticket)
        // Then: nothing more is owed
        download("/a.png", label: "later")
        XCTAssertNotNil(outcomes.outcome("later"))
        XCTAssertEqual(outcomes.calls("/a.png"), 1)
        XCTAssertEqual(downloader.statistics.downloadsCancelled, 0)
    }

    func test_releasingTheDownloader_cancelsItsTransfers() {
        // Given
        var response = HTTPScriptedResponse.ok(bytes(2_000))
        response.drip = .init(bytesPerPiece: 10, interval: 0.02)
        server.respond(to: "/slow.png", with: response)
        makeDownloader()
        download("/slow.png")
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSent >= 10 })
        // When
        downloader = nil
        // Then
        XCTAssertEqual(outcomes.outcome("/slow.png")?.error, .cancelled)
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
    }
}
