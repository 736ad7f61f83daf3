import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Many threads download, cancel and reprioritize at random over URLs that succeed, fail, drip
/// or stall: every ticket is called back exactly once, the schedule's tables agree throughout,
/// the counters add up, and no file is left.
final class DownloadStressTests: DownloaderTestCase {
    func test_randomMixFromManyThreads_callsEveryTicketBackOnce() {
        // Given: 24 URLs of four kinds
        for index in 0..<24 {
            var response: HTTPScriptedResponse
            switch index % 4 {
            case 0: response = .ok(bytes(500 + index))
            case 1: response = .status(404)
            case 2:
                response = .ok(bytes(2_000))
                response.drip = .init(bytesPerPiece: 500, interval: 0.005)
            default:
                response = .ok(bytes(300))
                response.closeAfterBodyBytes = 100
            }
            server.respond(to: "/\(index)", with: response)
        }
        let downloader = makeDownloader(maximumConcurrentDownloads: 3, failureBackoff: 0.05)
        let outcomes = outcomes!
        let sources = (0..<24).map { source("/\($0)") }
        let threads = 8
        let operations = 60
        // When
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SeededGenerator(seed: UInt64(thread + 1))
            var mine: [DownloadTicket] = []
            for operation in 0..<operations {
                let label = "\(thread)-\(operation)"
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6:
                    let source = sources[Int.random(in: 0..<sources.count, using: &random)]
                    let priority = ImageLoadPriority.allCases.randomElement(using: &random)!
                    mine.append(downloader.download(source, priority: priority, completion: outcomes.recorder(label)))
                case 6..<8 where !mine.isEmpty:
                    downloader.cancel(mine.remove(at: Int.random(in: 0..<mine.count, using: &random)))
                case 8..<10 where !mine.isEmpty:
                    let priority = ImageLoadPriority.allCases.randomElement(using: &random)!
                    downloader.setPriority(priority, of: mine[Int.random(in: 0..<mine.count, using: &random)])
                default:
                    break
                }
                if operation % 10 == 0 { downloader._checkInvariants() }
            }
        }
        // Then
        let asked = outcomes.expectedCount
        XCTAssertTrue(outcomes.wait(forCount: asked, timeout: 15), "\(outcomes.completionOrder.count) of \(asked)")
        XCTAssertTrue(outcomes.labels.allSatisfy { outcomes.calls($0) == 1 }, "a ticket was called back twice")
        downloader._checkInvariants()
        XCTAssertTrue(waitUntilNoBodyFiles(), "\(bodyFiles())")
        let statistics = downloader.statistics
        XCTAssertLessThanOrEqual(
            statistics.downloadsCompleted + statistics.downloadsCancelled, statistics.downloadsStarted)
        XCTAssertLessThanOrEqual(server.statistics.totalRequests, statistics.downloadsStarted)
        for body in outcomes.all.compactMap(\.bytes) {
            XCTAssertTrue([2_000].contains(body.count) || (500..<524).contains(body.count), "\(body.count) bytes")
        }
    }
}
