import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The counters add up: every started transfer completes, is cancelled or fails; queued
/// transfers that never started and remembered failures count for nothing.
final class DownloadStatisticsTests: DownloaderTestCase {
    func test_countersAddUp() {
        // Given
        // Held until both tickets for it exist: a transfer that finished before the second
        // ticket would make that ticket a second transfer (seen in CI on a loaded machine).
        var held = HTTPScriptedResponse.ok(bytes(100))
        held.gate = "a"
        server.respond(to: "/a.png", with: held)
        server.respond(to: "/b.png", with: .ok(bytes(250)))
        server.respond(to: "/missing.png", with: .status(404))
        var slow = HTTPScriptedResponse.ok(bytes(cutBodyLength))
        slow.drip = .init(bytesPerPiece: 10, interval: 0.02)
        server.respond(to: "/slow.png", with: slow)
        makeDownloader(maximumConcurrentDownloads: 1, failureBackoff: 10)

        // When: two bodies, one of them for two tickets
        download("/a.png", label: "a1")
        download("/a.png", label: "a2")
        download("/b.png")
        server.openGate("a")
        XCTAssertTrue(outcomes.wait(forCount: 3))
        // Then
        XCTAssertEqual(
            downloader.statistics,
            DownloadStatistics(downloadsStarted: 2, downloadsCompleted: 2, downloadsCancelled: 0, bytesDownloaded: 350))

        // When: a failure, asked for twice (the second answered from memory)
        download("/missing.png", label: "m1")
        XCTAssertNotNil(outcomes.outcome("m1"))
        download("/missing.png", label: "m2")
        XCTAssertNotNil(outcomes.outcome("m2"))
        // Then
        XCTAssertEqual(downloader.statistics.downloadsStarted, 3)
        XCTAssertEqual(downloader.statistics.downloadsCompleted, 2)

        // When: a transfer cancelled under way, and one cancelled in the queue behind it
        let running = download("/slow.png")
        let queued = download("/b.png", label: "queued")
        XCTAssertTrue(server.waitUntil { $0.bodyBytesSentByTarget["/slow.png", default: 0] >= 10 })
        downloader.cancel(queued)
        downloader.cancel(running)
        XCTAssertTrue(outcomes.wait(forCount: 7))
        // Then
        let statistics = downloader.statistics
        XCTAssertEqual(statistics.downloadsStarted, 4)
        XCTAssertEqual(statistics.downloadsCompleted, 2)
        XCTAssertEqual(statistics.downloadsCancelled, 1)
        XCTAssertEqual(statistics.downloadsStarted - statistics.downloadsCompleted - statistics.downloadsCancelled, 1)
        XCTAssertGreaterThanOrEqual(statistics.bytesDownloaded, 350)
        XCTAssertEqual(server.statistics.requests(to: "/b.png"), 1)
    }
}
