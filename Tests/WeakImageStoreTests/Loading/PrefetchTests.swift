import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A prefetch loads in the background and keeps its images alive, large ones included, until it
/// is cancelled or released.
final class PrefetchTests: XCTestCase {
    /// An LRU that admits images of at most 100 bytes: the test photos are held weakly only.
    private static let smallLRU = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_prefetch_keepsLargeImagesAlive_untilCancelled() async throws {
        let directory = TestDirectory()
        directory.write("photo1.png", size: 5_000, fill: 1)
        directory.write("photo2.png", size: 6_000, fill: 2)
        let decoder = FakeDecoder()
        // The LRU admits nothing this large: only the prefetch can keep the photos alive.
        let store = makeStore(policy: Self.smallLRU, directories: [directory.url], decoder: decoder)
        let liveBefore = Bitmap.memory.liveBytes

        let prefetch = store.prefetch(named: ["photo1", "photo2", "absent"])
        await prefetch.finished()

        XCTAssertEqual(
            prefetch.progress, ImagePrefetch.Progress(total: 3, loaded: 2, failed: 1, isCancelled: false))
        XCTAssertEqual(Array(prefetch.failures.keys), ["absent"])
        XCTAssertNotFound(prefetch.failures["absent"], name: "absent")
        XCTAssertEqual(prefetch.loadedImages.count, 2)
        let photo = try XCTUnwrap(store.cachedImage(named: "photo1"), "a prefetched photo was freed")
        XCTAssertIdentical(prefetch.loadedImages["photo1"] as? Bitmap, photo)
        XCTAssertEqual(Bitmap.memory.liveBytes - liveBefore, 11_000)

        prefetch.cancel()

        XCTAssertNotNil(store.cachedImage(named: "photo1"), "an image someone holds stays shared")
        XCTAssertTrue(
            eventually { store.cachedImage(named: "photo2") == nil }, "cancel did not release the prefetched photo")
        XCTAssertTrue(prefetch.loadedImages.isEmpty)
        XCTAssertTrue(prefetch.progress.isCancelled)
        XCTAssertEqual(decoder.calls.count, 2)
    }

    func test_releasingThePrefetch_releasesItsImages() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 5_000, fill: 1)
        let store = makeStore(policy: Self.smallLRU, directories: [directory.url])
        var prefetch: ImagePrefetch? = store.prefetch(named: ["photo"])
        await prefetch?.finished()
        XCTAssertNotNil(store.cachedImage(named: "photo"))

        prefetch = nil

        // The loading thread that delivered the photo lets go of it a moment after delivering.
        XCTAssertTrue(eventually { store.cachedImage(named: "photo") == nil }, "the photo outlived its prefetch")
    }

    func test_cancel_dropsQueuedLoads_andVisibleRequestsOvertakePrefetches() async throws {
        let directory = TestDirectory()
        directory.write("blocker.png", size: 10, fill: 1)
        directory.write("ahead1.png", size: 20, fill: 2)
        directory.write("ahead2.png", size: 30, fill: 3)
        directory.write("visible.png", size: 40, fill: 4)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [1: gate])
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        let blocker = Task { try await store.fetchImage(named: "blocker") }
        XCTAssertTrue(eventually { gate.arrived == 1 })

        let farAhead = store.prefetch(named: ["ahead1", "ahead2"], priority: .low)
        let visible = Task { try await store.fetchImage(named: "visible", priority: .normal) }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 4 })
        farAhead.cancel()
        gate.open()
        _ = try await blocker.value
        _ = try await visible.value

        XCTAssertEqual(decoder.log.fills, [1, 4])
        XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 2)
        XCTAssertEqual(store.statistics.waitersCancelled, 2)
        XCTAssertTrue(farAhead.progress.isFinished)
    }

    func test_prefetchOfImagesInMemory_finishesAtOnce() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10, fill: 1)
        let store = makeStore(directories: [directory.url])
        let icon = try store.loadImage(named: "icon")

        let prefetch = store.prefetch(named: ["icon"])

        XCTAssertTrue(prefetch.progress.isFinished)
        XCTAssertIdentical(prefetch.loadedImages["icon"] as? Bitmap, icon)
        XCTAssertEqual(store.statistics.loadsScheduled, 0)
    }
}
