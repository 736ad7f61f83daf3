import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Bad input from a provider ends in one typed error naming the request, reaches every waiter, is
/// not cached, and costs nothing else: a provider that throws, returns no bytes, garbage or too
/// many bytes, or blocks, harms only its own waiters.
final class ProviderFailureTests: XCTestCase {
    /// The reason the built-in decoders give for `bytes`.
    private func builtInDecoderReason(_ bytes: [UInt8]) -> String {
        do throws(BitmapDecoderError) {
            _ = try BitmapDecoder().decode(Data(bytes), scale: 1)
            return "decoded"
        } catch {
            return error.description
        }
    }

    // MARK: One typed error per fault

    func test_throwingProvider_failsWithProviderFailed_carryingItsDescription() async throws {
        let provider = TestDataProvider(identity: "avatar/42", content: .failure("database is locked"))
        let decoder = FakeDecoder()
        let store = makeStore(directories: [], decoder: decoder)
        let expected = ImageStoreError.providerFailed(.provider(provider), reason: "database is locked")

        let syncError = lookUpError(of: .provider(provider), in: store)
        let asyncError = await asyncLookUpError(of: .provider(provider), in: store)

        XCTAssertEqual(syncError, expected)
        XCTAssertEqual(asyncError, expected)
        XCTAssertNil(store.cachedImage(for: .provider(provider)))
        XCTAssertTrue(expected.description.contains("database is locked"), expected.description)
        XCTAssertTrue(expected.description.contains("avatar/42"), expected.description)
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_emptyBytes_failWithUndecodable_whateverTheDecoder() {
        let provider = TestDataProvider(identity: "empty", bytes: [])
        let builtIn = ImageStore(ImageStore<Bitmap>.Configuration(directories: []))
        // FakeDecoder would make a 0 × 1 bitmap of no bytes: the store itself must refuse them.
        let decoder = FakeDecoder()
        let fake = makeStore(directories: [], decoder: decoder)

        for store in [builtIn, fake] {
            let error = lookUpError(of: .provider(provider), in: store)

            guard case .undecodable(let request, let reason) = error else {
                XCTFail("expected undecodable, got \(String(describing: error))")
                continue
            }
            XCTAssertEqual(request, .provider(provider))
            XCTAssertFalse(reason.isEmpty)
            XCTAssertEqual(store.statistics.liveCount, 0)
        }
        XCTAssertEqual(decoder.calls.count, 0, "a decoder was given no bytes")
    }

    func test_garbageBytes_failWithUndecodable_carryingTheDecodersReason() {
        let garbage = Array("not an image at all, just some text".utf8)
        let builtIn = ImageStore(ImageStore<Bitmap>.Configuration(directories: []))
        let fake = makeStore(directories: [])
        let provider = TestDataProvider(identity: "garbage", bytes: garbage)
        let refused = TestDataProvider(identity: "refused", bytes: Array("FAIL: refused by the fake decoder".utf8))

        XCTAssertEqual(
            lookUpError(of: .provider(provider), in: builtIn),
            .undecodable(.provider(provider), reason: builtInDecoderReason(garbage)))
        XCTAssertEqual(
            lookUpError(of: .provider(refused), in: fake),
            .undecodable(.provider(refused), reason: "fake decoder refused the file"))
    }

    func test_bytesOverMaximumFileSize_failWithDataTooLarge_beforeDecoding() throws {
        let tooLarge = TestDataProvider(identity: "huge", size: 101, fill: 1)
        let atTheLimit = TestDataProvider(identity: "fits", size: 100, fill: 2)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [], maximumFileSize: 100, decoder: decoder)

        let error = lookUpError(of: .provider(tooLarge), in: store)
        let image = try store.loadImage(for: .provider(atTheLimit))

        XCTAssertEqual(error, .dataTooLarge(.provider(tooLarge), size: 101, limit: 100))
        XCTAssertEqual(image.cost, 100)
        XCTAssertEqual(decoder.log.fills, [2], "bytes over the limit were decoded")
    }

    func test_thumbnailFailure_namesTheFullSizeRequest() async {
        let throwing = TestDataProvider(identity: "a", content: .failure("gone"))
        let refused = TestDataProvider(identity: "b", bytes: Array("FAIL".utf8) + [UInt8](repeating: 0, count: 200))
        let huge = TestDataProvider(identity: "c", size: 500, fill: 1)
        let store = makeStore(directories: [], maximumFileSize: 300, decoder: FakeDecoder(makesThumbnails: true))
        // FakeDecoder refuses "FAIL" only in full-size decodes: a decoder that cannot measure
        // the bytes decodes them full size.
        let refusingStore = makeStore(directories: [])

        let throwingError = lookUpError(of: .provider(throwing, maxPixelSize: 16), in: store)
        let refusedError = await asyncLookUpError(of: .provider(refused, maxPixelSize: 16), in: refusingStore)
        let hugeError = lookUpError(of: .provider(huge, maxPixelSize: 16), in: store)

        XCTAssertEqual(throwingError, .providerFailed(.provider(throwing), reason: "gone"))
        XCTAssertEqual(refusedError, .undecodable(.provider(refused), reason: "fake decoder refused the file"))
        XCTAssertEqual(hugeError, .dataTooLarge(.provider(huge), size: 500, limit: 300))
    }

    // MARK: Every waiter hears, nothing is cached

    func test_failure_reachesEveryWaiter_andIsNotCached() async throws {
        let faults: [(content: TestDataProvider.Content, expected: (ImageRequest) -> ImageStoreError)] = [
            (.failure("disk on fire"), { .providerFailed($0, reason: "disk on fire") }),
            (.bytes(Data("FAIL to decode".utf8)), { .undecodable($0, reason: "fake decoder refused the file") }),
            (.bytes(Data(count: 101)), { .dataTooLarge($0, size: 101, limit: 100) }),
        ]
        for (index, fault) in faults.enumerated() {
            let gate = DecodeGate()
            let provider = TestDataProvider(identity: "bad\(index)", content: fault.content, gate: gate)
            let request = ImageRequest.provider(provider)
            let store = makeStore(policy: .weak, directories: [], maximumFileSize: 100)
            let waiters = (0..<3).map { _ in Task { await asyncLookUpError(of: request, in: store) } }
            XCTAssertTrue(eventually { gate.arrived == 1 && store.statistics.lookups == 3 }, "\(index)")
            let synchronous = Lock<ImageStoreError?>(nil)
            Thread {
                let result = lookUpError(of: request, in: store)
                synchronous.withLock { $0 = result }
            }.start()
            let prefetch = store.prefetch([request])
            XCTAssertTrue(eventually { store.statistics.coalescedLoads == 4 }, "\(index): \(store.statistics)")

            gate.open()
            var errors: [ImageStoreError?] = []
            for waiter in waiters { errors.append(await waiter.value) }
            await prefetch.finished()
            XCTAssertTrue(eventually { synchronous.withLock { $0 } != nil }, "\(index)")

            let expected = fault.expected(request)
            XCTAssertEqual(errors, [expected, expected, expected], "\(index)")
            XCTAssertEqual(synchronous.withLock { $0 }, expected, "\(index)")
            XCTAssertEqual(prefetch.errors, [request: expected], "\(index)")
            XCTAssertEqual(prefetch.progress.failed, 1, "\(index)")
            XCTAssertEqual(provider.calls, 1, "\(index): the waiters did not share one read")
            XCTAssertEqual(lookUpError(of: request, in: store), expected, "\(index)")
            XCTAssertEqual(provider.calls, 2, "\(index): a failure was cached")
            XCTAssertNil(store.cachedImage(for: request), "\(index)")
        }
    }

    // MARK: A blocked provider

    func test_blockedProvider_delaysOnlyItsOwnWaiters() async throws {
        let directory = TestDirectory()
        let gate = DecodeGate()
        let blocked = TestDataProvider(identity: "slow", size: 50, fill: 1, gate: gate)
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 2)
        let blockedWaiter = Task { try await store.fetchImage(for: .provider(blocked)) }
        XCTAssertTrue(eventually { gate.arrived == 1 }, "the provider was never read")

        // While one loading thread is stuck in data(), everything else loads.
        var others: [TestSource] = []
        for index in 0..<8 {
            let kind = SourceKind.allCases[index % SourceKind.allCases.count]
            others.append(
                TestSource(kind, name: "other\(index)", size: 100 + index, fill: UInt8(10 + index), in: directory))
        }
        var asyncImages: [Bitmap] = []
        for source in others { asyncImages.append(try await store.fetchImage(for: source.request)) }
        let prefetched = (0..<4).map {
            TestDataProvider(identity: "prefetched\($0)", size: 20 + $0, fill: UInt8(30 + $0))
        }
        let prefetch = store.prefetch(prefetched.map { .provider($0) })
        await prefetch.finished()
        let sibling = try store.loadImage(for: .provider(TestDataProvider(identity: "slow", version: "2", size: 60)))

        XCTAssertEqual(asyncImages.map(\.cost), (0..<8).map { 100 + $0 })
        XCTAssertEqual(prefetch.progress.loaded, 4)
        XCTAssertEqual(sibling.cost, 60)
        XCTAssertEqual(gate.arrived, 1)
        XCTAssertNil(store.cachedImage(for: .provider(blocked)), "the blocked provider's image appeared")

        gate.open()
        let image = try await blockedWaiter.value
        XCTAssertEqual(image.cost, 50)
        XCTAssertEqual(blocked.calls, 1)
    }

    func test_failures_leaveTheStoreConsistent() throws {
        let store = makeStore(policy: .weak, directories: [], maximumFileSize: 100)
        let good = TestDataProvider(identity: "good", size: 50, fill: 1)
        let image = try store.loadImage(for: .provider(good))
        let bad: [TestDataProvider] = [
            TestDataProvider(identity: "throws", content: .failure("no")),
            TestDataProvider(identity: "empty", bytes: []),
            TestDataProvider(identity: "garbage", bytes: Array("FAIL".utf8)),
            TestDataProvider(identity: "huge", size: 200),
        ]

        for provider in bad { XCTAssertNotNil(lookUpError(of: .provider(provider), in: store), provider.identity) }

        XCTAssertIdentical(try store.loadImage(for: .provider(good)), image)
        XCTAssertEqual(good.calls, 1)
        let statistics = store.statistics
        XCTAssertEqual(statistics.liveCost, 50)
        XCTAssertEqual(statistics.liveCount, 1)
        XCTAssertEqual(
            statistics.lookups,
            statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads)
        XCTAssertTrue(store.engine._withState { $0.loads.inFlight.operations.isEmpty })
    }
}

/// The error a synchronous lookup of `request` throws, or nil if it returned an image.
private func lookUpError(of request: ImageRequest, in store: ImageStore<Bitmap>) -> ImageStoreError? {
    do throws(ImageStoreError) {
        _ = try store.loadImage(for: request)
        return nil
    } catch {
        return error
    }
}

/// The error an asynchronous lookup of `request` throws, or nil if it returned an image.
private func asyncLookUpError(of request: ImageRequest, in store: ImageStore<Bitmap>) async -> ImageStoreError? {
    do throws(ImageStoreError) {
        _ = try await store.fetchImage(for: request)
        return nil
    } catch {
        return error
    }
}
