import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The loading threads (and synchronous callers) admit decodes against the store's shared byte
/// cap: decodes that do not fit together wait, first come first served; one above the cap runs
/// alone; a load nobody waits for any more stops waiting at once; nothing deadlocks.
final class DecodeAdmissionTests: XCTestCase {
    func test_twoDecodesOfTheCap_neverRunAtOnce() async throws {
        // Given: a cap of 100 bytes and two files whose decodes need 100 bytes each
        let directory = TestDirectory()
        directory.write("first.png", size: 100, fill: 1)
        directory.write("second.png", size: 100, fill: 2)
        let gate = DecodeGate()
        let decoder = PeakDecoder(gates: [1: gate])
        let store = Self.makeGatedStore(directory, decoder: decoder, cap: 100)
        // When: the first decode holds the cap while the second load starts
        let first = Task { try await store.fetchImage(named: "first") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let second = Task { try await store.fetchImage(named: "second") }
        // Then: the second waits for admission instead of decoding beside the first
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.waitingCount == 1 })
        XCTAssertEqual(decoder.concurrency.running, 1)
        gate.open()
        _ = try await (first.value, second.value)
        XCTAssertEqual(decoder.concurrency.mostAtOnce, 1)
        XCTAssertEqual(store.engine.decodeAdmission.statistics.waits, 1)
        XCTAssertEqual(store.engine.decodeAdmission.statistics.peakAdmittedBytes, 100)
    }

    func test_decodeAboveTheCap_runsAlone_andLaterSmallDecodesWaitTheirTurn() async throws {
        // Given: a small decode running, then one five times the cap, then another small one
        let directory = TestDirectory()
        directory.write("small.png", size: 10, fill: 1)
        directory.write("huge.png", size: 500, fill: 2)
        directory.write("later.png", size: 10, fill: 3)
        let gate = DecodeGate()
        let decoder = PeakDecoder(gates: [1: gate])
        let store = Self.makeGatedStore(directory, decoder: decoder, cap: 100)
        let small = Task { try await store.fetchImage(named: "small") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let huge = Task { try await store.fetchImage(named: "huge") }
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.waitingCount == 1 })
        // When: the later small one would fit beside the running one
        let later = Task { try await store.fetchImage(named: "later") }
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.waitingCount == 2 })
        gate.open()
        // Then: it waited behind the huge one, which ran alone; nothing deadlocked
        let images = try await (small.value, huge.value, later.value)
        XCTAssertEqual([images.0.width, images.1.width, images.2.width], [10, 500, 10])
        XCTAssertEqual(decoder.concurrency.mostAtOnce, 1)
        XCTAssertEqual(decoder.log.fills, [1, 2, 3])
        XCTAssertEqual(store.engine.decodeAdmission.statistics.peakAdmittedBytes, 500)
    }

    func test_loadWhoseWaitersLeft_stopsWaitingForAdmissionAtOnce() async throws {
        // Given: the cap held by a decode at its gate, a second load waiting for admission
        let directory = TestDirectory()
        directory.write("first.png", size: 100, fill: 1)
        directory.write("second.png", size: 100, fill: 2)
        let gate = DecodeGate()
        let decoder = PeakDecoder(gates: [1: gate])
        let store = Self.makeGatedStore(directory, decoder: decoder, cap: 100)
        let first = Task { try await store.fetchImage(named: "first") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let second = Task { try await store.fetchImage(named: "second") }
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.waitingCount == 1 })
        // When: its only waiter leaves
        second.cancel()
        // Then: its loading thread leaves the line before the first decode ends
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.abandoned == 1 })
        XCTAssertEqual(store.engine.decodeAdmission.statistics.waitingCount, 0)
        XCTAssertEqual(gate.arrived, 1)
        gate.open()
        _ = try await first.value
        XCTAssertEqual(decoder.log.fills, [1], "a load nobody waits for was decoded")
    }

    func test_synchronousLookup_waitsForAdmission_thenDecodes() async throws {
        // Given: the cap held by an asynchronous load's decode
        let directory = TestDirectory()
        directory.write("first.png", size: 100, fill: 1)
        directory.write("second.png", size: 100, fill: 2)
        let gate = DecodeGate()
        let decoder = PeakDecoder(gates: [1: gate])
        let store = Self.makeGatedStore(directory, decoder: decoder, cap: 100)
        let first = Task { try await store.fetchImage(named: "first") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        // When: a synchronous lookup on another thread
        let done = DispatchSemaphore(value: 0)
        let width = Lock<Int?>(nil)
        Thread {
            width.withLock { $0 = store.image(named: "second")?.width }
            done.signal()
        }.start()
        // Then: it waits its turn, and gets its image once the first decode ends
        XCTAssertTrue(eventually { store.engine.decodeAdmission.statistics.waitingCount == 1 })
        gate.open()
        done.wait()
        _ = try await first.value
        XCTAssertEqual(width.withLock { $0 }, 100)
        XCTAssertEqual(decoder.concurrency.mostAtOnce, 1)
    }

    func test_decoderThatCannotTellItsPeak_isAdmittedAtOnce() throws {
        // Given: FakeDecoder has no decodingPeakBytes
        let directory = TestDirectory()
        directory.write("icon.png", size: 100, fill: 1)
        let store = makeStore(directories: [directory.url])
        // When
        let image = try store.loadImage(named: "icon")
        // Then
        XCTAssertEqual(image.width, 100)
        XCTAssertEqual(store.engine.decodeAdmission.statistics.peakAdmittedBytes, 0)
    }

    private static func makeGatedStore(_ directory: TestDirectory, decoder: PeakDecoder, cap: Int) -> ImageStore<Bitmap>
    {
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: decoder)
        configuration.maximumConcurrentLoads = 3
        configuration.maximumConcurrentDecodingBytes = cap
        return ImageStore(configuration)
    }
}

/// Decodes a file into a one-row gray bitmap and says its decode needs the file's size at its
/// peak; counts the decodes running at once; decodes of the gated fill bytes wait at their gate.
private struct PeakDecoder: ImageDecoding {
    final class Concurrency: Sendable {
        private let counts = Lock((running: 0, mostAtOnce: 0))
        var running: Int { counts.withLock { $0.running } }
        var mostAtOnce: Int { counts.withLock { $0.mostAtOnce } }

        func enter() {
            counts.withLock {
                $0.running += 1
                $0.mostAtOnce = max($0.mostAtOnce, $0.running)
            }
        }

        func leave() { counts.withLock { $0.running -= 1 } }
    }

    let gates: [UInt8: DecodeGate]
    let concurrency = Concurrency()
    let log = FakeDecoder.Log()

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
        concurrency.enter()
        defer { concurrency.leave() }
        log.record(
            FakeDecoder.Decode(
                fill: data.first ?? 0, thread: ObjectIdentifier(Thread.current), onMainThread: Thread.isMainThread))
        if let fill = data.first { gates[fill]?.pass() }
        return DecodeResult(
            image: Bitmap(width: data.count, height: 1, scale: options.scale, format: .gray8, pixels: [UInt8](data)))
    }

    func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        data.count
    }
}
