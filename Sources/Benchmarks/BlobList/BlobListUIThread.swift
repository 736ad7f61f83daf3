import Foundation
import WeakImageStore

/// The UI thread of the blob list: opens the list (runs its query), shows the first screen, then
/// scrolls at one ``ScrollSpeed`` (to the end at the fast speeds, ``BlobListProfile/rowsScrolled(at:)``
/// rows at a person's pace, after looking at the first screen for
/// ``BlobListProfile/firstLookSeconds``) and draws frames until the last screen has its photos, at
/// 60 frames per second.
///
/// Cells load the async way, as the scrolling workload's async style does: `cachedImage(for:)`
/// at once, else `image(for:priority: .high)` in a task cancelled when the row leaves. A
/// ``ScrollPrefetcher`` told the visible rows every frame loads the rows ahead, as the network
/// feed's store loader does, so a row's blob is read when the prefetcher or its cell needs it.
/// Only ``UIInbox`` and the prefetcher are shared with other threads.
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
        /// Rows the scroll brought on screen (the first screen is not counted), and those of them
        /// without their photo in the frame they appeared.
        var rowsScrolledIn = 0
        var rowsScrolledInWithoutPhoto = 0
        /// The ids of every row shown.
        var shownRowIDs: Set<Int> = []
        /// Distinct decoded images set on a row on screen.
        var usedDecodes = 0
        var failedLookups = 0
        /// The most live instances of one row's photo at once, minus one.
        var maximumDuplicates = 0
        /// The most decoded bytes the rows on screen held at the end of a frame.
        var peakInUseBytes = 0
        /// The most decoded bytes the rows on screen and the prefetcher held together, each image
        /// once, and the most the prefetcher held that no row on screen showed; both sampled when
        /// each frame's tick came and after its work.
        var peakShownOrPrefetchedBytes = 0
        var peakPrefetchedNotShownBytes = 0
        /// The largest decoded photo set on a row: what one decode makes.
        var largestImageBytes = 0
        /// The most rows the prefetcher's plan loaded ahead of the visible ones.
        var mostRowsAhead = 0
        /// When the scroll ended: the store's estimate of the seconds from asking for a row's
        /// photo to having it, which the prefetcher plans by, and its measured decode part.
        var secondsPerRowEstimate = 0.0
        var decodeSecondsEstimate: Double?
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
    /// The top row the scroll stops at.
    private let lastTop: Int
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()
    private let decodedBytesBefore = Bitmap.memory.liveBytes

    private var frameLoop = FrameLoop()
    /// The query's result: the list's model while it is open.
    private var rows: [BlobTable.Row] = []
    /// The rows on screen: each shows its row's photo.
    private var visibleRows = TaggedCells<ImageCell>()
    /// Made with the query's rows, in the first frame; gone when the list closes.
    private var prefetcher: ScrollPrefetcher<Bitmap>?
    private var deliveredImages = DeliveredImages()
    private var observations = Observations()

    init(
        strategy: BlobListStrategy, speed: ScrollSpeed, table: BlobTable, profile: BlobListProfile,
        store: ImageStore<Bitmap>
    ) {
        self.strategy = strategy
        self.speed = speed
        self.table = table
        visibleRowCount = min(profile.visibleRowCount, table.rowCount)
        lastTop = min(profile.rowsScrolled(at: speed), table.rowCount - visibleRowCount)
        self.store = store
    }

    /// Plays the list, then closes it (its rows and their blobs go) and waits for the tasks it
    /// started.
    ///
    /// - Parameters:
    ///   - settleSeconds: The most time the first and the last screen wait for their photos.
    ///   - firstLookSeconds: How long the first screen stays still before a person's pace
    ///     scrolls; the fast speeds scroll as soon as it has its photos.
    func play(settleSeconds: Double, firstLookSeconds: Double) -> Observations {
        var top = 0
        let opened = MonotonicClock.now()
        drawFrame {
            let queryStart = MonotonicClock.now()
            rows = table.rows(includingBlobs: strategy.queriesBlobs)
            observations.queryNanoseconds = MonotonicClock.now() - queryStart
            prefetcher = ScrollPrefetcher(store: store, rowCount: rows.count) { [rows = self.rows, table] index in
                [rows[index].photoRequest(in: table)]
            }
            for row in 0..<visibleRowCount { show(row, scrolledIn: false) }
            prefetcher?.visibleRowsChanged(0..<visibleRowCount)
        }
        if drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds) {
            observations.firstScreenNanoseconds = MonotonicClock.now() - opened
        }
        if speed.isPersonPace { drawFramesTakingDeliveries(forAtMost: firstLookSeconds, until: { false }) }
        let scrollStart = frameLoop.frames.count
        var frame = 0
        while top < lastTop {
            drawFrame {
                receiveDeliveries()
                let newTop = min(speed.rowsMoved(atFrame: frame), lastTop)
                // Cell reuse: the rows that left let go before the new ones are configured.
                for row in top..<newTop { hide(row) }
                for row in max(newTop, top + visibleRowCount)..<(newTop + visibleRowCount) {
                    show(row, scrolledIn: true)
                }
                top = newTop
                prefetcher?.visibleRowsChanged(top..<(top + visibleRowCount))
            }
            frame += 1
        }
        observations.scrollFrames = scrollStart..<frameLoop.frames.count
        if let row = rows.first {
            // Every row's estimate is the same: the store's decodes, and no host for a provider.
            let estimate = store.loadEstimate(for: row.photoRequest(in: table))
            observations.secondsPerRowEstimate = estimate.secondsToImage()
            observations.decodeSecondsEstimate = estimate.decodeSeconds
        }
        drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds)
        tearDown()
        observations.frames = frameLoop.frames
        return observations
    }

    /// Draws a frame with `work`, and records, outside the frame's timing, what the rows and the
    /// prefetcher held when its tick came and what is alive after it.
    func drawFrame(_ work: () -> Void) {
        frameLoop.draw(atTick: recordHeldBytes, work)
        recordHeldBytes()
        observations.memory.append(
            MemorySample(
                blobBytes: table.usage.liveBytes, decodedBytes: Bitmap.memory.liveBytes - decodedBytesBefore))
    }

    /// Records the decoded bytes the rows on screen hold and those the prefetcher holds besides.
    ///
    /// Between two frames the prefetcher only gains images (its loads finish; only the UI thread
    /// cancels them), so a sample at the tick and one after the work see the most it held, but
    /// for a load that finishes during a frame that cancels it.
    private func recordHeldBytes() {
        var shown: [ObjectIdentifier: Int] = [:]
        for case let image? in visibleRows.byTag.values.map(\.image) { shown[ObjectIdentifier(image)] = image.cost }
        var prefetchedOnly: [ObjectIdentifier: Int] = [:]
        for image in prefetcher?.heldImages ?? [] where shown[ObjectIdentifier(image)] == nil {
            prefetchedOnly[ObjectIdentifier(image)] = image.cost
        }
        let shownBytes = shown.values.reduce(0, +)
        let prefetchedBytes = prefetchedOnly.values.reduce(0, +)
        observations.peakInUseBytes = max(observations.peakInUseBytes, shownBytes)
        observations.peakPrefetchedNotShownBytes = max(observations.peakPrefetchedNotShownBytes, prefetchedBytes)
        observations.peakShownOrPrefetchedBytes = max(
            observations.peakShownOrPrefetchedBytes, shownBytes + prefetchedBytes)
        observations.mostRowsAhead = max(observations.mostRowsAhead, prefetcher?.plan?.rowsAhead ?? 0)
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

    /// Configures a cell for `row`; `scrolledIn` counts whether its photo was there in this frame.
    private func show(_ row: Int, scrolledIn: Bool) {
        let tag = visibleRows.newTag(for: row)
        var state = ImageCell(item: row)
        let request = rows[row].photoRequest(in: table)
        observations.shownRowIDs.insert(rows[row].id)
        let cached = store.cachedImage(for: request)
        if scrolledIn {
            observations.rowsScrolledIn += 1
            if cached == nil { observations.rowsScrolledInWithoutPhoto += 1 }
        }
        if let image = cached {
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
        observations.largestImageBytes = max(observations.largestImageBytes, image.cost)
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

    /// Lets go of every row and of the prefetcher (its requests hold the eager strategy's rows),
    /// waits for the tasks, takes what they still handed back, and closes the list: the query's
    /// rows, with the eager strategy's blobs, are freed here.
    private func tearDown() {
        for row in visibleRows.items { hide(row) }
        prefetcher?.cancelAll()
        prefetcher = nil
        inbox.waitForPendingLoads()
        receiveDeliveries()
        observations.usedDecodes = deliveredImages.usedDecodes
        observations.maximumDuplicates = deliveredImages.maximumDuplicates
        rows = []
    }
}
