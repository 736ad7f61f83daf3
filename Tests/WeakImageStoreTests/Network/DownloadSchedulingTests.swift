import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The downloader's own queue: at most `maximumConcurrentDownloads` transfers at once, as the
/// server sees them; queued transfers start by the highest priority among their tickets, the
/// newest first within a priority.
final class DownloadSchedulingTests: DownloaderTestCase {
    func test_transfersUnderWay_neverExceedTheLimit() {
        // Given: responses that take a while, on connections that close after them
        for index in 0..<8 {
            var response = HTTPScriptedResponse.ok([UInt8(index)])
            response.delayBeforeHeaders = 0.05
            response.closesConnection = true
            server.respond(to: "/\(index).png", with: response)
        }
        makeDownloader(maximumConcurrentDownloads: 2)
        // When
        for index in 0..<8 { download("/\(index).png") }
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 8))
        XCTAssertEqual(outcomes.all.compactMap(\.bytes).count, 8)
        XCTAssertEqual(server.statistics.totalRequests, 8)
        XCTAssertLessThanOrEqual(server.statistics.mostConcurrentConnections, 2)
    }

    /// Starts a transfer that holds the only slot until the gate `"blocker"` opens.
    private func occupyTheOnlySlot() {
        var response = HTTPScriptedResponse.ok([0])
        response.gate = "blocker"
        server.respond(to: "/blocker", with: response)
        makeDownloader(maximumConcurrentDownloads: 1)
        download("/blocker")
        XCTAssertTrue(server.waitForRequests(to: "/blocker", count: 1))
    }

    /// The targets in the order the server received them, after the blocker, once `count` more
    /// were answered.
    private func startOrder(count: Int) -> [String] {
        server.openGate("blocker")
        XCTAssertTrue(server.waitUntil { $0.completedResponses == count + 1 })
        return server.receivedRequests.map(\.target).filter { $0 != "/blocker" }
    }

    func test_queuedTransfers_startByPriority_newestFirstWithinAPriority() {
        // Given
        occupyTheOnlySlot()
        for target in ["/a", "/b", "/c", "/d", "/e"] { server.respond(to: target, with: .ok([1])) }
        // When
        download("/a", priority: .low)
        download("/b", priority: .normal)
        download("/c", priority: .low)
        download("/d", priority: .normal)
        download("/e", priority: .high)
        // Then
        XCTAssertEqual(startOrder(count: 5), ["/e", "/d", "/b", "/c", "/a"])
    }

    func test_raisingATicketsPriority_movesItsTransferAhead() {
        // Given
        occupyTheOnlySlot()
        for target in ["/a", "/b", "/c"] { server.respond(to: target, with: .ok([1])) }
        let a = download("/a", priority: .low)
        download("/b", priority: .normal)
        download("/c", priority: .normal)
        // When
        downloader.setPriority(.veryHigh, of: a)
        // Then
        XCTAssertEqual(startOrder(count: 3), ["/a", "/c", "/b"])
    }

    func test_aJoiningTicket_liftsTheTransferToItsPriority_andLeavingDropsItAgain() {
        // Given
        occupyTheOnlySlot()
        for target in ["/a", "/b", "/c"] { server.respond(to: target, with: .ok([1])) }
        download("/a", label: "a-low", priority: .low)
        download("/b", priority: .normal)
        download("/c", priority: .low)
        let urgent = download("/c", label: "c-high", priority: .high)
        // When: /a is joined at high priority; /c's high ticket leaves again
        download("/a", label: "a-high", priority: .high)
        downloader.cancel(urgent)
        // Then
        XCTAssertEqual(startOrder(count: 3), ["/a", "/b", "/c"])
    }
}
