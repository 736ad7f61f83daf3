import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A running load whose last waiter leaves stops part-way: the built-in decoders poll for it, the
/// store counts it, frees its reservation and stores nothing; a waiter who joins before the poll
/// keeps it going, one who joins after gets it queued again; a synchronous caller is never stopped.
final class DecodeCancellationTests: XCTestCase {
    // MARK: The flag

    func test_stopRequest_isSeenByThePoll_andIsFinal() {
        let cancellation = DecodeCancellation()
        XCTAssertFalse(cancellation.shouldStop())

        cancellation.requestStop()

        XCTAssertFalse(cancellation.hasStopped, "a request is not a stop until a poll sees it")
        XCTAssertTrue(cancellation.shouldStop())
        XCTAssertTrue(cancellation.hasStopped)
        XCTAssertFalse(cancellation.withdrawStopRequest(), "a stop a poll has seen cannot be withdrawn")
        XCTAssertTrue(cancellation.shouldStop())
    }

    func test_pause_holdsThePollUntilResumed_andAStopEndsIt() {
        let cancellation = DecodeCancellation()
        let polls = Lock(0)
        cancellation.pause()
        let poller = Thread {
            _ = cancellation.shouldStop()
            polls.withLock { $0 += 1 }
            _ = cancellation.shouldStop()
            polls.withLock { $0 += 1 }
        }
        poller.start()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(polls.withLock { $0 }, 0, "a paused poll returned")

        cancellation.resume()
        XCTAssertTrue(eventually { polls.withLock { $0 } == 2 }, "a resumed poll did not return")

        cancellation.pause()
        let stopped = Lock(0)
        Thread {
            if cancellation.shouldStop() { stopped.withLock { $0 += 1 } }
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(stopped.withLock { $0 }, 0)
        cancellation.requestStop()
        XCTAssertTrue(eventually { stopped.withLock { $0 } == 1 }, "a stop request did not end the pause")
        XCTAssertFalse(cancellation.isPaused)
    }

    func test_withdrawnRequest_letsTheLoadGoOn() {
        let cancellation = DecodeCancellation()
        cancellation.requestStop()

        XCTAssertTrue(cancellation.withdrawStopRequest())

        XCTAssertFalse(cancellation.shouldStop())
        XCTAssertFalse(cancellation.hasStopped)
    }

    // MARK: The decoders poll

    func test_jpegDecoder_stopsWhenAsked_andOtherwiseDecodes() throws {
        let file = try JPEGTestFiles.file("photo640_q85.jpg")
        let cancellation = DecodeCancellation()
        cancellation.requestStop()

        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(cancellation) { try JPEGDecoder().decode(file, scale: 1) }
        ) { XCTAssertEqual($0 as? JPEGError, .cancelled) }
        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(stopRequested()) {
                try JPEGDecoder().decode(file, scale: 1, maxPixelSize: 64)
            }
        ) { XCTAssertEqual($0 as? JPEGError, .cancelled) }
        XCTAssertNoThrow(
            try DecodeCancellation.current.withValue(DecodeCancellation()) { try JPEGDecoder().decode(file, scale: 1) }
        )
        XCTAssertNoThrow(try JPEGDecoder().decode(file, scale: 1), "no store, no stop")
    }

    func test_progressiveJPEG_stopsWhenAsked() throws {
        let file = try JPEGTestFiles.file("photo640_prog.jpg")

        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(stopRequested()) { try JPEGDecoder().decode(file, scale: 1) }
        ) { XCTAssertEqual($0 as? JPEGError, .cancelled) }
    }

    func test_pngDecoder_stopsWhenAsked_fullSizeAndStreaming() throws {
        let width = 300
        let height = 200
        let rows = (0..<height).map { y in (0..<width * 3).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ y) } }
        let file = PNGFile.png(
            width: UInt32(width), height: UInt32(height), colorType: 2,
            filteredData: rows.flatMap { [0] + $0 })

        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(stopRequested()) { try PNGDecoder().decode(file, scale: 1) }
        ) { XCTAssertEqual($0 as? PNGError, .cancelled) }
        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(stopRequested()) {
                try PNGDecoder().decode(file, scale: 1, maxPixelSize: 30)
            }
        ) { XCTAssertEqual($0 as? PNGError, .cancelled) }
        let thumbnail = try DecodeCancellation.current.withValue(DecodeCancellation()) {
            try PNGDecoder().decode(file, scale: 1, maxPixelSize: 30)
        }
        XCTAssertEqual(thumbnail.width, 30)
    }

    // MARK: The store

    /// The files of ``storeWithAbandonedLoad(gate:stoppedGate:)``, kept for the whole test.
    private var directory: TestDirectory?

    // XCTest on Linux never frees the instances of async tests, so the files go here.
    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    /// A store whose decoder polls for stops and waits at `gate` decoding "photo" (20 bytes),
    /// with the load of a task that reached the gate and was then cancelled.
    private func storeWithAbandonedLoad(
        gate: DecodeGate, stoppedGate: DecodeGate? = nil
    ) async -> (ImageStore<Bitmap>, FakeDecoder, leaving: Result<Bitmap, any Error>) {
        let directory = TestDirectory()
        directory.write("photo.png", size: 20, fill: 2)
        let decoder = FakeDecoder(gates: [2: gate], pollsForStop: true, stoppedGate: stoppedGate)
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let leaving = Task { try await store.fetchImage(named: "photo") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        leaving.cancel()
        self.directory = directory
        return (store, decoder, await leaving.result)
    }

    /// Looks "photo" up, which joins the load in flight, then opens `gate` and waits for it.
    private func lookUpJoining(_ store: ImageStore<Bitmap>, thenOpen gate: DecodeGate) async throws -> Bitmap {
        let joining = Task { try await store.fetchImage(named: "photo") }
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 1 })
        gate.open()
        return try await joining.value
    }

    func test_runningLoad_whoseLastWaiterLeft_stops_andStoresNothing() async throws {
        let gate = DecodeGate()
        let (store, _, leaving) = await storeWithAbandonedLoad(gate: gate)

        gate.open()

        XCTAssertEqual(leaving.failure as? ImageStoreError, .cancelled)
        XCTAssertTrue(eventually { store.statistics.loadsStoppedWhileRunning == 1 })
        XCTAssertTrue(eventually { store.engine._withState { $0.loads.inFlight.operations.isEmpty } })
        XCTAssertNil(store.cachedImage(named: "photo"), "a stopped load stored an image")
        XCTAssertEqual(store.statistics.decodes, 1)
        XCTAssertEqual(store.engine._withState { $0.memory.decodingCost }, 0)
    }

    func test_waiterJoiningBeforeThePoll_keepsTheLoadGoing() async throws {
        let gate = DecodeGate()
        let (store, decoder, _) = await storeWithAbandonedLoad(gate: gate)

        let image = try await lookUpJoining(store, thenOpen: gate)

        XCTAssertEqual(image.cost, 20)
        XCTAssertEqual(store.statistics.loadsStoppedWhileRunning, 0)
        XCTAssertEqual(decoder.calls.count, 1)
    }

    func test_waiterJoiningAfterTheStop_getsTheLoadQueuedAgain() async throws {
        let gate = DecodeGate()
        let stoppedGate = DecodeGate()
        let (store, decoder, _) = await storeWithAbandonedLoad(gate: gate, stoppedGate: stoppedGate)
        gate.open()
        XCTAssertTrue(eventually { stoppedGate.arrived == 1 }, "the decoder did not see the stop")

        let image = try await lookUpJoining(store, thenOpen: stoppedGate)

        XCTAssertEqual(image.cost, 20)
        XCTAssertEqual(store.statistics.loadsStoppedWhileRunning, 1)
        XCTAssertEqual(decoder.calls.count, 2, "the stopped load was not decoded again")
        XCTAssertTrue(eventually { store.engine._withState { $0.loads.inFlight.operations.isEmpty } })
    }

    func test_synchronousCaller_isNeverStopped() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 20, fill: 2)
        let gate = DecodeGate()
        let sawCancellation = Lock(false)
        var decoder = FakeDecoder(gates: [2: gate], pollsForStop: true)
        decoder.onDecode = { sawCancellation.withLock { $0 = DecodeCancellation.current.get() != nil } }
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let synchronous = Task.detached { store.image(named: "photo") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let leaving = Task { try await store.fetchImage(named: "photo") }
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 1 })

        leaving.cancel()
        _ = await leaving.result
        gate.open()
        let image = await synchronous.value

        XCTAssertEqual(image?.cost, 20)
        XCTAssertFalse(sawCancellation.withLock { $0 }, "a synchronous caller's decode could be stopped")
        XCTAssertEqual(store.statistics.loadsStoppedWhileRunning, 0)
    }

    private func stopRequested() -> DecodeCancellation {
        let cancellation = DecodeCancellation()
        cancellation.requestStop()
        return cancellation
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
