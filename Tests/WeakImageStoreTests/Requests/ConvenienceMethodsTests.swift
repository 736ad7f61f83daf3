import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The name and path methods from before requests still work, and they are requests: they share
/// instances, loads and prefetches with `.named` and `.file` requests.
final class ConvenienceMethodsTests: XCTestCase {
    /// An LRU that admits images of at most 100 bytes: larger ones live only while someone holds them.
    private static let smallLRU = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_nameMethods_andNamedRequests_returnTheSameInstance() async throws {
        for policy in [CachePolicy.strong, .retainCountSweep] + weakPolicies {
            let directory = TestDirectory()
            directory.write("icon@2x.png", size: 40, fill: 3)
            let decoder = FakeDecoder()
            let store = makeStore(policy: policy, directories: [directory.url], decoder: decoder)
            // Nested functions are synchronous: in them `image(for:)` is the synchronous overload.
            func image(named name: String) -> Bitmap? { store.image(named: name) }
            func image(for request: ImageRequest) -> Bitmap? { store.image(for: request) }

            let byName = try XCTUnwrap(image(named: "icon"), "\(policy)")

            XCTAssertIdentical(image(for: .named("icon")), byName, "\(policy)")
            XCTAssertIdentical(try store.loadImage(for: .named("icon.png")), byName, "\(policy)")
            XCTAssertIdentical(try store.loadImage(named: "icon@2x"), byName, "\(policy)")
            XCTAssertIdentical(store.cachedImage(for: .named("icon")), byName, "\(policy)")
            XCTAssertIdentical(store.cachedImage(named: "icon"), byName, "\(policy)")
            let asyncByRequest = try await store.fetchImage(for: .named("icon"))
            let asyncByName = try await store.fetchImage(named: "icon")
            XCTAssertIdentical(asyncByRequest, byName, "\(policy)")
            XCTAssertIdentical(asyncByName, byName, "\(policy)")
            XCTAssertEqual(decoder.calls.count, 1, "\(policy)")
        }
    }

    func test_namedRequest_findsTheImage_theNameMethodLoaded_andTheOtherWayRound() throws {
        let directory = TestDirectory()
        directory.write("first.png", size: 500, fill: 1)
        directory.write("second.png", size: 600, fill: 2)
        let store = makeStore(policy: Self.smallLRU, directories: [directory.url])

        let first = try store.loadImage(named: "first")
        let second = try store.loadImage(for: .named("second"))

        XCTAssertIdentical(store.cachedImage(for: .named("first")), first)
        XCTAssertIdentical(store.cachedImage(named: "second"), second)
        XCTAssertEqual(store.statistics.decodes, 2)
        XCTAssertEqual(store.statistics.weakHits, 2)
    }

    func test_pathMethods_andFileRequests_returnTheSameInstance() async throws {
        let directory = TestDirectory()
        let path = directory.write("photo.png", size: 1_000, fill: 1)
        let decoder = FakeDecoder(makesThumbnails: true)
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

        let byPath = try store.loadImage(contentsOfFile: path)
        let thumbnailByPath = try store.loadImage(contentsOfFile: path, maxPixelSize: 100)

        XCTAssertIdentical(try store.loadImage(for: .file(path)), byPath)
        XCTAssertIdentical(store.cachedImage(for: .file(path)), byPath)
        let asyncByRequest = try await store.fetchImage(for: .file(path))
        XCTAssertIdentical(asyncByRequest, byPath)
        XCTAssertIdentical(try store.loadImage(for: .file(path, maxPixelSize: 100)), thumbnailByPath)
        XCTAssertIdentical(store.cachedImage(contentsOfFile: path, maxPixelSize: 100), thumbnailByPath)
        XCTAssertIdentical(store.cachedImage(for: .file(path, maxPixelSize: 100)), thumbnailByPath)
        let asyncThumbnail = try await store.fetchImage(for: .named("photo", maxPixelSize: 100))
        XCTAssertIdentical(asyncThumbnail, thumbnailByPath)
        XCTAssertEqual(decoder.log.entries.map(\.maxPixelSize), [nil, 100])
    }

    func test_nameMethod_joinsALoadStartedByARequest() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500, fill: 9)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [9: gate])
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

        let byRequest = Task { try await store.fetchImage(for: .named("photo")) }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let byName = Task { try await store.fetchImage(named: "photo.png") }
        let prefetch = store.prefetch(named: ["photo"])
        XCTAssertTrue(eventually { store.waitersPerLoadInFlight == [3] }, "\(store.waitersPerLoadInFlight)")
        gate.open()
        let image = try await byRequest.value
        let nameImage = try await byName.value
        await prefetch.finished()

        XCTAssertIdentical(nameImage, image)
        XCTAssertIdentical(prefetch.loadedImages["photo"] as? Bitmap, image)
        XCTAssertEqual(decoder.calls.count, 1)
    }

    func test_prefetchNamed_stillWorks_andShowsItsRequests() async throws {
        let directory = TestDirectory()
        directory.write("photo1.png", size: 5_000, fill: 1)
        directory.write("photo2.png", size: 6_000, fill: 2)
        let store = makeStore(policy: Self.smallLRU, directories: [directory.url])

        let prefetch = store.prefetch(named: ["photo1", "photo2", "absent"])
        await prefetch.finished()

        XCTAssertEqual(prefetch.names, ["photo1", "photo2", "absent"])
        XCTAssertEqual(prefetch.requests, [.named("photo1"), .named("photo2"), .named("absent")])
        XCTAssertEqual(prefetch.progress, ImagePrefetch.Progress(total: 3, loaded: 2, failed: 1, isCancelled: false))
        XCTAssertEqual(Array(prefetch.failures.keys), ["absent"])
        XCTAssertNotFound(prefetch.failures["absent"], name: "absent")
        XCTAssertEqual(Array(prefetch.errors.keys), [.named("absent")])
        XCTAssertNotFound(prefetch.errors[.named("absent")], name: "absent")
        let photo = try XCTUnwrap(store.cachedImage(named: "photo1"), "a prefetched photo was freed")
        XCTAssertIdentical(prefetch.loadedImages["photo1"] as? Bitmap, photo)
        XCTAssertIdentical(prefetch.images[.named("photo1")] as? Bitmap, photo)
        XCTAssertIdentical(store.cachedImage(for: .named("photo1")), photo)
        let scheduled = store.statistics.loadsScheduled
        XCTAssertIdentical(try store.loadImage(for: .named("photo2")), prefetch.images[.named("photo2")] as? Bitmap)
        XCTAssertEqual(store.statistics.loadsScheduled, scheduled)
        XCTAssertEqual(store.statistics.decodes, 2)

        prefetch.cancel()

        XCTAssertTrue(eventually { store.cachedImage(named: "photo2") == nil }, "cancel did not release the photo")
        XCTAssertTrue(prefetch.loadedImages.isEmpty)
        XCTAssertTrue(prefetch.images.isEmpty)
    }

    func test_prefetchOfRequests_namesNamedRequestsByName_andOthersByDescription() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10, fill: 1)
        let path = directory.write("photo.png", size: 20, fill: 2)
        let provider = TestDataProvider(identity: "avatar/42", size: 30, fill: 3)
        let failing = TestDataProvider(identity: "broken", content: .failure("no such row"))
        let requests: [ImageRequest] = [.named("icon"), .file(path), .provider(provider), .provider(failing)]
        let store = makeStore(directories: [directory.url])

        let prefetch = store.prefetch(requests)
        await prefetch.finished()

        let names = ["icon", requests[1].description, requests[2].description, requests[3].description]
        XCTAssertEqual(prefetch.names, names)
        XCTAssertEqual(Set(prefetch.loadedImages.keys), Set(names.prefix(3)))
        XCTAssertEqual(prefetch.loadedImages[names[2]]?.cost, 30)
        XCTAssertIdentical(prefetch.loadedImages[names[2]] as? Bitmap, prefetch.images[requests[2]] as? Bitmap)
        let failure = ImageStoreError.providerFailed(.provider(failing), reason: "no such row")
        XCTAssertEqual(prefetch.failures, [names[3]: failure])
        XCTAssertEqual(prefetch.errors, [requests[3]: failure])
    }
}
