import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Thumbnails through the store: one live instance per file and output size, the full-size
/// instance when a thumbnail would not be smaller, cached by cost, loaded like any image.
final class ThumbnailTests: XCTestCase {
    private func makeThumbnailStore(
        _ directory: TestDirectory, policy: CachePolicy = .default, gates: [UInt8: DecodeGate] = [:]
    ) -> (ImageStore<Bitmap>, FakeDecoder) {
        let decoder = FakeDecoder(makesThumbnails: true, gates: gates)
        return (makeStore(policy: policy, directories: [directory.url], decoder: decoder), decoder)
    }

    func test_thumbnail_isSharedPerSize_acrossSpellingsAndPaths() throws {
        let directory = TestDirectory()
        let path = directory.write("photo.png", size: 1_000, fill: 1)
        let (store, decoder) = makeThumbnailStore(directory)

        let byName = try store.loadImage(named: "photo", maxPixelSize: 100)
        let byFileName = try store.loadImage(named: "photo.png", maxPixelSize: 100)
        let byPath = try store.loadImage(contentsOfFile: path, maxPixelSize: 100)
        let larger = try store.loadImage(named: "photo", maxPixelSize: 200)

        XCTAssertEqual(byName.width, 100)
        XCTAssertIdentical(byName, byFileName)
        XCTAssertIdentical(byName, byPath)
        XCTAssertEqual(larger.width, 200)
        XCTAssertNotIdentical(larger, byName)
        XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize), [100, 200])
    }

    func test_thumbnailNotSmallerThanTheImage_isTheFullSizeInstance() throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 1_000, fill: 1)
        let (store, decoder) = makeThumbnailStore(directory)
        let full = try store.loadImage(named: "photo")

        let same = try store.loadImage(named: "photo", maxPixelSize: 1_000)
        let larger = try store.loadImage(named: "photo", maxPixelSize: 5_000)

        XCTAssertIdentical(same, full)
        XCTAssertIdentical(larger, full)
        XCTAssertEqual(decoder.calls.count, 1, "a full-size duplicate was decoded")
    }

    func test_decoderWithoutThumbnails_servesTheFullSizeInstance() throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 1_000, fill: 1)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        let thumbnail = try store.loadImage(named: "photo", maxPixelSize: 10)
        let full = try store.loadImage(named: "photo")

        XCTAssertIdentical(thumbnail, full)
        XCTAssertEqual(thumbnail.width, 1_000)
        XCTAssertEqual(decoder.calls.count, 1)
    }

    func test_smallThumbnails_stayInTheLRU_whileTheFullImageIsHeldWeaklyOnly() throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 1_000, fill: 1)
        let policy = CachePolicy.weakWithLRU(costLimit: 10_000, countLimit: 10, admissionCostLimit: 256)
        let (store, decoder) = makeThumbnailStore(directory, policy: policy)

        weak let full = try store.loadImage(named: "photo")
        weak let thumbnail = try store.loadImage(named: "photo", maxPixelSize: 256)

        XCTAssertNil(full, "a full-size photo outlived its last user")
        XCTAssertNotNil(thumbnail, "the LRU let a small thumbnail go")
        XCTAssertEqual(store.statistics.strongCost, 256)
        XCTAssertNotNil(store.cachedImage(named: "photo", maxPixelSize: 256))
        XCTAssertNil(store.cachedImage(named: "photo"))
        XCTAssertEqual(decoder.calls.count, 2)
    }

    func test_asyncThumbnails_coalesce_andAreKeyedApartFromTheFullImage() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 1_000, fill: 1)
        let gate = DecodeGate()
        let (store, decoder) = makeThumbnailStore(directory, gates: [1: gate])

        let first = Task { try await store.fetchImage(named: "photo", maxPixelSize: 64) }
        let second = Task { try await store.fetchImage(named: "photo", maxPixelSize: 64, priority: .high) }
        let full = Task { try await store.fetchImage(named: "photo") }
        XCTAssertTrue(eventually { gate.arrived == 2 && store.statistics.lookups == 3 }, "\(store.statistics)")
        let syncThumbnail = Lock<Bitmap?>(nil)
        let syncCaller = Thread { syncThumbnail.withLock { $0 = store.image(named: "photo", maxPixelSize: 64) } }
        syncCaller.start()
        XCTAssertTrue(eventually { store.statistics.lookups == 4 })
        gate.open()

        let thumbnail = try await first.value
        let secondThumbnail = try await second.value
        let fullImage = try await full.value
        XCTAssertTrue(eventually { syncThumbnail.withLock { $0 } != nil })

        XCTAssertIdentical(thumbnail, secondThumbnail)
        XCTAssertIdentical(thumbnail, syncThumbnail.withLock { $0 })
        XCTAssertEqual(thumbnail.width, 64)
        XCTAssertEqual(fullImage.width, 1_000)
        XCTAssertEqual(decoder.calls.count, 2)
        let statistics = store.statistics
        XCTAssertEqual(statistics.decodes, 2)
        XCTAssertEqual(
            statistics.lookups,
            statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads)
    }

    func test_queuedThumbnail_isCancelledWithItsLastWaiter() async throws {
        let directory = TestDirectory()
        directory.write("blocker.png", size: 10, fill: 1)
        directory.write("photo.png", size: 1_000, fill: 2)
        let gate = DecodeGate()
        let decoder = FakeDecoder(makesThumbnails: true, gates: [1: gate])
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        let blocker = Task { try await store.fetchImage(named: "blocker") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let thumbnail = Task { try await store.fetchImage(named: "photo", maxPixelSize: 50) }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 })

        thumbnail.cancel()
        let result = await thumbnail.result
        gate.open()
        _ = try await blocker.value

        guard case .failure(let error as ImageStoreError) = result else { return XCTFail("not cancelled") }
        XCTAssertEqual(error, .cancelled)
        XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 1)
        XCTAssertEqual(decoder.log.fills, [1])
    }

    func test_pixelSize_isReadOncePerFile() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 1_000, fill: 1)
        let (store, _) = makeThumbnailStore(directory)

        _ = try await store.fetchImage(named: "photo", maxPixelSize: 100)
        XCTAssertNil(store.cachedImage(named: "photo", maxPixelSize: 300), "not loaded yet")
        directory.remove("photo.png")
        // The file is gone, but the store knows the size, hence the key, hence the thumbnail.
        XCTAssertNotNil(store.cachedImage(named: "photo", maxPixelSize: 100))
        XCTAssertEqual(
            store.engine._withState {
                $0.memory.pixelSizes[.file(FileSystem.realPath(directory.path)! + "/photo.png")]
            },
            .known(PixelSize(width: 1_000, height: 1)))
    }

    func test_missingFile_failsTheThumbnail_withNotFound() {
        let directory = TestDirectory()
        let (store, _) = makeThumbnailStore(directory)

        XCTAssertThrowsError(try store.loadImage(named: "absent", maxPixelSize: 10)) { error in
            XCTAssertNotFound(error, name: "absent")
        }
    }
}
