import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// An app's data provider is one source among others: its identity and version are the image's
/// identity, so equal providers share one instance and one read, a new version is a new image,
/// and `data()` never runs twice at once for one identity and version.
final class DataProviderTests: XCTestCase {
    /// An LRU that admits images of at most 100 bytes: larger ones live only while someone holds them.
    private static let smallLRU = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_provider_sharesOneInstanceAndOneDataCall_forEqualIdentityAndVersion() throws {
        for policy in [CachePolicy.strong, .retainCountSweep] + weakPolicies {
            let first = TestDataProvider(identity: "avatar/42", version: "7", size: 300, fill: 1)
            let twin = TestDataProvider(identity: "avatar/42", version: "7", size: 300, fill: 1)
            let decoder = FakeDecoder()
            let store = makeStore(policy: policy, directories: [], decoder: decoder)

            let image = try store.loadImage(for: .provider(first))
            let again = try store.loadImage(for: .provider(twin))

            XCTAssertIdentical(again, image, "\(policy)")
            XCTAssertIdentical(store.cachedImage(for: .provider(twin)), image, "\(policy)")
            XCTAssertEqual(image.cost, 300, "\(policy)")
            XCTAssertEqual(first.calls, 1, "\(policy)")
            XCTAssertEqual(twin.calls, 0, "\(policy): an equal provider was read again")
            XCTAssertEqual(decoder.calls.count, 1, "\(policy)")
        }
    }

    func test_provider_sharesOneDataCall_forEqualIdentityAndVersion_inFlightTogether() async throws {
        let gate = DecodeGate()
        let first = TestDataProvider(identity: "avatar/42", version: "7", size: 300, fill: 1, gate: gate)
        let twin = TestDataProvider(identity: "avatar/42", version: "7", size: 300, fill: 1, gate: gate)
        let store = makeStore(policy: .weak, directories: [], maximumConcurrentLoads: 2)

        let loading = Task { try await store.fetchImage(for: .provider(first)) }
        XCTAssertTrue(eventually { gate.arrived == 1 }, "the provider was never read")
        let joining = Task { try await store.fetchImage(for: .provider(twin), priority: .high) }
        let synchronous = Lock<Bitmap?>(nil)
        Thread {
            let result = store.image(for: .provider(twin))
            synchronous.withLock { $0 = result }
        }.start()
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 2 }, "\(store.statistics)")
        gate.open()
        let image = try await loading.value
        let joined = try await joining.value
        XCTAssertTrue(eventually { synchronous.withLock { $0 } != nil })

        XCTAssertIdentical(joined, image)
        XCTAssertIdentical(synchronous.withLock { $0 }, image)
        XCTAssertEqual(first.calls + twin.calls, 1, "equal providers were read more than once")
        XCTAssertEqual(store.statistics.decodes, 1)
    }

    func test_provider_isReadOneAtATime_whileFullSizeAndThumbnailsLoadTogether() async throws {
        // Three equal providers, one per size, counted together; each read takes a moment, so
        // reads that overlap would be seen.
        let gate = DecodeGate()
        let reads = TestDataProvider.Reads()
        let providers = (0..<3).map { _ in
            TestDataProvider(identity: "photo", size: 1_000, fill: 1, gate: gate, duration: 0.02, reads: reads)
        }
        let decoder = FakeDecoder(makesThumbnails: true)
        let store = makeStore(directories: [], maximumConcurrentLoads: 2, decoder: decoder)

        let full = Task { try await store.fetchImage(for: .provider(providers[0])) }
        let thumbnail = Task { try await store.fetchImage(for: .provider(providers[1], maxPixelSize: 64)) }
        let synchronous = Lock<Bitmap?>(nil)
        Thread {
            let result = store.image(for: .provider(providers[2], maxPixelSize: 32))
            synchronous.withLock { $0 = result }
        }.start()
        XCTAssertTrue(eventually { gate.arrived == 1 && store.statistics.lookups >= 2 }, "\(store.statistics)")
        // Two loading threads and a synchronous caller want the bytes (a thumbnail's lookup counts
        // once its size is known): give them every chance to read a second time while the first
        // read is held.
        XCTAssertFalse(eventually(timeout: 0.2) { gate.arrived > 1 }, "data() ran twice at once")
        gate.open()
        let fullImage = try await full.value
        let thumbnailImage = try await thumbnail.value
        XCTAssertTrue(eventually { synchronous.withLock { $0 } != nil })

        XCTAssertEqual(fullImage.width, 1_000)
        XCTAssertEqual(thumbnailImage.width, 64)
        XCTAssertEqual(synchronous.withLock { $0?.width }, 32)
        XCTAssertEqual(reads.mostConcurrentCalls, 1, "data() ran twice at once")
        XCTAssertLessThanOrEqual(reads.calls, 3)
    }

    func test_newVersion_isANewImage_whileTheOldOneStaysSharedUntilFreed() throws {
        let store = makeStore(policy: Self.smallLRU, directories: [])
        let version1 = TestDataProvider(identity: "avatar/42", version: "1", size: 500, fill: 1)
        var old: Bitmap? = try store.loadImage(for: .provider(version1))
        let oldObserver = WeakObserver(old)

        let version2 = TestDataProvider(identity: "avatar/42", version: "2", size: 600, fill: 2)
        let new = try store.loadImage(for: .provider(version2))

        XCTAssertNotIdentical(new, old, "the old version was returned for the new one")
        XCTAssertEqual(new.cost, 600)
        XCTAssertEqual(version2.calls, 1)
        let version1Again = TestDataProvider(identity: "avatar/42", version: "1", size: 500, fill: 1)
        XCTAssertIdentical(
            store.cachedImage(for: .provider(version1Again)), old, "the old version in use was not shared")
        XCTAssertIdentical(try store.loadImage(for: .provider(version1Again)), old)
        XCTAssertEqual(version1Again.calls, 0)
        XCTAssertEqual(store.statistics.liveCost, 1_100)

        old = nil

        XCTAssertNil(oldObserver.object, "the old version outlived its last user")
        XCTAssertNil(store.cachedImage(for: .provider(version1)))
        XCTAssertIdentical(store.cachedImage(for: .provider(version2)), new)
        XCTAssertIdentical(try store.loadImage(for: .provider(version2)), new)
        XCTAssertEqual(store.statistics.liveCost, 600)
        XCTAssertEqual(version2.calls, 1)
    }

    func test_otherIdentityOrVersion_isAnotherImage() throws {
        let store = makeStore(policy: .weak, directories: [])
        let providers = [
            TestDataProvider(identity: "a", version: "1", size: 10, fill: 1),
            TestDataProvider(identity: "a", version: "2", size: 20, fill: 2),
            TestDataProvider(identity: "b", version: "1", size: 30, fill: 3),
        ]

        let images = try providers.map { try store.loadImage(for: .provider($0)) }

        XCTAssertEqual(images.map(\.cost), [10, 20, 30])
        XCTAssertEqual(Set(images.map(ObjectIdentifier.init)).count, 3)
        XCTAssertEqual(providers.map(\.calls), [1, 1, 1])
    }

    func test_data_runsOnTheCallersThread_forSynchronousLookups() throws {
        let provider = TestDataProvider(identity: "photo", size: 300, fill: 1)
        let store = makeStore(directories: [])

        _ = try store.loadImage(for: .provider(provider))

        XCTAssertEqual(provider.threads, [ObjectIdentifier(Thread.current)])
    }

    @MainActor
    func test_data_runsOnALoadingThread_forAsynchronousLookups() async throws {
        let provider = TestDataProvider(identity: "photo", size: 300, fill: 1)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [], decoder: decoder)

        let image = try await store.fetchImage(for: .provider(provider))

        XCTAssertEqual(image.cost, 300)
        XCTAssertEqual(provider.onMainThread, [false], "read on the main actor's thread")
        XCTAssertEqual(decoder.log.entries.map(\.onMainThread), [false])
    }

    func test_uncached_readsAndDecodesEveryTime() throws {
        let provider = TestDataProvider(identity: "icon", size: 10, fill: 1)
        let decoder = FakeDecoder()
        let store = makeStore(policy: .uncached, directories: [], decoder: decoder)

        let first = try store.loadImage(for: .provider(provider))
        let second = try store.loadImage(for: .provider(provider))

        XCTAssertNotIdentical(first, second)
        XCTAssertEqual(provider.calls, 2)
        XCTAssertEqual(decoder.calls.count, 2)
    }
}
