import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transfer is held to a deadline and a minimum rate: a server that trickles its body, or
/// takes too long, loses its slot to the next transfer and its waiters get a typed error.
final class DownloadStallTests: DownloaderTestCase {
    /// Makes ``downloader`` with short pace limits.
    private func makeStrictDownloader(
        maximumConcurrentDownloads: Int = 6, transferTimeout: TimeInterval = 30, minimumBytesPerWindow: Int = 0,
        transferRateWindow: TimeInterval = 0.4
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 20
        downloader = ImageDownloader(
            configuration: configuration, maximumConcurrentDownloads: maximumConcurrentDownloads,
            maximumResponseSize: 1 << 20, failureBackoff: 0, transferTimeout: transferTimeout,
            minimumBytesPerWindow: minimumBytesPerWindow, transferRateWindow: transferRateWindow,
            temporaryDirectory: bodies.url)
    }

    func test_aTricklingServer_isCutOff_andTheNextTransferGetsTheSlot() {
        // Given: one slot; a body of 4 000 bytes sent a byte every 20 ms (80 s in all), well
        // under 1 000 bytes per 0.4 s; the request timeout (20 s) never fires
        var trickle = HTTPScriptedResponse.ok(bytes(4_000))
        trickle.drip = .init(bytesPerPiece: 1, interval: 0.02)
        server.respond(to: "/trickle.png", with: trickle)
        server.respond(to: "/next.png", with: .ok([9]))
        makeStrictDownloader(maximumConcurrentDownloads: 1, minimumBytesPerWindow: 1_000)
        // When
        download("/trickle.png", priority: .high)
        download("/next.png", priority: .low)
        // Then
        let error = outcomes.outcome("/trickle.png", timeout: 15)?.error
        guard case .downloadFailed(let url, let reason) = error else {
            return XCTFail("expected downloadFailed, got \(String(describing: error))")
        }
        XCTAssertEqual(url, server.url("/trickle.png"))
        XCTAssertTrue(reason.contains("fewer than the minimum of 1000"), reason)
        XCTAssertEqual(outcomes.outcome("/next.png", timeout: 15)?.bytes, [9])
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
        XCTAssertLessThan(server.statistics.bodyBytesSentByTarget["/trickle.png"] ?? 0, 4_000)
    }

    func test_aTransferOverItsDeadline_isCutOff_evenBeforeItsHeaders() {
        // Given: headers after 3 s, a deadline of 0.5 s, a request timeout of 20 s
        var late = HTTPScriptedResponse.ok([1])
        late.delayBeforeHeaders = 3
        server.respond(to: "/late.png", with: late)
        makeStrictDownloader(transferTimeout: 0.5)
        // When
        download("/late.png")
        // Then
        XCTAssertEqual(
            outcomes.outcome("/late.png", timeout: 15)?.error,
            .downloadFailed(server.url("/late.png"), reason: "the transfer took longer than the limit of 0.5 s"))
        XCTAssertTrue(server.waitForAbortedResponses(count: 1))
    }

    func test_aSteadyTransfer_isNotCutOff() {
        // Given: 2 000 bytes in 40 pieces every 10 ms, 50 bytes each: 2 000 bytes a window
        var steady = HTTPScriptedResponse.ok(bytes(2_000))
        steady.drip = .init(bytesPerPiece: 50, interval: 0.01)
        server.respond(to: "/steady.png", with: steady)
        makeStrictDownloader(minimumBytesPerWindow: 100)
        // When
        download("/steady.png")
        // Then
        XCTAssertEqual(outcomes.outcome("/steady.png", timeout: 15)?.bytes, bytes(2_000))
    }
}
