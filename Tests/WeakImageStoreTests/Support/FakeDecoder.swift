import Dispatch
import Foundation

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

    let calls = Calls()
    var delay: TimeInterval = 0
    /// Called inside `decode`, to observe what the store does meanwhile.
    var onDecode: (@Sendable () -> Void)?

    func decode(_ data: Data, scale: Int) throws -> Bitmap {
        calls.record()
        onDecode?()
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        if data.starts(with: Array("FAIL".utf8)) { throw Failure() }
        return Bitmap(width: data.count, height: 1, scale: scale, format: .gray8, pixels: [UInt8](data))
    }
}

/// Builds a store over `directories` with test-friendly defaults.
func makeStore(
    policy: CachePolicy = .default,
    directories: [URL],
    scales: [Int] = [2, 3, 1],
    maximumFileSize: Int = ImageStore<Bitmap>.defaultMaximumFileSize,
    decoder: FakeDecoder = FakeDecoder()
) -> ImageStore<Bitmap> {
    ImageStore(
        directories: directories, policy: policy, scales: scales,
        maximumFileSize: maximumFileSize, decoder: decoder
    )
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
