import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The load state machine's events driven by hand, without threads: what each returns and what
/// it leaves in the books.
final class LoadStateMachineTests: XCTestCase {
    private var memory = MemoryState(policy: .default)
    private var loads = LoadStateMachine(maximumConcurrentLoads: 2, readsDownloadsFromDisk: false)
    private var released: [CachedImage] = []

    @discardableResult
    private func register(_ request: ImageRequest, priority: ImageLoadPriority = .normal) -> WaiterID {
        registerStartingThread(request, priority: priority).waiter
    }

    /// Registers a waiter; also returns the loading thread the registration asks to start.
    private func registerStartingThread(
        _ request: ImageRequest, priority: ImageLoadPriority = .normal
    ) -> (waiter: WaiterID, thread: LoadingThread?) {
        let id = loads.newWaiterID()
        let waiter = LoadWaiter(id: id, priority: priority, delivery: .sync(LoadLatch()))
        guard case .waiting(let thread) = loads.register(waiter, for: request, memory: &memory, released: &released)
        else { return (id, nil) }
        return (id, thread)
    }

    func test_workOnScreen_getsTheVisibleLane_whenEveryLoadingThreadRunsPrefetches() throws {
        // Given: both loading threads run prefetches, and a third prefetch is queued
        XCTAssertEqual(registerStartingThread(.file("/a.png"), priority: .low).thread, .regular)
        XCTAssertEqual(registerStartingThread(.file("/b.png"), priority: .low).thread, .regular)
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        XCTAssertNil(registerStartingThread(.file("/c.png"), priority: .low).thread)
        // When: a view asks, twice
        XCTAssertEqual(registerStartingThread(.file("/d.png"), priority: .high).thread, .visibleLane)
        XCTAssertNil(registerStartingThread(.file("/e.png"), priority: .high).thread, "one visible lane")
        // Then: the lane runs the views' loads, newest first, and ends before the prefetch
        XCTAssertEqual(loads.nextQueuedLoad(for: .visibleLane)?.request, .file("/e.png"))
        XCTAssertNotNil(loads.nextQueuedLoad(for: .visibleLane))
        XCTAssertNil(loads.nextQueuedLoad(for: .visibleLane), "the lane ran a prefetch")
        XCTAssertFalse(loads.visibleLaneRuns)
        XCTAssertEqual(loads.inFlight.operations.values.filter(\.isQueued).count, 1, "the prefetch waits")
    }

    func test_aViewJoiningAQueuedPrefetch_getsTheVisibleLane() throws {
        register(.file("/a.png"), priority: .low)
        register(.file("/b.png"), priority: .low)
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        XCTAssertNil(registerStartingThread(.file("/c.png"), priority: .low).thread)

        XCTAssertEqual(registerStartingThread(.file("/c.png"), priority: .high).thread, .visibleLane)
        XCTAssertNil(registerStartingThread(.file("/a.png"), priority: .high).thread, "a running load needs no thread")
    }

    func test_workOnScreen_waitsBehindWorkOnScreen_andGetsTheLaneWhenAThreadTurnsToAPrefetch() throws {
        // Given: both loading threads run loads for views
        register(.file("/a.png"), priority: .high)
        register(.file("/b.png"), priority: .high)
        let first = try XCTUnwrap(loads.nextQueuedLoad(for: .regular))
        XCTAssertFalse(first.isBackground)
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        register(.file("/p.png"), priority: .low)
        // Then: another view waits its turn, as in a fling
        XCTAssertNil(registerStartingThread(.file("/c.png"), priority: .high).thread)
        // When: a thread finishes and takes the next (the view's), then the prefetch
        XCTAssertEqual(loads.nextQueuedLoad(for: .regular)?.request, .file("/c.png"))
        let prefetch = try XCTUnwrap(loads.nextQueuedLoad(for: .regular))
        XCTAssertTrue(prefetch.isBackground)
        // Then: a view arriving now overtakes it on the visible lane, the prefetch paused meanwhile
        XCTAssertEqual(registerStartingThread(.file("/d.png"), priority: .high).thread, .visibleLane)
        XCTAssertTrue(prefetch.cancellation.isPaused)
        XCTAssertEqual(loads.nextQueuedLoad(for: .visibleLane)?.request, .file("/d.png"))
        XCTAssertNil(loads.nextQueuedLoad(for: .visibleLane))
        XCTAssertFalse(prefetch.cancellation.isPaused, "the lane ended: the prefetch goes on")
        XCTAssertNil(loads.nextQueuedLoad(for: .regular, finishedBackgroundWork: prefetch.load))
        XCTAssertTrue(loads.backgroundLoads.isEmpty)
    }

    func test_aViewJoiningThePausedPrefetch_resumesIt() throws {
        register(.file("/a.png"), priority: .high)
        register(.file("/p.png"), priority: .low)
        XCTAssertNotNil(loads.nextQueuedLoad(for: .regular))
        let prefetch = try XCTUnwrap(loads.nextQueuedLoad(for: .regular))
        XCTAssertEqual(registerStartingThread(.file("/b.png"), priority: .high).thread, .visibleLane)
        XCTAssertTrue(prefetch.cancellation.isPaused)

        register(.file("/p.png"), priority: .high)

        XCTAssertFalse(prefetch.cancellation.isPaused, "the view's image waited for the lane")
        XCTAssertNil(loads.pausedLoad)
    }

    func test_aLoadWhoseWaitersLeftBeforeItsDownload_endsInsteadOfWaiting() throws {
        // Given: a loading thread took the load of a URL, then its only waiter left
        let request = ImageRequest.url(URL(string: "http://127.0.0.1/a.png")!)
        let waiter = register(request)
        let taken = try XCTUnwrap(loads.nextQueuedLoad(for: .regular))
        XCTAssertNotNil(loads.cancel(waiter: waiter, memory: &memory))
        // When: the thread hands the load to the downloader
        let priority = loads.awaitsDownload(taken.load, memory: &memory)
        // Then: nothing is downloaded, and the load is gone, so a new request makes a new load
        // rather than joining one nobody runs
        XCTAssertNil(priority)
        XCTAssertTrue(loads.inFlight.operations.isEmpty)
        _ = register(request)
        XCTAssertEqual(loads.inFlight.operations.values.first?.isQueued, true)
    }

    func test_aCallerResolvingARequest_takesOverTheQueuedLoadOfTheSameRequest() throws {
        // Given: an async waiter queued an unresolved request, then a synchronous caller resolved it
        let request = ImageRequest.named("icon")
        _ = register(request, priority: .low)
        let fullSize = file("/images/icon.png")
        // When
        let step = loads.resolved(
            request, as: .success(fullSize), by: .caller(request), memory: &memory, released: &released)
        // Then: the caller decodes the queued load itself, which its waiter still waits for
        guard case .decode(let source, let load?) = step else { return XCTFail("expected a decode, got \(step)") }
        XCTAssertEqual(source, fullSize)
        XCTAssertEqual(loads.inFlight.operations[load]?.waiters.count, 1)
        XCTAssertEqual(loads.inFlight.operations[load]?.isQueued, false)
        XCTAssertEqual(memory.counters.loadsTakenOver, 1)
    }

    func test_aLoadingThreadMeasuringAThumbnail_mergesIntoTheLoadOfItsKey() throws {
        // Given: the thumbnail's key is being loaded already, and another load of the same
        // thumbnail, asked for before its size was known, holds a waiter
        let fullSize = file("/p.png")
        let thumbnail = UnsizedThumbnail(of: fullSize, maxPixelSize: 64)
        let reduced = thumbnail.source(forImageSize: PixelSize(width: 512, height: 256))
        let request = ImageRequest.file("/p.png", maxPixelSize: 64)
        let owner = loads.inFlight.create(.image(reduced), request: request, shared: true, running: true)
        let measuring = loads.inFlight.create(.unsized(thumbnail), request: request, shared: true, running: true)
        loads.inFlight.add(
            LoadWaiter(id: loads.newWaiterID(), priority: .high, delivery: .sync(LoadLatch())), request: request,
            to: measuring)
        // When
        let step = loads.measured(
            thumbnail, size: PixelSize(width: 512, height: 256), by: .loadingThread(measuring), memory: &memory,
            released: &released)
        // Then: the measuring thread stops; its waiter waits for the owner
        guard case .merged = step else { return XCTFail("expected a merge, got \(step)") }
        XCTAssertNil(loads.inFlight.operations[measuring])
        XCTAssertEqual(loads.inFlight.operations[owner]?.waiters.count, 1)
        XCTAssertEqual(memory.pixelSizes[fullSize.key.source], .known(PixelSize(width: 512, height: 256)))
    }

    private func file(_ path: String) -> ImageLocator {
        ImageLocator(.file(realPath: path, scale: 1), bytes: .file(FileLocation(path: path)))
    }
}
