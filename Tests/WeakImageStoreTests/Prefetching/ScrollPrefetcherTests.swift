import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The prefetcher keeps the planned rows' images alive, cancels rows that fall out of range, and
/// plans by what the store measured.
final class ScrollPrefetcherTests: XCTestCase {
    private func makeRows(_ count: Int) -> (TestDirectory, ImageStore<Bitmap>) {
        let directory = TestDirectory()
        for row in 0..<count { directory.write("row\(row).png", size: 4_000, fill: UInt8(row % 250)) }
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.policy = .weak
        return (directory, ImageStore(configuration))
    }

    func test_visibleRows_prefetchTheRowsAhead_andHoldTheirImages() throws {
        let (directory, store) = makeRows(30)
        let prefetcher = ScrollPrefetcher(store: store, rowCount: 30) { [.named("row\($0)")] }

        prefetcher.visibleRowsChanged(0..<4, at: 0)

        let plan = try XCTUnwrap(prefetcher.plan)
        XCTAssertEqual(Set(prefetcher.prefetchedRows), Set(plan.rows.map(\.index)))
        XCTAssertTrue(prefetcher.prefetchedRows.contains(5), "two rows ahead of a still list")
        XCTAssertTrue(
            eventually { prefetcher.heldImages.count == plan.rows.count }, "the planned rows' images did not load")
        XCTAssertNotNil(store.cachedImage(named: "row5"), "a prefetched row shows in the frame it appears")
        _ = directory
    }

    func test_rowsBehind_areCancelled_andTheirImagesFreed() {
        let (directory, store) = makeRows(30)
        let prefetcher = ScrollPrefetcher(store: store, rowCount: 30) { [.named("row\($0)")] }
        prefetcher.visibleRowsChanged(0..<4, at: 0)
        XCTAssertTrue(eventually { store.cachedImage(named: "row1") != nil })

        prefetcher.visibleRowsChanged(20..<24, at: 5)

        XCTAssertFalse(prefetcher.prefetchedRows.contains(1))
        XCTAssertTrue(prefetcher.prefetchedRows.contains(22))
        XCTAssertTrue(eventually { store.cachedImage(named: "row1") == nil }, "a row left behind kept its image")
        prefetcher.cancelAll()
        XCTAssertTrue(prefetcher.prefetchedRows.isEmpty)
        _ = directory
    }

    func test_rowsReportedOneByOne_makeTheVisibleSpan() throws {
        let (directory, store) = makeRows(30)
        let prefetcher = ScrollPrefetcher(store: store, rowCount: 30) { [.named("row\($0)")] }

        for row in 10..<14 { prefetcher.rowAppeared(row) }
        prefetcher.rowDisappeared(10)

        let plan = try XCTUnwrap(prefetcher.plan)
        XCTAssertEqual(plan.rows.prefix(3).map(\.index), [11, 12, 13])
        prefetcher.rowDisappeared(11)
        prefetcher.rowDisappeared(12)
        prefetcher.rowDisappeared(13)
        XCTAssertEqual(prefetcher.plan?.rows.first?.index, 13, "the last row leaving keeps the plan")
        _ = directory
    }

    func test_loadEstimate_measuresDecodes() async throws {
        let (directory, store) = makeRows(3)
        XCTAssertNil(store.loadEstimate(for: .named("row0")).decodeSeconds)

        _ = try await store.fetchImage(named: "row0")
        _ = try await store.fetchImage(named: "row1")

        let estimate = store.loadEstimate(for: .named("row2"))
        XCTAssertEqual(estimate.decodes, 2)
        XCTAssertNotNil(estimate.decodeSeconds)
        XCTAssertNil(estimate.latency, "a file has no transfer")
        XCTAssertFalse(estimate.comesOverNetwork)
        XCTAssertEqual(estimate.secondsToImage(), try XCTUnwrap(estimate.decodeSeconds), "no transfer time is assumed")
        _ = directory
    }

    func test_loadEstimate_measuresTransfersPerHost() async throws {
        let server = try LoopbackHTTPServer()
        defer { _ = server.stop() }
        var response = HTTPScriptedResponse.ok([UInt8](repeating: 9, count: 200_000))
        response.delayBeforeHeaders = 0.05
        server.respond(to: "/photo", with: response)
        var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: FakeDecoder())
        configuration.downloader = ImageDownloader(failureBackoff: 0)
        let store = ImageStore(configuration)

        _ = try await store.fetchImage(for: .url(server.url("/photo")))

        let estimate = store.loadEstimate(for: .url(server.url("/other")))
        XCTAssertEqual(estimate.transfers, 1)
        XCTAssertTrue(estimate.comesOverNetwork)
        XCTAssertEqual(try XCTUnwrap(estimate.latency), 0.05, accuracy: 0.5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(estimate.latency), 0.05)
        XCTAssertEqual(try XCTUnwrap(estimate.bytesPerImage), 200_000)
        XCTAssertEqual(store.loadEstimate(for: .url(URL(string: "http://elsewhere.invalid/x")!)).transfers, 0)
    }
}
