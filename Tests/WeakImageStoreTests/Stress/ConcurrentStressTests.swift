import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// 8 threads × many random operations on every policy, checking the store's invariants throughout.
///
/// `STRESS_OPERATIONS` sets the operations per thread (default 20 000, about 12 s of the plain
/// test run; `STRESS_OPERATIONS=100000` for a longer run); the thread-sanitized CI run lowers it
/// to 10 000, because TSan slows every memory access tenfold.
final class ConcurrentStressTests: XCTestCase {
    private static let fileCount = 150
    private static let threads = 8
    private static let lru = CachePolicy.weakWithLRU(costLimit: 40_000, countLimit: 40, admissionCostLimit: 1_500)

    private var operationsPerThread: Int {
        ProcessInfo.processInfo.environment["STRESS_OPERATIONS"].flatMap(Int.init) ?? 20_000
    }

    /// File `index` holds `size(index)` bytes of `fill(index)`, so every image names its file.
    private static func size(_ index: Int) -> Int { 200 + (index * 37) % 2_800 }
    private static func fill(_ index: Int) -> UInt8 { UInt8(index % 251) }

    /// ~200 names for 150 files: `img7`, and for a third of the files also `img7.png`, plus the
    /// absolute path for `image(contentsOfFile:)`.
    private final class Fixture: Sendable {
        let directory = TestDirectory("stress")
        let names: [(name: String, file: Int)]

        init() {
            var names: [(String, Int)] = []
            for index in 0..<ConcurrentStressTests.fileCount {
                directory.write(
                    "img\(index).png", size: ConcurrentStressTests.size(index), fill: ConcurrentStressTests.fill(index))
                names.append(("img\(index)", index))
                if index % 3 == 0 { names.append(("img\(index).png", index)) }
            }
            self.names = names
        }
    }

    func test_randomOperations_onEveryPolicy_keepTheInvariants() throws {
        let fixture = Fixture()
        for policy in [CachePolicy.uncached, .strong, .retainCountSweep, .weak, Self.lru] {
            let before = Bitmap.memory.liveCount
            try stress(policy, fixture: fixture)
            XCTAssertEqual(Bitmap.memory.liveCount, before, "\(policy): bitmaps leaked")
        }
    }

    func test_criticalPressureUnderLoad_keepsImagesInUse() throws {
        let fixture = Fixture()
        for policy in [CachePolicy.weak, Self.lru] {
            let store = makeStore(policy: policy, directories: [fixture.directory.url])
            let violations = ViolationLog()
            let stop = Lock(false)
            runConcurrently(threads: 4) { thread in
                if thread == 0 {
                    while !stop.withLock({ $0 }) { store.handleMemoryPressure(.critical) }
                    return
                }
                var random = SeededGenerator(seed: UInt64(thread))
                var held: [Int: Bitmap] = [:]
                for _ in 0..<20_000 {
                    let file = Int.random(in: 0..<40, using: &random)
                    guard let image = store.image(named: "img\(file)") else {
                        violations.record("img\(file) missing")
                        continue
                    }
                    if let mine = held[file], mine !== image {
                        violations.record("img\(file): a held image was not returned")
                    }
                    held[file] = image
                    if held.count > 10, let victim = held.keys.randomElement(using: &random) {
                        held[victim] = nil
                    }
                }
                if thread == 1 { stop.withLock { $0 = true } }
            }
            stop.withLock { $0 = true }
            XCTAssertEqual(violations.messages, [], "\(policy)")
        }
    }

    /// Sync threads and async tasks at once: lookups, cancellations, prefetches, pressure.
    func test_randomAsyncAndSyncOperations_keepTheInvariants() async throws {
        let fixture = Fixture()
        for policy in [CachePolicy.uncached, .weak, Self.lru] {
            let before = Bitmap.memory.liveCount
            try await stressAsync(policy, fixture: fixture)
            // A loading thread lets go of the image it decoded just after delivering it.
            XCTAssertTrue(eventually { Bitmap.memory.liveCount == before }, "\(policy): bitmaps leaked")
        }
    }

    private func stressAsync(_ policy: CachePolicy, fixture: Fixture) async throws {
        let store = makeStore(policy: policy, directories: [fixture.directory.url], maximumConcurrentLoads: 2)
        let sharesWhileHeld = policy != .uncached
        let registry = InstanceRegistry(fileCount: Self.fileCount)
        let violations = ViolationLog()
        let operations = max(operationsPerThread / 20, 200)
        // removeAll() cancels queued loads: only a task that was cancelled, or overlapped one, may
        // hear `.cancelled`.
        let removals = Lock((started: 0, finished: 0))
        let check: @Sendable (Bitmap, Int, String) -> Void = { image, file, name in
            if image.cost != Self.size(file) || image.pixels.first != Self.fill(file) {
                violations.record("\(name) returned another file's image (\(image.cost) bytes)")
            }
            if sharesWhileHeld, let other = registry.register(image, file: file) {
                violations.record("two live instances of img\(file): \(other)")
            }
        }

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var random = SeededGenerator(seed: 0xA5_0000 + UInt64(worker))
                    var held: [Bitmap] = []
                    var prefetches: [ImagePrefetch] = []
                    for _ in 0..<operations {
                        let (name, file) = fixture.names.randomElement(using: &random)!
                        let roll = Int.random(in: 0..<1_000, using: &random)
                        switch roll {
                        case 0..<600:
                            let priority = ImageLoadPriority.allCases.randomElement(using: &random)!
                            let cancelled = roll < 150
                            let removalsBefore = removals.withLock { $0 }
                            let task = Task { try await store.fetchImage(named: name, priority: priority) }
                            if cancelled { task.cancel() }
                            let result = await task.result
                            let removalsAfter = removals.withLock { $0 }
                            let removedMeanwhile =
                                removalsBefore.started != removalsBefore.finished
                                || removalsAfter.started != removalsBefore.started
                            switch result {
                            case .success(let image):
                                check(image, file, name)
                                if held.count < 16 { held.append(image) } else { held[roll % 16] = image }
                            case .failure(let error as ImageStoreError)
                            where error == .cancelled && (cancelled || removedMeanwhile):
                                break
                            case .failure(let error):
                                violations.record("\(name): unexpected \(error)")
                            }
                        case 600..<800:
                            if let image = try? store.loadImage(named: name) { check(image, file, name) }
                        case 800..<850:
                            if let image = store.cachedImage(named: name) { check(image, file, name) }
                        case 850..<920:
                            prefetches.append(
                                store.prefetch(named: [name, fixture.names.randomElement(using: &random)!.name]))
                            if prefetches.count > 4 { prefetches.removeFirst().cancel() }
                        case 920..<990:
                            held.removeAll()
                            if let finished = prefetches.popLast() { await finished.finished() }
                        case 990..<996:
                            store.handleMemoryPressure(.warning)
                        default:
                            removals.withLock { $0.started += 1 }
                            store.removeAll()
                            removals.withLock { $0.finished += 1 }
                        }
                    }
                    for prefetch in prefetches { prefetch.cancel() }
                }
            }
        }

        XCTAssertEqual(violations.messages.prefix(10), [], "\(policy)")
        let statistics = store.statistics
        XCTAssertEqual(
            statistics.lookups,
            statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads,
            "\(policy)")
        XCTAssertTrue(
            eventually { store.engine._withState { $0.loads.inFlight.operations.isEmpty } },
            "\(policy): loads left behind")
        store.removeAll()
    }

    private func stress(_ policy: CachePolicy, fixture: Fixture) throws {
        let store = makeStore(policy: policy, directories: [fixture.directory.url])
        let sharesWhileHeld: Bool
        switch policy {
        case .weak, .weakWithLRU: sharesWhileHeld = true
        default: sharesWhileHeld = false
        }
        let registry = InstanceRegistry(fileCount: Self.fileCount)
        let violations = ViolationLog()
        let operations = operationsPerThread
        let paths = (0..<Self.fileCount).map { fixture.directory.path + "/img\($0).png" }

        runConcurrently(threads: Self.threads) { thread in
            var random = SeededGenerator(seed: 0x5EED_0000 + UInt64(thread))
            var held: [Bitmap] = []
            for step in 0..<operations {
                let roll = Int.random(in: 0..<10_000, using: &random)
                let (name, file) = fixture.names.randomElement(using: &random)!
                let image: Bitmap?
                switch roll {
                case 0..<8_000:
                    image = store.image(named: name)
                case 8_000..<9_500:
                    image = store.image(contentsOfFile: paths[file])
                case 9_500..<9_980:
                    image = nil
                    held.removeAll(keepingCapacity: true)
                case 9_980..<9_990:
                    image = nil
                    store.handleMemoryPressure(.warning)
                case 9_990..<9_998:
                    image = nil
                    store.handleMemoryPressure(.critical)
                default:
                    image = nil
                    store.removeAll()
                }
                if let image {
                    if image.cost != Self.size(file) || image.pixels.first != Self.fill(file) {
                        violations.record("\(name) returned another file's image (\(image.cost) bytes)")
                    }
                    if sharesWhileHeld, let other = registry.register(image, file: file) {
                        violations.record("two live instances of img\(file): \(other)")
                    }
                    if held.count < 32 { held.append(image) } else { held[step % 32] = image }
                }
                if step % 512 == 0 {
                    let statistics = store.statistics
                    if case .weakWithLRU(let costLimit, let countLimit, _) = policy,
                        statistics.strongCost > costLimit || statistics.strongCount > countLimit
                    {
                        violations.record(
                            "LRU over its limits: \(statistics.strongCost) bytes, \(statistics.strongCount) images")
                    }
                    let outcomes =
                        statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads
                    if outcomes != statistics.lookups {
                        violations.record(
                            "statistics do not add up: \(outcomes) outcomes for \(statistics.lookups) lookups")
                    }
                }
            }
        }

        let statistics = store.statistics
        XCTAssertEqual(violations.messages.prefix(10), [], "\(policy)")
        let lookupCalls = statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads
        XCTAssertEqual(statistics.lookups, lookupCalls, "\(policy)")
        XCTAssertEqual(statistics.decodes, statistics.misses, "\(policy): every miss decoded, nothing else")
        XCTAssertGreaterThan(statistics.lookups, Self.threads * operations * 9 / 10, "\(policy)")
        store.removeAll()
    }
}

/// The latest instance handed out per file, held weakly: a different instance while the
/// registered one is still alive means two live copies of one image.
private final class InstanceRegistry: Sendable {
    private struct Entry: Sendable { weak var image: Bitmap? }
    private let entries: Lock<[Entry]>

    init(fileCount: Int) {
        entries = Lock(Array(repeating: Entry(), count: fileCount))
    }

    /// Registers `image`; returns a description of the conflict if another instance is alive.
    func register(_ image: Bitmap, file: Int) -> String? {
        // The previous instance may die when the entry is overwritten: keep it until unlocked.
        var previous: Bitmap?
        let conflict: String? = entries.withLock { entries in
            previous = entries[file].image
            entries[file].image = image
            guard let previous, previous !== image else { return nil }
            return "\(ObjectIdentifier(previous)) and \(ObjectIdentifier(image))"
        }
        previous = nil
        return conflict
    }
}

private final class ViolationLog: Sendable {
    private let log = Lock<[String]>([])
    var messages: [String] { log.withLock { $0 } }
    func record(_ message: String) { log.withLock { $0.append(message) } }
}
