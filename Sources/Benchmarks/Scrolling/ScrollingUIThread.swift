import Foundation
import WeakImageStore

/// The UI thread of the scrolling workload: a frame loop at 60 frames per second that scrolls
/// the feed, asks for the images of rows that appear in one ``LoadingStyle``, lets go of rows
/// that leave, and sets the images handed back to it.
///
/// Everything here runs on that one thread; only ``UIInbox`` is shared. Frames are drawn by a
/// ``FrameLoop``. The first screen loads before the scroll starts, and after the scroll the
/// thread draws frames until the last screen has its images.
final class ScrollingUIThread: UIThreadWorkload {
    /// What the thread saw, for ``ScrollingRun``.
    struct Observations: Sendable {
        var frames: [ScrollingRun.Frame] = []
        var scrollFrames = 0..<0
        var shownToSetNanoseconds: [UInt64] = []
        var unfinishedRows = 0
        var usedDecodes = 0
        var droppedDeliveries = 0
        var failedLookups = 0
        var maximumDuplicates = 0
    }

    /// A row on screen: a cell configured for it under a tag of its own.
    private struct VisibleRow: LoadingCell {
        let row: Int
        let shownAt: UInt64
        var images: [Bitmap?]
        var missing: Int
        var tasks: [Task<Void, Never>] = []
        var prefetch: ImagePrefetch?

        func cancelLoads() {
            for task in tasks { task.cancel() }
            prefetch?.cancel()
        }
    }

    private let style: LoadingStyle
    private let speed: ScrollSpeed
    private let feed: ScrollingFeed
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()

    private var frameLoop = FrameLoop()
    private var visibleRows = TaggedCells<VisibleRow>()
    /// Prefetches of rows below the screen (the async style only).
    private var prefetches: [Int: ImagePrefetch] = [:]
    private var nextRowToPrefetch = 0
    private var deliveredImages = DeliveredImages()
    private var observations = Observations()

    init(style: LoadingStyle, speed: ScrollSpeed, feed: ScrollingFeed, store: ImageStore<Bitmap>) {
        self.style = style
        self.speed = speed
        self.feed = feed
        self.store = store
    }

    /// Shows the first screen and draws frames until it has its images, scrolls to the end of
    /// the feed, draws frames until the last screen has its images (each wait at most
    /// `settleSeconds`), then lets go of everything and waits for the background work it started.
    func play(settleSeconds: Double) -> Observations {
        let visibleCount = feed.visibleRowCount
        let lastTop = feed.rows.count - visibleCount
        var top = 0
        frameLoop.reserveCapacity(lastTop + Int(2 * settleSeconds * 60) + 2)
        // The first screen loads before the scroll starts: a user looks, then scrolls.
        drawFrame {
            receiveDeliveries()
            for row in 0..<visibleCount { show(row) }
            prefetchNextScreen(top: 0)
        }
        drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds)
        let scrollStart = frameLoop.frames.count
        var frame = 0
        while top < lastTop {
            drawFrame {
                receiveDeliveries()
                let newTop = min(speed.rowsMoved(atFrame: frame), lastTop)
                // Cell reuse: the rows that left let go before the new ones are configured.
                for row in top..<newTop { hide(row) }
                for row in max(newTop, top + visibleCount)..<(newTop + visibleCount) { show(row) }
                top = newTop
                prefetchNextScreen(top: top)
            }
            frame += 1
        }
        observations.scrollFrames = scrollStart..<frameLoop.frames.count
        drawFramesUntilVisibleRowsAreSet(settleSeconds: settleSeconds)
        tearDown()
        observations.frames = frameLoop.frames
        return observations
    }

    func drawFrame(_ work: () -> Void) {
        frameLoop.draw(work)
    }

    /// Draws frames that only take deliveries until every row on screen has its images, or
    /// `settleSeconds` have passed.
    private func drawFramesUntilVisibleRowsAreSet(settleSeconds: Double) {
        drawFramesTakingDeliveries(forAtMost: settleSeconds, until: { visibleRows.allSatisfy { $0.missing == 0 } })
    }

    // MARK: Rows

    private func show(_ row: Int) {
        let names = feed.rows[row]
        let tag = visibleRows.newTag(for: row)
        var state = VisibleRow(
            row: row, shownAt: MonotonicClock.now(), images: Array(repeating: nil, count: names.count),
            missing: names.count)
        switch style {
        case .sync:
            for (slot, name) in names.enumerated() {
                if let image = try? store.loadImage(named: name) {
                    set(image, slot: slot, on: &state)
                } else {
                    observations.failedLookups += 1
                }
            }
        case .gcd:
            for (slot, name) in names.enumerated() {
                inbox.loadOnGlobalQueue(tag: tag, slot: slot) { [store] in try? store.loadImage(named: name) }
            }
        case .async:
            state.prefetch = prefetches.removeValue(forKey: row)
            for (slot, name) in names.enumerated() {
                if let image = store.cachedImage(named: name) {
                    set(image, slot: slot, on: &state)
                    continue
                }
                state.tasks.append(
                    inbox.load(tag: tag, slot: slot) {
                        [store] () async throws(ImageStoreError) in
                        try await store.fetchImage(named: name, priority: .high)
                    })
            }
        }
        visibleRows.bind(state, tag: tag)
    }

    private func hide(_ row: Int) {
        prefetches.removeValue(forKey: row)?.cancel()
        guard let state = visibleRows.unbind(row) else { return }
        if state.missing > 0 { observations.unfinishedRows += 1 }
        // The row's images are released here, on the UI thread, as a reused cell's would be.
    }

    /// Starts prefetching the screen below the visible rows (the async style only).
    private func prefetchNextScreen(top: Int) {
        guard style == .async else { return }
        let end = min(top + 2 * feed.visibleRowCount, feed.rows.count)
        nextRowToPrefetch = max(nextRowToPrefetch, top + feed.visibleRowCount)
        while nextRowToPrefetch < end {
            prefetches[nextRowToPrefetch] = store.prefetch(named: feed.rows[nextRowToPrefetch])
            nextRowToPrefetch += 1
        }
    }

    private func set(_ image: Bitmap, slot: Int, on state: inout VisibleRow) {
        guard state.images[slot] == nil else { return }
        deliveredImages.setOnScreen(image, key: feed.rows[state.row][slot])
        state.images[slot] = image
        state.missing -= 1
        if state.missing == 0 { observations.shownToSetNanoseconds.append(MonotonicClock.now() - state.shownAt) }
    }

    /// Sets what background work handed back; drops what arrived for rows already gone (their
    /// tag is no longer on screen), as the GCD pattern checks the cell's tag.
    func receiveDeliveries() {
        for delivery in inbox.drain() {
            let name = feed.rows[visibleRows.item(ofTag: delivery.tag)][delivery.slot]
            guard var state = visibleRows[delivery.tag] else {
                observations.droppedDeliveries += 1
                if let image = delivery.image { deliveredImages.dropped(image, key: name) }
                continue
            }
            guard let image = delivery.image else {
                observations.failedLookups += 1
                continue
            }
            set(image, slot: delivery.slot, on: &state)
            visibleRows[delivery.tag] = state
        }
    }

    /// Lets go of every row and prefetch, waits for the GCD blocks and tasks, and takes what
    /// they still handed back (all of it for rows gone).
    private func tearDown() {
        for row in visibleRows.items { hide(row) }
        for prefetch in prefetches.values { prefetch.cancel() }
        prefetches.removeAll()
        inbox.waitForPendingLoads()
        receiveDeliveries()
        observations.usedDecodes = deliveredImages.usedDecodes
        observations.maximumDuplicates = deliveredImages.maximumDuplicates
    }
}
