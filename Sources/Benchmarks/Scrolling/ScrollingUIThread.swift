import Dispatch
import Foundation
import WeakImageStore

/// The UI thread of the scrolling workload: a frame loop at 60 frames per second that scrolls
/// the feed, asks for the images of rows that appear in one ``LoadingStyle``, lets go of rows
/// that leave, and sets the images handed back to it.
///
/// Everything here runs on that one thread; only ``UIInbox`` is shared. Frames are paced by a
/// ``FrameClock``. The first screen loads before the scroll starts, and after the scroll the
/// thread draws frames until the last screen has its images.
final class ScrollingUIThread {
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
    private struct VisibleRow {
        let row: Int
        let shownAt: UInt64
        var images: [Bitmap?]
        var missing: Int
        var tasks: [Task<Void, Never>] = []
        var prefetch: ImagePrefetch?
    }

    private let style: LoadingStyle
    private let speed: ScrollSpeed
    private let feed: ScrollingFeed
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()
    /// GCD blocks and tasks not finished yet, waited for at the end.
    private let background = DispatchGroup()

    private var visibleRows: [Int: VisibleRow] = [:]
    private var tagOfRow: [Int: Int] = [:]
    /// The row each tag was given to; tags count up from 0.
    private var rowOfTag: [Int] = []
    /// Prefetches of rows below the screen (the async style only).
    private var prefetches: [Int: ImagePrefetch] = [:]
    private var nextRowToPrefetch = 0
    /// Every image the thread received, to find two live instances of one image.
    private var receivedImages = InstanceTracker()
    /// Images set on rows on screen: each new instance is a decode that was not wasted.
    private var shownImages = InstanceTracker()
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
        observations.frames.reserveCapacity(lastTop + Int(2 * settleSeconds * 60) + 2)
        var clock = FrameClock()
        // The first screen loads before the scroll starts: a user looks, then scrolls.
        let firstFrame = clock.drawFrame {
            receiveDeliveries()
            for row in 0..<visibleCount { show(row) }
            prefetchNextScreen(top: 0)
        }
        observations.frames.append(firstFrame)
        drawFramesUntilVisibleRowsAreSet(clock: &clock, settleSeconds: settleSeconds)
        let scrollStart = observations.frames.count
        while top < lastTop {
            let frame = clock.drawFrame {
                receiveDeliveries()
                let newTop = min(top + speed.rowsPerFrame, lastTop)
                // Cell reuse: the rows that left let go before the new ones are configured.
                for row in top..<newTop { hide(row) }
                for row in max(newTop, top + visibleCount)..<(newTop + visibleCount) { show(row) }
                top = newTop
                prefetchNextScreen(top: top)
            }
            observations.frames.append(frame)
        }
        observations.scrollFrames = scrollStart..<observations.frames.count
        drawFramesUntilVisibleRowsAreSet(clock: &clock, settleSeconds: settleSeconds)
        tearDown()
        return observations
    }

    /// Draws frames that only take deliveries until every row on screen has its images, or
    /// `settleSeconds` have passed.
    private func drawFramesUntilVisibleRowsAreSet(clock: inout FrameClock, settleSeconds: Double) {
        let deadline = MonotonicClock.now() + UInt64(settleSeconds * 1e9)
        while !visibleRows.values.allSatisfy({ $0.missing == 0 }) && MonotonicClock.now() < deadline {
            let frame = clock.drawFrame { receiveDeliveries() }
            observations.frames.append(frame)
        }
    }

    // MARK: Rows

    private func show(_ row: Int) {
        let names = feed.rows[row]
        let tag = rowOfTag.count
        rowOfTag.append(row)
        tagOfRow[row] = tag
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
                background.enter()
                DispatchQueue.global().async { [store, inbox, background] in
                    inbox.post(UIInbox.Delivery(tag: tag, slot: slot, image: try? store.loadImage(named: name)))
                    background.leave()
                }
            }
        case .async:
            state.prefetch = prefetches.removeValue(forKey: row)
            for (slot, name) in names.enumerated() {
                if let image = store.cachedImage(named: name) {
                    set(image, slot: slot, on: &state)
                    continue
                }
                state.tasks.append(
                    inbox.load(tag: tag, slot: slot, background: background) {
                        [store] () async throws(ImageStoreError) in
                        try await store.image(named: name, priority: .high)
                    })
            }
        }
        visibleRows[tag] = state
    }

    private func hide(_ row: Int) {
        prefetches.removeValue(forKey: row)?.cancel()
        guard let tag = tagOfRow.removeValue(forKey: row), let state = visibleRows.removeValue(forKey: tag) else {
            return
        }
        if state.missing > 0 { observations.unfinishedRows += 1 }
        for task in state.tasks { task.cancel() }
        state.prefetch?.cancel()
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
        let name = feed.rows[state.row][slot]
        _ = receivedImages.observe(image, file: name)
        if shownImages.observe(image, file: name) { observations.usedDecodes += 1 }
        state.images[slot] = image
        state.missing -= 1
        if state.missing == 0 { observations.shownToSetNanoseconds.append(MonotonicClock.now() - state.shownAt) }
    }

    /// Sets what background work handed back; drops what arrived for rows already gone (their
    /// tag is no longer on screen), as the GCD pattern checks the cell's tag.
    private func receiveDeliveries() {
        for delivery in inbox.drain() {
            let name = feed.rows[rowOfTag[delivery.tag]][delivery.slot]
            guard var state = visibleRows[delivery.tag] else {
                observations.droppedDeliveries += 1
                if let image = delivery.image { _ = receivedImages.observe(image, file: name) }
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

    // MARK: Frames

    /// Lets go of every row and prefetch, waits for the GCD blocks and tasks, and takes what
    /// they still handed back (all of it for rows gone).
    private func tearDown() {
        for row in Array(tagOfRow.keys) { hide(row) }
        for prefetch in prefetches.values { prefetch.cancel() }
        prefetches.removeAll()
        background.wait()
        receiveDeliveries()
        observations.maximumDuplicates = receivedImages.maximumDuplicates
    }
}
