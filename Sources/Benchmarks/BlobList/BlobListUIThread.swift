import Foundation
import WeakImageStore

/// The UI thread of the blob list: opens the list (runs its query), shows the first screen, then
/// scrolls to the end at one ``ScrollSpeed`` and draws frames until the last screen has its
/// photos, at 60 frames per second.
///
/// Cells load the async way, as the scrolling workload's async style does: `cachedImage(for:)`
/// at once, else `image(for:priority: .high)` in a task cancelled when the row leaves; no
/// prefetch, so a row's blob is read only once the row appears. Only ``UIInbox`` is shared with
/// other threads.
final class BlobListUIThread: UIThreadWorkload {
    /// What the thread saw, for ``BlobListRun``.
    struct Observations: Sendable {
        /// Every frame: opening the list and its first screen, the scroll, the last screen.
        var frames: [ScrollingRun.Frame] = []
        var scrollFrames = 0..<0
        /// The list's query, run on the UI thread in the first frame.
        var queryNanoseconds: UInt64 = 0
        /// From opening the list to every row of the first screen showing its photo; nil if they
        /// did not all arrive within the settle time.
        var firstScreenNanoseconds: UInt64?
        /// Per row that got its photo while on screen: nanoseconds from shown to set.
        var shownToSetNanoseconds: [UInt64] = []
        /// Rows that left (or were on screen at the end) without their photo.
        var unfinishedRows = 0
        /// Distinct decoded images set on a row on screen.
        var usedDecodes = 0
        var failedLookups = 0
        /// The most live instances of one row's photo at once, minus one.
        var maximumDuplicates = 0
        /// The most decoded bytes the rows on screen held at the end of a frame.
        var peakInUseBytes = 0
        /// Per frame, after its work: the bytes alive of blobs and of decoded images.
        var memory: [MemorySample] = []
    }

    /// The bytes alive after one frame.
    struct MemorySample: Sendable {
        let blobBytes: Int
        /// Decoded bytes alive above what was alive before the list opened.
        let decodedBytes: Int
    }

    private let strategy: BlobListStrategy
    private let speed: ScrollSpeed
    private let table: BlobTable
    private let visibleRowCount: Int
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()
    private let decodedBytesBefore = Bitmap.memory.liveBytes

    private var frameLoop = FrameLoop()
    /// The query's result: the list's model while it is open.
    private var rows: [BlobTable.Row] = []
    /// The rows on screen: each shows its row's photo.
    private var visibleRows = TaggedCells<ImageCell>()
    private var deliveredImages = DeliveredImages()
    private var observations = Observations()

    init(
        strategy: BlobListStrategy, speed: ScrollSpeed, table: BlobTable, visibleRowCount: Int,
        store: ImageStore<Bitmap>
    ) {
        self.strategy = strategy
        self.speed = speed
        self.table = table
        self.visibleRowCount = min(visibleRowCount, table.rowCount)
        self.store = store
    }

    /// Plays the list, then closes it (its rows and their blobs go) and waits for the tasks it
    /// started.
    func play(settleSeconds: Double) -> Observations {
        let lastTop = table.rowCount - visibleRowCount
        var top = 0
        let opened = MonotonicClock.now()
        drawFrame {
            let queryStart = MonotonicClock.now()
            rows = table.rows(includingBlobs: strategy.queriesBlobs)
            observations.queryNanoseconds = MonotonicClock.now() - queryStart
            for row in 0..<visibleRowCount { show(row) }
        }
        if drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds) {
            observations.firstScreenNanoseconds = MonotonicClock.now() - opened
        }
        let scrollStart = frameLoop.frames.count
        var frame = 0
        while top < lastTop {
            drawFrame {
                receiveDeliveries()
                let newTop = min(speed.rowsMoved(atFrame: frame), lastTop)
                // Cell reuse: the rows that left let go before the new ones are configured.
                for row in top..<newTop { hide(row) }
                for row in max(newTop, top + visibleRowCount)..<(newTop + visibleRowCount) { show(row) }
                top = newTop
            }
            frame += 1
        }
        observations.scrollFrames = scrollStart..<frameLoop.frames.count
        drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds)
        tearDown()
        observations.frames = frameLoop.frames
        return observations
    }

    /// Draws a frame with `work`, then records, outside the frame's timing, what is alive.
    func drawFrame(_ work: () -> Void) {
        frameLoop.draw(work)
        let inUse = visibleRows.byTag.values.reduce(0) { $0 + ($1.image?.cost ?? 0) }
        observations.peakInUseBytes = max(observations.peakInUseBytes, inUse)
        observations.memory.append(
            MemorySample(
                blobBytes: table.usage.liveBytes, decodedBytes: Bitmap.memory.liveBytes - decodedBytesBefore))
    }

    /// Draws frames that only take deliveries until every row on screen has its photo, or
    /// `settleSeconds` have passed.
    ///
    /// - Returns: Whether every row on screen has its photo.
    @discardableResult
    private func drawFramesUntilVisibleRowsAreSet(settleSeconds: Double) -> Bool {
        drawFramesTakingDeliveries(forAtMost: settleSeconds, until: { visibleRows.allSatisfy { $0.image != nil } })
    }

    // MARK: Rows

    private func show(_ row: Int) {
        let tag = visibleRows.newTag(for: row)
        var state = ImageCell(item: row)
        let request = rows[row].photoRequest(in: table)
        if let image = store.cachedImage(for: request) {
            set(image, on: &state)
        } else {
            state.task = inbox.load(tag: tag, slot: 0) {
                [store] () async throws(ImageStoreError) in
                try await store.fetchImage(for: request, priority: .high)
            }
        }
        visibleRows.bind(state, tag: tag)
    }

    private func hide(_ row: Int) {
        guard let state = visibleRows.unbind(row) else { return }
        if state.image == nil { observations.unfinishedRows += 1 }
        // The row's photo is released here, on the UI thread, as a reused cell's would be.
    }

    private func set(_ image: Bitmap, on state: inout ImageCell) {
        guard state.image == nil else { return }
        deliveredImages.setOnScreen(image, key: photoKey(state.item))
        state.image = image
        observations.shownToSetNanoseconds.append(MonotonicClock.now() - state.shownAt)
    }

    private func photoKey(_ row: Int) -> String {
        "row \(rows[row].id)"
    }

    /// Sets what the tasks handed back; what arrived for a row already gone is dropped.
    func receiveDeliveries() {
        for delivery in inbox.drain() {
            guard let image = delivery.image else {
                observations.failedLookups += 1
                continue
            }
            guard var state = visibleRows[delivery.tag] else {
                deliveredImages.dropped(image, key: photoKey(visibleRows.item(ofTag: delivery.tag)))
                continue
            }
            set(image, on: &state)
            visibleRows[delivery.tag] = state
        }
    }

    /// Lets go of every row, waits for the tasks, takes what they still handed back, and closes
    /// the list: the query's rows, with the eager strategy's blobs, are freed here.
    private func tearDown() {
        for row in visibleRows.items { hide(row) }
        inbox.waitForPendingLoads()
        receiveDeliveries()
        observations.usedDecodes = deliveredImages.usedDecodes
        observations.maximumDuplicates = deliveredImages.maximumDuplicates
        rows = []
    }
}
