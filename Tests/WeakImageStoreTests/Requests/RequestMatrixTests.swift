import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Every way of looking an image up works for every source — a name, a path, a `file:` URL, a
/// data provider: synchronous, throwing, memory-only and asynchronous lookups, thumbnails and the
/// statistics. Each test loops over ``SourceKind/allCases``.
final class RequestMatrixTests: XCTestCase {
    private static let lru = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_syncLookups_shareOneInstance_forEverySource_underEverySharingPolicy() throws {
        for policy in allPolicies {
            for kind in SourceKind.allCases {
                let directory = TestDirectory()
                let source = TestSource(kind, name: "icon", size: 40, fill: 3, in: directory)
                let decoder = FakeDecoder()
                let store = makeStore(policy: policy, directories: [directory.url], decoder: decoder)

                let first = try store.loadImage(for: source.request)
                let second = try XCTUnwrap(store.image(for: source.request), "\(policy) \(kind)")

                XCTAssertEqual(first.cost, 40, "\(policy) \(kind)")
                if case .uncached = policy {
                    XCTAssertNotIdentical(first, second, "\(kind)")
                    XCTAssertEqual(decoder.calls.count, 2, "\(kind)")
                } else {
                    XCTAssertIdentical(first, second, "\(policy) \(kind)")
                    XCTAssertEqual(decoder.calls.count, 1, "\(policy) \(kind)")
                    XCTAssertEqual(source.provider?.calls ?? 1, 1, "\(policy): a hit read the provider")
                }
            }
        }
    }

    func test_loadImage_throwsTheTypedError_ofBadBytes_forEverySource() {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let source = TestSource(kind, name: "broken", bytes: Array("FAIL here".utf8), in: directory)
            let decoder = FakeDecoder()
            let store = makeStore(directories: [directory.url], decoder: decoder)
            let reason = "fake decoder refused the file"
            let expected: ImageStoreError =
                kind == .provider
                ? .undecodable(source.request, reason: reason)
                : .decodingFailed(path: FileSystem.realPath(directory.path + "/broken.png")!, reason: reason)

            XCTAssertThrowsError(try store.loadImage(for: source.request), "\(kind)") { error in
                XCTAssertEqual(error as? ImageStoreError, expected, "\(kind)")
            }
            XCTAssertNil(store.image(for: source.request), "\(kind)")
            XCTAssertEqual(decoder.calls.count, 2, "\(kind): a failure was cached")
        }
    }

    func test_missingFile_failsAsTheOldMethodsDo_forEveryFileSource() {
        let directory = TestDirectory()
        let path = directory.path + "/absent.png"
        let store = makeStore(directories: [directory.url])
        func failure(_ lookUp: () throws(ImageStoreError) -> Bitmap) -> ImageStoreError? {
            do throws(ImageStoreError) {
                _ = try lookUp()
                return nil
            } catch {
                return error
            }
        }

        let byOldName = failure { () throws(ImageStoreError) -> Bitmap in try store.loadImage(named: "absent") }
        let byOldPath = failure { () throws(ImageStoreError) -> Bitmap in try store.loadImage(contentsOfFile: path) }
        let byName = failure { () throws(ImageStoreError) -> Bitmap in try store.loadImage(for: .named("absent")) }
        let byPath = failure { () throws(ImageStoreError) -> Bitmap in try store.loadImage(for: .file(path)) }
        let byURL = failure { () throws(ImageStoreError) -> Bitmap in
            try store.loadImage(for: .url(URL(fileURLWithPath: path)))
        }

        XCTAssertNotFound(byName, name: "absent")
        XCTAssertEqual(byName, byOldName)
        XCTAssertNotNil(byPath)
        XCTAssertEqual(byPath, byOldPath)
        XCTAssertEqual(byURL, byPath)
    }

    func test_cachedImage_answersFromMemoryOnly_andNeverWaits_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let source = TestSource(kind, name: "icon", size: 40, fill: 3, in: directory)
            let gate = DecodeGate()
            let decoder = FakeDecoder(gates: [3: gate])
            let store = makeStore(directories: [directory.url], decoder: decoder)
            XCTAssertNil(store.cachedImage(for: source.request), "\(kind)")
            XCTAssertNil(store.cachedImage(for: source.thumbnail(8)), "\(kind)")
            XCTAssertEqual(source.provider?.calls ?? 0, 0, "\(kind): a memory-only lookup read the provider")

            let loading = Task { try await store.fetchImage(for: source.request) }
            XCTAssertTrue(eventually { gate.arrived == 1 }, "\(kind)")
            let answered = DispatchSemaphore(value: 0)
            let whileLoading = Lock<Bitmap?>(nil)
            Thread {
                let result = store.cachedImage(for: source.request)
                whileLoading.withLock { $0 = result }
                answered.signal()
            }.start()
            XCTAssertEqual(answered.wait(timeout: .now() + 10), .success, "\(kind): cachedImage waited for a load")
            gate.open()
            let image = try await loading.value

            XCTAssertNil(whileLoading.withLock { $0 }, "\(kind)")
            XCTAssertIdentical(store.cachedImage(for: source.request), image, "\(kind)")
            XCTAssertEqual(decoder.calls.count, 1, "\(kind)")
            XCTAssertEqual(source.provider?.calls ?? 1, 1, "\(kind)")
        }
    }

    func test_asyncLookups_shareOneLoad_withSyncLookups_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let source = TestSource(kind, name: "photo", size: 500, fill: 9, in: directory)
            let request = source.request
            let gate = DecodeGate()
            let decoder = FakeDecoder(gates: [9: gate])
            let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

            let first = Task { try await store.fetchImage(for: request) }
            XCTAssertTrue(eventually { gate.arrived == 1 }, "\(kind)")
            let second = Task { try await store.fetchImage(for: request, priority: .high) }
            let synchronous = Lock<Bitmap?>(nil)
            Thread {
                let result = store.image(for: request)
                synchronous.withLock { $0 = result }
            }.start()
            XCTAssertTrue(eventually { store.statistics.coalescedLoads == 2 }, "\(kind): \(store.statistics)")
            gate.open()
            let image = try await first.value
            let secondImage = try await second.value
            XCTAssertTrue(eventually { synchronous.withLock { $0 } != nil }, "\(kind)")
            let hit = try await store.fetchImage(for: request)

            XCTAssertEqual(image.cost, 500, "\(kind)")
            XCTAssertIdentical(secondImage, image, "\(kind)")
            XCTAssertIdentical(synchronous.withLock { $0 }, image, "\(kind)")
            XCTAssertIdentical(hit, image, "\(kind)")
            XCTAssertEqual(decoder.calls.count, 1, "\(kind)")
            XCTAssertEqual(source.provider?.calls ?? 1, 1, "\(kind)")
            XCTAssertEqual(store.statistics.loadsScheduled, 1, "\(kind): the hit scheduled a load")
            XCTAssertEqual(decoder.log.entries.map(\.onMainThread), [false], "\(kind)")
        }
    }

    func test_thumbnails_areSharedPerSize_andNoSmallerThanTheImageAreTheImage_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let source = TestSource(kind, name: "photo", size: 1_000, fill: 1, in: directory)
            let decoder = FakeDecoder(makesThumbnails: true)
            let store = makeStore(directories: [directory.url], decoder: decoder)

            let thumbnail = try store.loadImage(for: source.thumbnail(100))
            let asyncThumbnail = try await store.fetchImage(for: source.thumbnail(100))
            let larger = try store.loadImage(for: source.thumbnail(200))
            let full = try await store.fetchImage(for: source.request)
            let asLarge = try store.loadImage(for: source.thumbnail(1_000))
            let larger5000 = try await store.fetchImage(for: source.thumbnail(5_000))

            XCTAssertEqual(thumbnail.width, 100, "\(kind)")
            XCTAssertIdentical(asyncThumbnail, thumbnail, "\(kind)")
            XCTAssertIdentical(store.cachedImage(for: source.thumbnail(100)), thumbnail, "\(kind)")
            XCTAssertEqual(larger.width, 200, "\(kind)")
            XCTAssertEqual(full.width, 1_000, "\(kind)")
            XCTAssertIdentical(asLarge, full, "\(kind)")
            XCTAssertIdentical(larger5000, full, "\(kind)")
            XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize), [100, 200, nil], "\(kind)")
        }
    }

    func test_statistics_countEachOutcomeExactly_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let icon = TestSource(kind, name: "icon", size: 10, fill: 1, in: directory)
            let photo = TestSource(kind, name: "photo", size: 500, fill: 2, in: directory)
            let later = TestSource(kind, name: "later", size: 200, fill: 3, in: directory)
            let store = makeStore(policy: Self.lru, directories: [directory.url])

            _ = try store.loadImage(for: icon.request)  // miss, decode, admitted
            _ = try store.loadImage(for: icon.request)  // strong hit
            let held = try store.loadImage(for: photo.request)  // miss, decode, held weakly only
            _ = store.cachedImage(for: photo.request)  // weak hit
            _ = try await store.fetchImage(for: photo.request)  // weak hit, nothing scheduled
            _ = store.cachedImage(for: later.request)  // miss, nothing loaded
            let laterImage = try await store.fetchImage(for: later.request)  // miss, scheduled, decoded

            let statistics = store.statistics
            XCTAssertEqual(statistics.lookups, 7, "\(kind)")
            XCTAssertEqual(statistics.strongHits, 1, "\(kind)")
            XCTAssertEqual(statistics.weakHits, 2, "\(kind)")
            XCTAssertEqual(statistics.misses, 4, "\(kind)")
            XCTAssertEqual(statistics.coalescedLoads, 0, "\(kind)")
            XCTAssertEqual(statistics.decodes, 3, "\(kind)")
            XCTAssertEqual(statistics.loadsScheduled, 1, "\(kind)")
            XCTAssertEqual(statistics.strongCount, 1, "\(kind)")
            XCTAssertEqual(statistics.strongCost, 10, "\(kind)")
            XCTAssertEqual(statistics.liveCost, 710, "\(kind)")
            XCTAssertEqual(statistics.liveCount, 3, "\(kind)")
            XCTAssertEqual(statistics.weakCount, 3, "\(kind)")
            XCTAssertEqual(held.cost, 500)
            XCTAssertEqual(laterImage.cost, 200)
        }
    }
}
