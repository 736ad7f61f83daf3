import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `.weakWithBudgetedLRU`: the LRU gives way to the images in use.
final class LiveCostBudgetTests: XCTestCase {
    /// Icons of 50 bytes (admitted to the LRU), photos of 200 (never admitted), a 300-byte budget.
    private func makeBudgetedStore() -> (ImageStore<Bitmap>, TestDirectory) {
        let directory = TestDirectory()
        for index in 0..<8 { directory.write("icon\(index).png", size: 50, fill: UInt8(index)) }
        for index in 0..<3 { directory.write("photo\(index).png", size: 200, fill: UInt8(index)) }
        let store = makeStore(
            policy: .weakWithBudgetedLRU(liveCostLimit: 300, costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
            directories: [directory.url])
        return (store, directory)
    }

    func test_budget_trimsLRU_whenInUseImagesGrow() {
        let (store, directory) = makeBudgetedStore()
        for index in 0..<5 { _ = store.image(named: "icon\(index)") }
        XCTAssertEqual(store.statistics.liveCost, 250)
        XCTAssertEqual(store.statistics.strongCount, 5)

        let photo = store.image(named: "photo0")  // 450 live: the three oldest icons give way

        XCTAssertEqual(store.statistics.liveCost, 300)
        XCTAssertEqual(store.statistics.strongCount, 2)
        XCTAssertEqual(store.statistics.evictions, 3)
        XCTAssertEqual(store.statistics.budgetOverruns, 0)
        XCTAssertEqual(store.statistics.liveCostLimit, 300)
        XCTAssertIdentical(store.image(named: "icon4"), store.image(named: "icon4"), "the newest icons stay")
        XCTAssertEqual(store.statistics.strongHits, 2)
        XCTAssertNotNil(photo)
        _ = directory
    }

    func test_budget_admitsNothing_andCountsOverrun_whenInUseImagesAloneExceedIt() {
        let (store, directory) = makeBudgetedStore()
        for index in 0..<3 { _ = store.image(named: "icon\(index)") }
        let first = store.image(named: "photo0")
        XCTAssertEqual(store.statistics.liveCost, 300)

        let second = store.image(named: "photo1")  // 400 bytes in use: the LRU empties

        XCTAssertEqual(store.statistics.liveCost, 400)
        XCTAssertEqual(store.statistics.strongCount, 0)
        XCTAssertEqual(store.statistics.budgetOverruns, 1)
        _ = store.image(named: "icon5")
        XCTAssertEqual(store.statistics.strongCount, 0, "no admission while over the budget")
        XCTAssertEqual(store.statistics.liveCost, 400, "the unadmitted icon died with its last user")
        let third = store.image(named: "photo2")
        XCTAssertEqual(store.statistics.budgetOverruns, 1, "one overrun until live bytes fit again")
        XCTAssertNotNil(first)
        XCTAssertNotNil(second)
        XCTAssertNotNil(third)
        _ = directory
    }

    func test_budget_admitsAgain_andCountsNewOverrun_afterLiveBytesFit() {
        let (store, directory) = makeBudgetedStore()
        var first = store.image(named: "photo0")
        var second = store.image(named: "photo1")
        XCTAssertEqual(store.statistics.budgetOverruns, 1)

        second = nil  // 200 live: fits again
        _ = store.image(named: "icon0")
        XCTAssertEqual(store.statistics.strongCount, 1, "admitted: 250 ≤ 300")
        XCTAssertEqual(store.statistics.liveCost, 250)
        second = store.image(named: "photo1")

        XCTAssertEqual(store.statistics.liveCost, 400)
        XCTAssertEqual(store.statistics.strongCount, 0)
        XCTAssertEqual(store.statistics.budgetOverruns, 2)
        XCTAssertNotNil(first)
        first = nil
        XCTAssertNotNil(second)
        second = nil
        XCTAssertEqual(store.statistics.liveCost, 0)
        _ = directory
    }

    func test_budget_evictsInUseLRUEntriesToo_soLettingGoCannotLeaveLiveBytesOver() {
        let (store, directory) = makeBudgetedStore()
        var heldIcons = [store.image(named: "icon0"), store.image(named: "icon1")]
        _ = store.image(named: "icon2")
        _ = store.image(named: "icon3")
        XCTAssertEqual(store.statistics.liveCost, 200)

        let photo = store.image(named: "photo0")  // 400 live; evicting held icons frees nothing yet

        XCTAssertEqual(store.statistics.liveCost, 300, "the icons only the LRU held died")
        XCTAssertEqual(store.statistics.strongCount, 0, "held icons left the LRU too")
        XCTAssertEqual(store.statistics.budgetOverruns, 0)
        heldIcons.removeAll()
        XCTAssertEqual(store.statistics.liveCost, 200, "letting go frees them: nothing is left over the budget")
        XCTAssertNotNil(photo)
        _ = directory
    }

    func test_budget_keepsLiveBytes_withinMaxOfBudgetAndInUse_atEveryStep() {
        let (store, directory) = makeBudgetedStore()
        var held: [String: Bitmap] = [:]
        var random = SeededGenerator(seed: 42)
        for step in 0..<400 {
            let name =
                Int.random(in: 0..<4, using: &random) == 0
                ? "photo\(Int.random(in: 0..<3, using: &random))" : "icon\(Int.random(in: 0..<8, using: &random))"
            // The lookup's result dies at the end of this block unless `held` keeps it.
            do {
                let image = store.image(named: name)!
                if Int.random(in: 0..<3, using: &random) == 0 { held[name] = image }
            }
            if Int.random(in: 0..<4, using: &random) == 0, let key = held.keys.sorted().first { held[key] = nil }

            let inUse = held.values.reduce(0) { $0 + $1.cost }
            let statistics = store.statistics
            XCTAssertLessThanOrEqual(statistics.liveCost, max(300, inUse), "step \(step)")
            // Each name has one instance at a time: alive means held, in the LRU, or both.
            let alive = Set(held.keys).union(namesInLRU(store))
            XCTAssertEqual(
                statistics.liveCost, alive.reduce(0) { $0 + ($1.hasPrefix("photo") ? 200 : 50) }, "step \(step)")
        }
        _ = directory
    }

    /// The images the LRU holds, by name, read without touching its recency order.
    private func namesInLRU(_ store: ImageStore<Bitmap>) -> Set<String> {
        let paths = store.engine.state.withLock { state in
            (state.memory.storage as? WeakWithLRUStorage)?.recentlyUsed.keysByRecency.compactMap(\.filePath) ?? []
        }
        return Set(paths.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
    }

    func test_budgetOverruns_areDelivered_andStreamEndsWithStore() async {
        var (store, directory): (ImageStore<Bitmap>?, TestDirectory) = makeBudgetedStore()
        var overruns = store!.budgetOverruns().makeAsyncIterator()
        var first = try? store!.loadImage(named: "photo0")
        var second = try? store!.loadImage(named: "photo1")

        let overrun = await overruns.next()

        XCTAssertEqual(overrun, BudgetOverrun(liveCost: 400, liveCostLimit: 300))
        XCTAssertNotNil(first)
        first = nil
        XCTAssertNotNil(second)
        second = nil
        store = nil
        let end = await overruns.next()
        XCTAssertNil(end, "the stream ends when the store is freed")
        _ = directory
    }

    /// Five 50-byte icons in the LRU of a 400-byte budget. The decoder reads pixel sizes (a file
    /// of n bytes is n × 1 pixels), so each decode first reserves 4 bytes a pixel: a 60-pixel
    /// photo reserves 240.
    private func makeReservingStore(strongCountsDuringDecode: Lock<[Int]>) -> (
        ImageStore<Bitmap>, Lock<ImageStore<Bitmap>?>, TestDirectory
    ) {
        let directory = TestDirectory()
        for index in 0..<5 { directory.write("icon\(index).png", size: 50, fill: UInt8(index)) }
        directory.write("photo.png", size: 60, fill: 9)
        directory.write("broken.png", Array("FAIL".utf8) + [UInt8](repeating: 0, count: 46))
        let observed = Lock<ImageStore<Bitmap>?>(nil)
        var decoder = FakeDecoder()
        decoder.makesThumbnails = true
        decoder.onDecode = {
            guard let store = observed.withLock({ $0 }) else { return }
            strongCountsDuringDecode.withLock { $0.append(store.statistics.strongCount) }
        }
        let store = makeStore(
            policy: .weakWithBudgetedLRU(liveCostLimit: 400, costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
            directories: [directory.url], decoder: decoder)
        for index in 0..<5 { _ = store.image(named: "icon\(index)") }
        return (store, observed, directory)
    }

    func test_budget_makesRoomBeforeDecoding_whenTheDecoderReadsTheSize() {
        let strongCounts = Lock<[Int]>([])
        let (store, observed, directory) = makeReservingStore(strongCountsDuringDecode: strongCounts)
        XCTAssertEqual(store.statistics.strongCount, 5, "each icon's reservation fit: at most 200 + 200")
        observed.withLock { $0 = store }

        let photo = store.image(named: "photo")

        // 250 live + 240 reserved: the two oldest icons give way before the decode starts.
        XCTAssertEqual(strongCounts.withLock { $0 }, [3], "the LRU made room before decoding")
        observed.withLock { $0 = nil }
        XCTAssertNotNil(photo)
        XCTAssertEqual(store.statistics.liveCost, 210, "the photo counts its real 60 bytes once decoded")
        XCTAssertEqual(store.statistics.strongCount, 4, "and is admitted")
        XCTAssertEqual(
            store.engine.state.withLock { $0.memory.decodingCost }, 0, "the reservation ended with the decode")
        XCTAssertEqual(store.statistics.budgetOverruns, 0, "a reservation is no overrun")
        _ = directory
    }

    func test_budget_endsReservation_whenDecodingFails() {
        let (store, _, directory) = makeReservingStore(strongCountsDuringDecode: Lock([]))

        XCTAssertNil(store.image(named: "broken"))  // 250 live + 200 reserved: icon0 gives way

        XCTAssertEqual(store.engine.state.withLock { $0.memory.decodingCost }, 0)
        XCTAssertEqual(store.statistics.liveCost, 200)
        XCTAssertEqual(store.statistics.strongCount, 4)
        XCTAssertEqual(store.statistics.budgetOverruns, 0)
        _ = directory
    }

    /// A decoder whose header claims an image of `Int.max` × `Int.max` pixels.
    private struct HugeHeaderDecoder: ImageDecoding {
        let reservedDuringDecode: Lock<Int?>
        let store: Lock<ImageStore<Bitmap>?>

        func header(of data: Data) -> ImageHeader? {
            ImageHeader(width: .max, height: .max, format: ImageFormat(name: "huge"))
        }

        func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
            if let store = store.withLock({ $0 }) {
                reservedDuringDecode.withLock { $0 = store.engine.state.withLock { $0.memory.decodingCost } }
            }
            return DecodeResult(image: Bitmap(width: 1, height: 1, scale: options.scale, format: .gray8, pixels: [0]))
        }
    }

    func test_budget_capsAReservation_whenTheHeaderClaimsAnAbsurdSize() {
        let directory = TestDirectory()
        directory.write("huge.png", size: 10)
        let reserved = Lock<Int?>(nil)
        let observed = Lock<ImageStore<Bitmap>?>(nil)
        var configuration = ImageStore<Bitmap>.Configuration(
            directories: [directory.url], decoder: HugeHeaderDecoder(reservedDuringDecode: reserved, store: observed))
        configuration.policy = .budgeted(liveCostLimit: 1000)
        let store = ImageStore(configuration)
        observed.withLock { $0 = store }

        XCTAssertNotNil(store.image(named: "huge"))

        observed.withLock { $0 = nil }
        XCTAssertEqual(reserved.withLock { $0 }, 1 << 40, "1 TiB at most, so concurrent reservations cannot overflow")
        XCTAssertEqual(store.engine.state.withLock { $0.memory.decodingCost }, 0)
        _ = directory
    }

    func test_budget_reservesNothing_whenTheDecoderCannotReadTheSize() {
        let (store, directory) = makeBudgetedStore()
        for index in 0..<5 { _ = store.image(named: "icon\(index)") }

        XCTAssertEqual(store.statistics.strongCount, 5, "no reservation evicted anything")
        XCTAssertEqual(store.engine.state.withLock { $0.memory.decodingCost }, 0)
        _ = directory
    }

    func test_defaultPolicy_hasNoBudget_andBudgetedUsesDefaultLRU() {
        let directory = TestDirectory()
        let store = makeStore(directories: [directory.url])

        XCTAssertNil(store.statistics.liveCostLimit)
        XCTAssertEqual(
            CachePolicy.budgeted(liveCostLimit: 1234),
            .weakWithBudgetedLRU(
                liveCostLimit: 1234, costLimit: 16 * 1024 * 1024, countLimit: 500, admissionCostLimit: 256 * 1024))
    }
}
