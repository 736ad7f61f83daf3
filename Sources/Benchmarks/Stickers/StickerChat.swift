import Foundation
import ImageCodecs
import ImageStoreTestSupport
import WeakImageStore

/// The chat: 300 messages each showing one of the stickers, ten on screen, scrolled at reading
/// speed or flung, played at 60 frames per second on the benchmark's UI clock.
struct StickerChat {
    enum Speed: CaseIterable {
        /// One message a second: a person reading.
        case reading
        /// Forty messages a second through the whole chat.
        case fling

        var label: String {
            switch self {
            case .reading: "reading (1 message/s)"
            case .fling: "fling (40 messages/s)"
            }
        }
    }

    /// What one strategy did over one scroll.
    struct Run {
        let strategy: StickerStrategy
        let speed: Speed
        let peakDecodedBytes: Int
        let frameDecodes: Int
        let seconds: Double
        let lateFrames: Int
        /// Message frames drawn with the placeholder: the sticker not decoded yet.
        let placeholderDraws: Int
        let frames: [ScrollingRun.Frame]
        /// Live decoded bytes after each frame.
        let memory: [Int]

        /// Frames whose UI-thread work did not fit 16.7 ms, by the thread's CPU time (the other
        /// sections' measure: on a shared machine the wall clock also counts other processes).
        var framesOverBudgetByCPU: Int {
            frames.filter { $0.cpuNanoseconds > ScrollingRun.frameBudgetNanoseconds }.count
        }
        /// The same by the wall clock.
        var framesOverBudgetByWall: Int {
            frames.filter { $0.wallNanoseconds > ScrollingRun.frameBudgetNanoseconds }.count
        }
        var decodesPerSecond: Double { Double(frameDecodes) / max(seconds, 1e-9) }
    }

    static let visibleMessages = 10
    /// Messages ahead of the screen whose animations the shared strategy loads before they appear.
    static let prefetchedMessages = 5
    /// The longest side stickers are decoded at: a 120-point bubble at 2x.
    static let maxPixelSize = 240

    let stickers: StickerSet
    /// The sticker of each message.
    let messages: [Int]
    let quick: Bool

    /// A chat over `stickers`: every third screen shows one sticker five times, the others are
    /// drawn from a seeded generator.
    init(stickers: StickerSet, quick: Bool) {
        self.stickers = stickers
        self.quick = quick
        var generator = SeededGenerator(seed: 36)
        let count = stickers.stickers.count
        messages = (0..<(quick ? 100 : 300)).map { index in
            let screen = index / Self.visibleMessages
            if screen % 3 == 0, index % 2 == 0 { return screen % count }
            return generator.int(in: 0...(count - 1))
        }
    }

    func run(_ strategy: StickerStrategy, _ speed: Speed) -> Run {
        let frameCount =
            switch speed {
            case .reading: quick ? 180 : 720
            case .fling: (messages.count - Self.visibleMessages) * 60 / 40
            }
        let baseline = BitmapMemory.current.liveBytes
        BitmapMemory.resetPeak()
        let queue = DispatchQueue(label: "stickers.decode", qos: .userInitiated, attributes: .concurrent)
        let decodes = StickerDecodeCounter()
        let store = makeStore(strategy)
        var cells: [Int: any StickerCell] = [:]
        var prefetched: [Int: Task<ImageAnimation<Bitmap>?, Never>] = [:]
        var loop = FrameLoop()
        loop.reserveCapacity(frameCount)
        var memory: [Int] = []
        var placeholders = 0
        var late = 0
        let started = MonotonicClock.now()
        for frame in 0..<frameCount {
            let now = Double(frame) / 60
            let top =
                switch speed {
                case .reading: min(frame / 60, messages.count - Self.visibleMessages)
                case .fling: min(frame * 40 / 60, messages.count - Self.visibleMessages)
                }
            let visible = top..<top + Self.visibleMessages
            loop.draw {
                for (index, cell) in cells where !visible.contains(index) {
                    late += cell.lateFrames
                    cell.disappear()
                    cells[index] = nil
                }
                if let store {
                    let ahead = visible.upperBound..<min(visible.upperBound + Self.prefetchedMessages, messages.count)
                    for index in prefetched.keys where !ahead.contains(index) && !visible.contains(index) {
                        prefetched.removeValue(forKey: index)?.cancel()
                    }
                    for index in ahead where prefetched[index] == nil {
                        let request = self.request(for: index)
                        prefetched[index] = Task.detached(priority: .utility) {
                            try? await store.animation(for: request, priority: .low)
                        }
                    }
                }
                for index in visible {
                    let cell =
                        cells[index]
                        ?? makeCell(strategy, message: index, store: store, queue: queue, decodes: decodes)
                    cells[index] = cell
                    if cell.draw(at: now) == nil { placeholders += 1 }
                }
            }
            memory.append(BitmapMemory.current.liveBytes - baseline)
        }
        let seconds = Double(MonotonicClock.now() - started) / 1e9
        for cell in cells.values {
            late += cell.lateFrames
            cell.disappear()
        }
        for task in prefetched.values { task.cancel() }
        queue.sync(flags: .barrier) {}
        let frameDecodes = store.map { $0.statistics.animationFrameDecodes } ?? decodes.value
        return Run(
            strategy: strategy, speed: speed, peakDecodedBytes: BitmapMemory.current.peakBytes - baseline,
            frameDecodes: frameDecodes, seconds: seconds, lateFrames: late, placeholderDraws: placeholders,
            frames: loop.frames, memory: memory)
    }

    private func request(for message: Int) -> ImageRequest {
        .named(stickers.stickers[messages[message]].name, maxPixelSize: Self.maxPixelSize)
    }

    private func makeStore(_ strategy: StickerStrategy) -> ImageStore<Bitmap>? {
        guard case .sharedAnimation(let budget) = strategy else { return nil }
        var configuration = ImageStore<Bitmap>.Configuration(directories: [stickers.directory])
        configuration.animationFrameBudget = budget
        return ImageStore(configuration)
    }

    private func makeCell(
        _ strategy: StickerStrategy, message: Int, store: ImageStore<Bitmap>?, queue: DispatchQueue,
        decodes: StickerDecodeCounter
    ) -> any StickerCell {
        let file = stickers.directory.appendingPathComponent(stickers.stickers[messages[message]].name)
        switch strategy {
        case .everyFrameUpFront:
            return UpFrontStickerCell(file: file, maxPixelSize: Self.maxPixelSize, decodes: decodes, queue: queue)
        case .bufferPerView:
            return BufferedStickerCell(file: file, maxPixelSize: Self.maxPixelSize, decodes: decodes, queue: queue)
        case .sharedAnimation:
            guard let store else { preconditionFailure("the shared strategy has a store") }
            return SharedStickerCell(request: request(for: message), store: store)
        }
    }
}
