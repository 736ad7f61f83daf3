import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Threads look images up, hold them and let them go while other threads' images die and report,
/// memory pressure strikes and the budget trims; the live figures must stay consistent throughout
/// and exact whenever the threads pause.
///
/// `STRESS_OPERATIONS` scales the operations per thread: this test runs a twentieth of it, of
/// 100 000 when unset (each operation here is a whole image's life); the thread-sanitized CI
/// run lowers it.
final class LiveAccountingStressTests: XCTestCase {
    private static let fileCount = 60
    private static let threads = 6
    private static let rounds = 3
    private static let budget = 30_000

    private var operationsPerThread: Int {
        (ProcessInfo.processInfo.environment["STRESS_OPERATIONS"].flatMap(Int.init) ?? 100_000) / 20
    }

    private static func size(_ index: Int) -> Int { 100 + (index * 53) % 3_000 }

    func test_liveFigures_stayExact_whileImagesDieOnOtherThreads() {
        let directory = TestDirectory("live-stress")
        for index in 0..<Self.fileCount { directory.write("img\(index).png", size: Self.size(index)) }
        let policies: [CachePolicy] = [
            .uncached, .strong, .retainCountSweep, .weak,
            .weakWithLRU(costLimit: 20_000, countLimit: 20, admissionCostLimit: 1_500),
            .weakWithBudgetedLRU(
                liveCostLimit: Self.budget, costLimit: 20_000, countLimit: 20, admissionCostLimit: 1_500),
        ]
        for policy in policies {
            let baseline = Bitmap.memory.liveBytes
            var store: ImageStore<Bitmap>? = makeStore(policy: policy, directories: [directory.url])
            let violations = ViolationLog()
            for round in 0..<Self.rounds {
                runRound(store!, round: round, violations: violations)

                // Every thread let go of its images: only the strong layer keeps any.
                let statistics = store!.statistics
                let context = "\(policy), round \(round)"
                XCTAssertEqual(statistics.liveCost, Bitmap.memory.liveBytes - baseline, context)
                XCTAssertEqual(statistics.liveCost, statistics.strongCost, context)
                XCTAssertEqual(statistics.liveCount, statistics.strongCount, context)
                if case .weakWithBudgetedLRU = policy {
                    XCTAssertLessThanOrEqual(statistics.liveCost, Self.budget, context)
                }
                if policy != .strong, policy != .retainCountSweep, policy != .uncached {
                    XCTAssertEqual(statistics.weakCount, statistics.liveCount, "\(context): no corpses")
                }
            }
            store!.handleMemoryPressure(.critical)
            XCTAssertEqual(store!.statistics.liveCost, 0, "\(policy)")
            XCTAssertEqual(store!.statistics.liveCount, 0, "\(policy)")
            XCTAssertEqual(violations.messages, [], "\(policy)")
            store = nil
            XCTAssertEqual(Bitmap.memory.liveBytes, baseline, "\(policy): bitmaps leaked")
        }
    }

    /// One round: `threads - 1` workers and one thread reading the figures and sending memory
    /// warnings, until the workers are done.
    private func runRound(_ store: ImageStore<Bitmap>, round: Int, violations: ViolationLog) {
        let operations = operationsPerThread
        let workersLeft = Lock(Self.threads - 1)
        runConcurrently(threads: Self.threads) { thread in
            guard thread > 0 else {
                var checks = 0
                while workersLeft.withLock({ $0 }) > 0 {
                    Self.checkConsistency(store.statistics, violations: violations)
                    checks += 1
                    if checks % 64 == 0 { store.handleMemoryPressure(checks % 128 == 0 ? .critical : .warning) }
                }
                return
            }
            var random = SeededGenerator(seed: UInt64(round * 100 + thread))
            var held: [Bitmap] = []
            for _ in 0..<operations {
                let file = Int.random(in: 0..<Self.fileCount, using: &random)
                guard let image = store.image(named: "img\(file)") else {
                    violations.record("img\(file) missing")
                    continue
                }
                if image.cost != Self.size(file) { violations.record("img\(file) has the wrong cost") }
                if Int.random(in: 0..<2, using: &random) == 0 { held.append(image) }
                if held.count > 12 {
                    // Let go of a random one: often the last holder, so it dies here and reports.
                    held.swapAt(Int.random(in: 0..<held.count, using: &random), held.count - 1)
                    held.removeLast()
                }
            }
            held.removeAll()
            workersLeft.withLock { $0 -= 1 }
        }
    }

    /// What must hold at any instant, even while images die on other threads.
    private static func checkConsistency(_ statistics: ImageStoreStatistics, violations: ViolationLog) {
        if statistics.liveCost < 0 || statistics.liveCount < 0 {
            violations.record("negative live figures: \(statistics.liveCost) bytes, \(statistics.liveCount) images")
        }
        if statistics.strongCost > statistics.liveCost || statistics.strongCount > statistics.liveCount {
            violations.record("the strong layer holds more than is alive")
        }
        if statistics.weakCount > statistics.liveCount {
            violations.record(
                "a weak entry outlived its image's report: \(statistics.weakCount) > \(statistics.liveCount)")
        }
        if statistics.peakLiveCost < statistics.liveCost {
            violations.record("peak \(statistics.peakLiveCost) below live \(statistics.liveCost)")
        }
    }
}

private final class ViolationLog: Sendable {
    private let log = Lock<[String]>([])
    var messages: [String] { log.withLock { Array($0.prefix(20)) } }
    func record(_ message: String) { log.withLock { $0.append(message) } }
}
