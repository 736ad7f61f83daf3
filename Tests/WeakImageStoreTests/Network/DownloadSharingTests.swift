import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// One transfer per URL identity: tickets that ask for the same bytes share it, and each gets
/// the result once.
final class DownloadSharingTests: DownloaderTestCase {
    func test_hundredConcurrentTickets_forOneURL_shareOneTransfer() {
        // Given: a response held until every ticket has asked
        var response = HTTPScriptedResponse.ok(bytes(1_000))
        response.gate = "go"
        server.respond(to: "/shared.png", with: response)
        let downloader = makeDownloader()
        let source = source("/shared.png")
        let outcomes = outcomes!
        // When: 100 tickets from as many threads as Dispatch gives
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            _ = downloader.download(source, priority: .normal, completion: outcomes.recorder("\(index)"))
        }
        server.openGate("go")
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 100))
        XCTAssertEqual(server.statistics.requests(to: "/shared.png"), 1)
        for index in 0..<100 {
            XCTAssertEqual(outcomes.outcome("\(index)")?.bytes, bytes(1_000), "ticket \(index)")
            XCTAssertEqual(outcomes.calls("\(index)"), 1, "ticket \(index)")
        }
        XCTAssertEqual(downloader.statistics.downloadsStarted, 1)
        XCTAssertEqual(downloader.statistics.downloadsCompleted, 1)
    }

    func test_spellingsOfOneURL_andOneCacheKey_shareATransfer() {
        // Given
        var response = HTTPScriptedResponse.ok([1, 2, 3])
        response.gate = "go"
        server.respond(to: "/a.png", with: response)
        makeDownloader()
        let canonical = server.url("/a.png")
        let shouted = URL(string: "HTTP://127.0.0.1:\(server.port)/a.png#top")!
        // When
        _ = downloader.download(
            URLSource(canonical, cacheKey: nil), priority: .normal, completion: outcomes.recorder("1"))
        _ = downloader.download(
            URLSource(shouted, cacheKey: nil), priority: .normal, completion: outcomes.recorder("2"))
        server.respond(to: "/b.png", with: response)
        _ = downloader.download(
            URLSource(server.url("/b.png"), cacheKey: "avatar"), priority: .normal, completion: outcomes.recorder("3"))
        _ = downloader.download(
            URLSource(server.url("/b.png?v=2"), cacheKey: "avatar"), priority: .normal,
            completion: outcomes.recorder("4"))
        server.openGate("go")
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 4))
        XCTAssertEqual(server.statistics.totalRequests, 2)
        XCTAssertEqual(outcomes.all.compactMap(\.bytes), Array(repeating: [1, 2, 3], count: 4))
    }

    func test_aTicketAfterTheTransferEnded_startsANewOne_nothingIsKept() {
        // Given
        server.respond(to: "/a.png", with: .ok([7]))
        makeDownloader()
        download("/a.png", label: "first")
        XCTAssertEqual(outcomes.outcome("first")?.bytes, [7])
        downloader.waitForDeliveries()
        // When
        download("/a.png", label: "second")
        // Then
        XCTAssertEqual(outcomes.outcome("second")?.bytes, [7])
        XCTAssertEqual(server.statistics.requests(to: "/a.png"), 2)
    }

    func test_aTicketWhileTheBodyIsDelivered_getsTheSameResponse_notASecondTransfer() {
        // Given: a transfer over, its first completion still running (a disk write)
        server.respond(to: "/a.png", with: .ok(bytes(500)))
        makeDownloader()
        let firstRuns = DispatchSemaphore(value: 0)
        let firstMayEnd = DispatchSemaphore(value: 0)
        let recordFirst = outcomes.recorder("first")
        _ = downloader.download(source("/a.png"), priority: .normal) { result in
            firstRuns.signal()
            firstMayEnd.wait()
            recordFirst(result)
        }
        XCTAssertEqual(firstRuns.wait(timeout: .now() + 5), .success)
        // When
        download("/a.png", label: "second")
        firstMayEnd.signal()
        // Then
        XCTAssertEqual(outcomes.outcome("first")?.bytes, bytes(500))
        XCTAssertEqual(outcomes.outcome("second")?.bytes, bytes(500))
        XCTAssertEqual(server.statistics.requests(to: "/a.png"), 1, "sent again while the first was being stored")
        XCTAssertEqual(downloader.statistics.downloadsStarted, 1)
    }

    func test_aFailure_reachesEveryTicket() {
        // Given
        var response = HTTPScriptedResponse.status(503)
        response.gate = "go"
        server.respond(to: "/down.png", with: response)
        makeDownloader()
        // When
        for index in 0..<5 { download("/down.png", label: "\(index)") }
        server.openGate("go")
        // Then
        XCTAssertTrue(outcomes.wait(forCount: 5))
        for index in 0..<5 {
            XCTAssertEqual(outcomes.outcome("\(index)")?.error, .httpStatus(server.url("/down.png"), code: 503))
        }
        XCTAssertEqual(server.statistics.requests(to: "/down.png"), 1)
    }
}
