import Foundation
import WeakImageStore

/// The UI thread of the network feed, at 60 frames per second. At the fast speeds it shows the
/// first screen, scrolls to the end with a memory warning half-way, scrolls back to the top,
/// relaunches the app (a new loader over the same folders, memory empty) and scrolls to the end
/// again, drawing frames for ``NetworkFeedProfile/settleSeconds`` after the first screen and after
/// each scroll. At a person's pace it shows the first screen and scrolls down
/// ``NetworkFeedProfile/rowsScrolled(at:)`` rows, once.
///
/// The scroll follows the clock, as a finger or a fling does: a frame that blocks (a synchronous
/// download) skips the rows that went by meanwhile. So every strategy plays the same script in
/// the same time, and the memory warning and the relaunch fall at the same moment of each line.
final class NetworkFeedUIThread: UIThreadWorkload {
    /// What the thread saw, for ``NetworkFeedRun``.
    struct Observations: Sendable {
        var frames: [ScrollingRun.Frame] = []
        /// After each frame: the app's time and the live decoded bytes.
        var memory: [MemorySample] = []
        /// The app's time of the memory warning and of the relaunch.
        var memoryWarningSeconds = 0.0
        var relaunchSeconds = 0.0
        /// The live decoded bytes between the two launches, once the first one ended.
        var liveBytesBetweenLaunches = 0
        /// Per row whose photo was set while it was on screen: how long that took.
        var photoTimings: [PhotoTiming] = []
        var rowsShown = 0
        /// Rows the scroll brought on screen (the first screens are not counted), and those of
        /// them without their photo in the frame they appeared.
        var rowsScrolledIn = 0
        var rowsScrolledInWithoutPhoto = 0
        /// The URLs of every row shown.
        var shownTargets: Set<String> = []
        /// Rows that left, or were on screen at the end, without their photo.
        var unfinishedRows = 0
        /// Pictures set into a cell on screen that by then showed another URL.
        var wrongPictures = 0
        /// Pictures that came back for a cell reused meanwhile and were not set.
        var droppedDeliveries = 0
        var failedLookups = 0
        /// Distinct decoded pictures set where they belong.
        var usedDecodes = 0
        /// The most decoded bytes the rows on screen (and the prefetch of the next screen) held.
        var peakInUseBytes = 0
        /// What the server had done when the warning came and when the app was relaunched.
        var serverAtMemoryWarning = FeedDownloads.Snapshot()
        var serverAtRelaunch = FeedDownloads.Snapshot()
    }

    struct MemorySample: Sendable {
        let seconds: Double
        let liveBytes: Int
    }

    struct PhotoTiming: Sendable {
        let nanoseconds: UInt64
        /// 0 before the relaunch, 1 after.
        let launch: Int
        let target: String
    }

    /// Which cell a tag configured, for which row, in which launch.
    private struct Configuration {
        let cell: Int
        let row: Int
        let launch: Int
    }

    private static let photoSlot = 1

    private let strategy: FeedStrategy
    private let speed: ScrollSpeed
    private let urlsByRow: [[URL]]
    private let visibleRowCount: Int
    private let settleSeconds: Double
    private let makeLoader: (UIInbox) -> any FeedPictureLoader
    private let serverSnapshot: () -> FeedDownloads.Snapshot
    private let baselineBytes = Bitmap.memory.liveBytes

    private var frameLoop = FrameLoop()
    private var loader: (any FeedPictureLoader)?
    private var launch = 0
    private var cells: [FeedCell] = []
    private var reusePool: [Int] = []
    private var cellOfRow: [Int: Int] = [:]
    private var configurations: [Configuration] = []
    private var shownPictures = InstanceTracker()
    private var started: UInt64 = 0
    /// Time between the two launches, left out of the app's time.
    private var pausedNanoseconds: UInt64 = 0
    private var observations = Observations()
    private var isScrolling = false
    private let rowsScrolled: Int
    let inbox = UIInbox()

    init(
        strategy: FeedStrategy, speed: ScrollSpeed, urlsByRow: [[URL]], profile: NetworkFeedProfile,
        makeLoader: @escaping (UIInbox) -> any FeedPictureLoader,
        serverSnapshot: @escaping () -> FeedDownloads.Snapshot
    ) {
        self.strategy = strategy
        self.speed = speed
        self.urlsByRow = urlsByRow
        visibleRowCount = min(profile.visibleRowCount, urlsByRow.count)
        settleSeconds = profile.settleSeconds
        rowsScrolled = min(profile.rowsScrolled(at: speed), urlsByRow.count - visibleRowCount)
        self.makeLoader = makeLoader
        self.serverSnapshot = serverSnapshot
    }

    /// Plays the script and ends the app.
    func play() -> Observations {
        let lastTop = urlsByRow.count - visibleRowCount
        started = MonotonicClock.now()
        startApp()
        if speed.isPersonPace {
            scroll(from: 0, to: rowsScrolled, memoryWarningAt: nil)
            settle()
            endApp()
            observations.frames = frameLoop.frames
            return observations
        }
        scroll(from: 0, to: lastTop, memoryWarningAt: lastTop / 2)
        settle()
        scroll(from: lastTop, to: 0, memoryWarningAt: nil)
        settle()
        let pauseStarted = MonotonicClock.now()
        endApp()
        observations.liveBytesBetweenLaunches = Bitmap.memory.liveBytes - baselineBytes
        observations.serverAtRelaunch = serverSnapshot()
        pausedNanoseconds += MonotonicClock.now() - pauseStarted
        observations.relaunchSeconds = appSeconds
        launch = 1
        frameLoop.restartClock()
        startApp()
        scroll(from: 0, to: lastTop, memoryWarningAt: nil)
        settle()
        endApp()
        observations.frames = frameLoop.frames
        return observations
    }

    private var appSeconds: Double { Double(MonotonicClock.now() - started - pausedNanoseconds) / 1e9 }

    // MARK: The script

    private func startApp() {
        loader = makeLoader(inbox)
        drawFrame { show(0..<visibleRowCount, scrollingDown: true) }
        settle()
    }

    /// Lets go of every cell, ends the loader, and drops what it still handed back.
    private func endApp() {
        for row in Array(cellOfRow.keys) { hide(row) }
        loader?.terminate()
        loader = nil
        observations.droppedDeliveries += inbox.drain().count
        cells = []
        reusePool = []
    }

    /// Draws frames that only take deliveries for the settle time, whatever arrives.
    private func settle() {
        drawFramesTakingDeliveries(forAtMost: settleSeconds, until: { false })
    }

    /// Scrolls from top row `from` to `to` at the speed's pace by the clock; the memory warning
    /// comes in the frame whose top row reaches `memoryWarningAt`.
    private func scroll(from: Int, to: Int, memoryWarningAt: Int?) {
        let scrollingDown = to >= from
        let distance = abs(to - from)
        let start = MonotonicClock.now()
        var top = from
        var warningPending = memoryWarningAt != nil
        isScrolling = true
        defer { isScrolling = false }
        while top != to {
            drawFrame {
                receiveDeliveries()
                let frame = Int((MonotonicClock.now() - start) / ScrollingRun.frameBudgetNanoseconds)
                let moved = min(distance, speed.rowsMoved(atFrame: frame))
                top = scrollingDown ? from + moved : from - moved
                show(top..<(top + visibleRowCount), scrollingDown: scrollingDown)
                if warningPending, let row = memoryWarningAt, scrollingDown ? top >= row : top <= row {
                    warningPending = false
                    loader?.handleMemoryWarning()
                    observations.memoryWarningSeconds = appSeconds
                    observations.serverAtMemoryWarning = serverSnapshot()
                }
            }
        }
    }

    /// Draws a frame with `work`, then records, outside the frame's timing, what is alive.
    func drawFrame(_ work: () -> Void) {
        frameLoop.draw(work)
        var inUse: [ObjectIdentifier: Int] = [:]
        for cell in cells where cell.row != nil {
            for case let picture? in cell.pictures { inUse[ObjectIdentifier(picture)] = picture.cost }
        }
        for picture in loader?.picturesHeldForDisplay ?? [] { inUse[ObjectIdentifier(picture)] = picture.cost }
        observations.peakInUseBytes = max(observations.peakInUseBytes, inUse.values.reduce(0, +))
        observations.memory.append(
            MemorySample(seconds: appSeconds, liveBytes: Bitmap.memory.liveBytes - baselineBytes))
    }

    // MARK: Cells

    /// Makes `rows` the rows on screen: cells of rows that left are reused for those that came, in
    /// the scroll's order.
    private func show(_ rows: Range<Int>, scrollingDown: Bool) {
        for row in Array(cellOfRow.keys) where !rows.contains(row) { hide(row) }
        for row in scrollingDown ? Array(rows) : rows.reversed() where cellOfRow[row] == nil {
            configureCell(for: row)
        }
        loader?.visibleRowsChanged(rows, scrollingDown: scrollingDown)
    }

    private func configureCell(for row: Int) {
        guard let loader else { return }
        let cell = reusePool.popLast() ?? newCell()
        let tag = configurations.count
        configurations.append(Configuration(cell: cell, row: row, launch: launch))
        cells[cell].configure(row: row, tag: tag, urls: urlsByRow[row], at: MonotonicClock.now())
        cellOfRow[row] = cell
        observations.rowsShown += 1
        for (slot, url) in urlsByRow[row].enumerated() {
            observations.shownTargets.insert(url.path)
            switch loader.picture(at: url, tag: tag, slot: slot) {
            case .picture(let picture): setRightPicture(picture, slot: slot, cell: cell)
            case .loading: break
            case .failed: observations.failedLookups += 1
            }
        }
        if isScrolling {
            observations.rowsScrolledIn += 1
            if !cells[cell].photoWasSet { observations.rowsScrolledInWithoutPhoto += 1 }
        }
    }

    private func newCell() -> Int {
        cells.append(FeedCell())
        return cells.count - 1
    }

    private func hide(_ row: Int) {
        guard let cell = cellOfRow.removeValue(forKey: row) else { return }
        if !cells[cell].photoWasSet { observations.unfinishedRows += 1 }
        loader?.cellReused(tag: cells[cell].tag)
        cells[cell].enterReusePool()
        reusePool.append(cell)
    }

    private func setRightPicture(_ picture: Bitmap, slot: Int, cell: Int) {
        guard !cells[cell].isRight[slot] else { return }
        cells[cell].pictures[slot] = picture
        cells[cell].isRight[slot] = true
        if shownPictures.observe(picture, file: cells[cell].urls[slot].absoluteString) {
            observations.usedDecodes += 1
        }
        if slot == Self.photoSlot && !cells[cell].photoWasSet {
            cells[cell].photoWasSet = true
            observations.photoTimings.append(
                PhotoTiming(
                    nanoseconds: MonotonicClock.now() - cells[cell].shownAt, launch: launch,
                    target: cells[cell].urls[slot].path))
        }
    }

    /// Sets what came back. A picture for a cell reused meanwhile is dropped, unless the strategy
    /// sets it into whatever the cell shows now: then it is a wrong picture if the cell shows
    /// another URL in that slot.
    func receiveDeliveries() {
        for delivery in inbox.drain() {
            let configuration = configurations[delivery.tag]
            guard configuration.launch == launch else {
                observations.droppedDeliveries += 1
                continue
            }
            guard let picture = delivery.image else {
                observations.failedLookups += 1
                continue
            }
            let cell = configuration.cell
            if cells[cell].tag == delivery.tag && cells[cell].row != nil {
                setRightPicture(picture, slot: delivery.slot, cell: cell)
                continue
            }
            guard strategy.setsPicturesIntoReusedCells, cells[cell].row != nil else {
                observations.droppedDeliveries += 1
                continue
            }
            if cells[cell].urls[delivery.slot] == urlsByRow[configuration.row][delivery.slot] {
                setRightPicture(picture, slot: delivery.slot, cell: cell)
            } else {
                observations.wrongPictures += 1
                cells[cell].pictures[delivery.slot] = picture
                cells[cell].isRight[delivery.slot] = false
            }
        }
    }
}
