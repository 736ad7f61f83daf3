import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The loading threads treat every source alike: queued loads start by priority, a queued load
/// is dropped (its source never read) when its last waiter leaves, a synchronous caller takes a
/// queued load over, and a prefetch holds what it loaded until cancelled. Each test loops over
/// ``SourceKind/allCases``.
final class RequestSchedulingMatrixTests: XCTestCase {
    /// An LRU that admits images of at most 100 bytes: larger ones live only while someone holds them.
    private static let smallLRU = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    /// A store whose only loading thread is stuck decoding "blocker" (fill 1) until `gate` opens;
    /// `sentinel` (fill 200) is there to be loaded last.
    private func makeBlockedStore(
        _ directory: TestDirectory, policy: CachePolicy = .default
    ) async -> (ImageStore<Bitmap>, FakeDecoder, DecodeGate, Task<Bitmap, any Error>) {
        directory.write("blocker.png", size: 10, fill: 1)
        directory.write("sentinel.png", size: 11, fill: 200)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [1: gate])
        let store = makeStore(policy: policy, directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        // Work for the screen: no visible lane opens beside it, so the one thread is all there is.
        let blocker = Task { try await store.fetchImage(named: "blocker", priority: .high) }
        XCTAssertTrue(eventually { gate.arrived == 1 }, "the blocker never started")
        return (store, decoder, gate, blocker)
    }

    /// Lets the blocker finish, then loads the sentinel at the lowest priority on the only loading
    /// thread: once it is back, every load still queued before it has run.
    private func drain(_ store: ImageStore<Bitmap>, gate: DecodeGate, blocker: Task<Bitmap, any Error>) async throws {
        gate.open()
        _ = try await blocker.value
        _ = try await store.fetchImage(named: "sentinel", priority: .veryLow)
    }

    func test_queuedLoads_startByPriority_whateverTheirSource() async throws {
        let priorities: [ImageLoadPriority] = [.low, .normal, .high, .veryHigh]
        // Each rotation gives every source every priority once.
        for rotation in 0..<priorities.count {
            let directory = TestDirectory()
            let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
            var tasks: [Task<Bitmap, any Error>] = []
            var queued: [(priority: ImageLoadPriority, fill: UInt8)] = []
            for (index, kind) in SourceKind.allCases.enumerated() {
                let fill = UInt8(10 + index)
                let request = TestSource(kind, name: "image\(index)", size: 20 + index, fill: fill, in: directory)
                    .request
                let priority = priorities[(index + rotation) % priorities.count]
                tasks.append(Task { try await store.fetchImage(for: request, priority: priority) })
                XCTAssertTrue(eventually { store.statistics.loadsScheduled == index + 2 }, "\(kind)")
                queued.append((priority, fill))
            }

            try await drain(store, gate: gate, blocker: blocker)
            for task in tasks { _ = try await task.value }

            let expected = [1] + queued.sorted { $0.priority > $1.priority }.map(\.fill) + [200]
            XCTAssertEqual(decoder.log.fills, expected, "rotation \(rotation)")
        }
    }

    func test_queuedLoad_isDroppedWhenItsLastWaiterLeaves_andItsSourceIsNeverRead_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
            let source = TestSource(kind, name: "queued", size: 20, fill: 2, in: directory)
            let request = source.request
            let waiter = Task { try await store.fetchImage(for: request) }
            XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 }, "\(kind)")
            let alsoWaiting = Task { try await store.fetchImage(for: request, priority: .high) }
            XCTAssertTrue(eventually { store.statistics.coalescedLoads == 1 }, "\(kind)")

            waiter.cancel()
            alsoWaiting.cancel()
            let results = [await waiter.result, await alsoWaiting.result]
            let prefetch = store.prefetch([request])
            XCTAssertTrue(eventually { store.statistics.loadsScheduled == 3 }, "\(kind)")
            prefetch.cancel()
            try await drain(store, gate: gate, blocker: blocker)

            for result in results {
                guard case .failure(let error as ImageStoreError) = result else {
                    XCTFail("\(kind): a cancelled waiter got an image")
                    continue
                }
                XCTAssertEqual(error, .cancelled, "\(kind)")
            }
            XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 2, "\(kind)")
            XCTAssertEqual(store.statistics.waitersCancelled, 3, "\(kind)")
            XCTAssertEqual(decoder.log.fills, [1, 200], "\(kind): a load nobody waited for was decoded")
            XCTAssertEqual(source.provider?.calls ?? 0, 0, "\(kind): a load nobody waited for read its provider")
            XCTAssertNil(store.cachedImage(for: request), "\(kind)")
        }
    }

    func test_syncLookup_takesOverAQueuedLoad_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
            let source = TestSource(kind, name: "wanted", size: 200, fill: 2, in: directory)
            let request = source.request
            let queued = Task { try await store.fetchImage(for: request) }
            XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 }, "\(kind)")

            // The only loading thread is stuck on the blocker: a synchronous caller must not wait for it.
            let taken = Lock<(image: Bitmap?, thread: ObjectIdentifier?)>((nil, nil))
            onAnotherThread {
                let image = try? store.loadImage(for: request)
                taken.withLock { $0 = (image, ObjectIdentifier(Thread.current)) }
            }
            let (image, thread) = taken.withLock { $0 }
            let queuedImage = try await queued.value

            XCTAssertEqual(image?.cost, 200, "\(kind)")
            XCTAssertIdentical(queuedImage, image, "\(kind): the async waiter got another instance")
            XCTAssertEqual(decoder.log.entries.last?.thread, thread, "\(kind): not decoded by the caller")
            XCTAssertEqual(source.provider?.threads ?? [thread!], [thread!], "\(kind): not read by the caller")
            XCTAssertEqual(store.statistics.loadsTakenOver, 1, "\(kind)")
            XCTAssertEqual(gate.arrived, 1, "\(kind)")
            try await drain(store, gate: gate, blocker: blocker)
            XCTAssertEqual(decoder.log.fills, [1, 2, 200], "\(kind)")
        }
    }

    func test_prefetch_holdsItsImages_untilCancelled_forEverySource() async throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let photo = TestSource(kind, name: "photo", size: 5_000, fill: 1, in: directory)
            let other = TestSource(kind, name: "other", size: 6_000, fill: 2, in: directory)
            // The LRU admits nothing this large: only the prefetch can keep the photos alive.
            let store = makeStore(policy: Self.smallLRU, directories: [directory.url])
            let liveBefore = Bitmap.memory.liveBytes

            let prefetch = store.prefetch([photo.request, other.request])
            await prefetch.finished()

            XCTAssertEqual(prefetch.requests, [photo.request, other.request], "\(kind)")
            XCTAssertEqual(
                prefetch.progress, ImagePrefetch.Progress(total: 2, loaded: 2, failed: 0, isCancelled: false), "\(kind)"
            )
            XCTAssertTrue(prefetch.errors.isEmpty, "\(kind)")
            let image = try XCTUnwrap(store.cachedImage(for: photo.request), "\(kind): a prefetched image was freed")
            XCTAssertIdentical(prefetch.images[photo.request] as? Bitmap, image, "\(kind)")
            XCTAssertEqual(store.statistics.liveCost, 11_000, "\(kind)")
            XCTAssertEqual(Bitmap.memory.liveBytes - liveBefore, 11_000, "\(kind)")

            prefetch.cancel()

            XCTAssertIdentical(store.cachedImage(for: photo.request), image, "\(kind): an image in use stays shared")
            XCTAssertTrue(eventually { store.cachedImage(for: other.request) == nil }, "\(kind): cancel kept it")
            XCTAssertTrue(prefetch.images.isEmpty, "\(kind)")
            XCTAssertEqual(store.statistics.liveCost, 5_000, "\(kind)")
            XCTAssertEqual(other.provider?.calls ?? 1, 1, "\(kind)")
        }
    }
}
