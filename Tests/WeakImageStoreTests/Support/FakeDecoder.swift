import Dispatch
import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// A decoder for store tests: a file's bytes become a one-row gray bitmap, so an image's cost is
/// its file size. It counts its calls, can be slowed down, and fails on files starting "FAIL".
struct FakeDecoder: ImageDecoding {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "fake decoder refused the file" }
    }

    final class Calls: Sendable {
        private let counter = Lock(0)
        var count: Int { counter.withLock { $0 } }
        func record() { counter.withLock { $0 += 1 } }
    }

    /// One decode as the tests observe it.
    struct Decode: Sendable, Equatable {
        /// The file's first byte: tests give every file its own fill byte.
        let fill: UInt8
        let thread: ObjectIdentifier
        let onMainThread: Bool
        /// The thumbnail size asked for; nil for a full-size decode.
        var maxPixelSize: Int? = nil
    }

    final class Log: Sendable {
        private let decodes = Lock<[Decode]>([])
        var entries: [Decode] { decodes.withLock { $0 } }
        var fills: [UInt8] { entries.map(\.fill) }
        func record(_ decode: Decode) { decodes.withLock { $0.append(decode) } }
    }

    let calls = Calls()
    let log = Log()
    var delay: TimeInterval = 0
    /// Whether it reads pixel sizes and decodes thumbnails: a file of n bytes is n × 1 pixels,
    /// and its thumbnail at m < n pixels is its first m bytes.
    var makesThumbnails = false
    /// Decodes of the files with these fill bytes wait at the gate until the test opens it, to
    /// hold loads in flight.
    var gates: [UInt8: DecodeGate] = [:]
    /// Called inside `decode`, to observe what the store does meanwhile.
    var onDecode: (@Sendable () -> Void)?
    /// Whether a full-size decode polls the store's ``DecodeCancellation`` once past its gate,
    /// as the built-in decoders do every row, and throws if the store asked it to stop; it waits
    /// at `stoppedGate` (if any) before throwing, to hold a stopped load in flight.
    var pollsForStop = false
    var stoppedGate: DecodeGate?

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
        guard let maxPixelSize = options.maxPixelSize else {
            return DecodeResult(image: try decodeFullSize(data, scale: options.scale))
        }
        return DecodeResult(image: decodeThumbnail(data, scale: options.scale, maxPixelSize: maxPixelSize))
    }

    private func decodeFullSize(_ data: Data, scale: Int) throws -> Bitmap {
        calls.record()
        log.record(
            Decode(
                fill: data.first ?? 0, thread: ObjectIdentifier(Thread.current), onMainThread: Thread.isMainThread))
        onDecode?()
        if let fill = data.first { gates[fill]?.pass() }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        if pollsForStop, let cancellation = DecodeCancellation.current.get(), cancellation.shouldStop() {
            stoppedGate?.pass()
            throw Failure()
        }
        if data.starts(with: Array("FAIL".utf8)) { throw Failure() }
        return Bitmap(width: data.count, height: 1, scale: scale, format: .gray8, pixels: [UInt8](data))
    }

    func header(of data: Data) -> ImageHeader? {
        makesThumbnails ? ImageHeader(width: data.count, height: 1, format: ImageFormat(name: "fake")) : nil
    }

    private func decodeThumbnail(_ data: Data, scale: Int, maxPixelSize: Int) -> Bitmap {
        precondition(makesThumbnails && maxPixelSize < data.count, "asked for a thumbnail it cannot make")
        calls.record()
        log.record(
            Decode(
                fill: data.first ?? 0, thread: ObjectIdentifier(Thread.current), onMainThread: Thread.isMainThread,
                maxPixelSize: maxPixelSize))
        if let fill = data.first { gates[fill]?.pass() }
        return Bitmap(
            width: maxPixelSize, height: 1, scale: scale, format: .gray8, pixels: Array(data.prefix(maxPixelSize)))
    }
}

/// Builds a store over `directories` with test-friendly defaults.
func makeStore(
    policy: CachePolicy = .default,
    directories: [URL],
    scales: [Int] = [2, 3, 1],
    maximumFileSize: Int = ImageStore<Bitmap>.defaultMaximumFileSize,
    maximumConcurrentLoads: Int = 2,
    decoder: FakeDecoder = FakeDecoder()
) -> ImageStore<Bitmap> {
    var configuration = ImageStore<Bitmap>.Configuration(directories: directories, decoder: decoder)
    configuration.policy = policy
    configuration.scales = scales
    configuration.maximumFileSize = maximumFileSize
    configuration.maximumConcurrentLoads = maximumConcurrentLoads
    return ImageStore(configuration)
}

/// A gate decodes wait at until the test opens it. Once open it stays open.
final class DecodeGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let arrivals = Lock(0)

    /// How many decodes have reached the gate.
    var arrived: Int { arrivals.withLock { $0 } }

    func pass() {
        arrivals.withLock { $0 += 1 }
        semaphore.wait()
        // Let the next one through too: an open gate stays open.
        semaphore.signal()
    }

    func open() {
        semaphore.signal()
    }
}

/// Polls `condition` until it holds or `timeout` passes; true if it held.
@discardableResult
func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Every policy, for tests that must hold under all of them.
let allPolicies: [CachePolicy] = [
    .uncached, .strong, .retainCountSweep, .weak,
    .weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
]

/// The policies that keep a weak layer, under which an image in use is always shared.
let weakPolicies: [CachePolicy] = [.weak, .weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)]

/// Runs `body(thread)` on `threads` dedicated threads released at the same moment, and waits
/// for all of them. (`concurrentPerform` would use only as many threads as cores.)
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for index in 0..<threads {
        finished.enter()
        let thread = Thread {
            start.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    for _ in 0..<threads { start.signal() }
    finished.wait()
}
