import Foundation
import WeakImageStore

/// The UI thread of the gallery workload: a frame loop at 60 frames per second that flings the
/// grid a few screens, stops, opens the centred photo full size, goes back, and repeats to the
/// end of the grid.
///
/// Every image is asked for the async way, as the scrolling workload's async style does: from
/// memory at once if the store holds it, else in a task cancelled when its cell leaves (or the
/// opened photo is closed). The grid's cells stay alive while a photo is open, as a collection
/// view under a pushed detail view does. Only ``UIInbox`` is shared with other threads.
final class GalleryUIThread: UIThreadWorkload {
    /// What the thread saw, for ``GalleryRun``.
    struct Observations: Sendable {
        /// Every frame: flings, stops, opened photos.
        var frames: [ScrollingRun.Frame] = []
        var flingCount = 0
        /// The frames in which a photo was opened.
        var openFrames: [Int] = []
        /// Per opened photo whose image arrived: nanoseconds from opening to shown.
        var openToShownNanoseconds: [UInt64] = []
        /// Opened photos whose image did not arrive within the settle time.
        var unshownPhotos = 0
        /// Cells that left the screen before their image was set.
        var unfinishedCells = 0
        /// The most decoded bytes the cells on screen and the opened photo held at the end of a
        /// frame: what the UI needs, without what the store caches.
        var peakInUseBytes = 0
        /// Distinct decoded images that were set on a cell or the opened photo.
        var usedDecodes = 0
        var failedLookups = 0
        /// The most live instances with the same pixels (one file at one size) at once, minus one.
        var maximumDuplicates = 0
    }

    private let mode: GalleryMode
    private let grid: GalleryGrid
    private let profile: GalleryProfile
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()

    private var frameLoop = FrameLoop()
    /// The grid's cells: each shows a photo.
    private var cells = TaggedCells<ImageCell>()
    /// The tag of the opened photo, kept apart from the cells.
    private var detail: (tag: Int, state: ImageCell)?
    private var deliveredImages = DeliveredImages()
    private var observations = Observations()

    init(mode: GalleryMode, grid: GalleryGrid, profile: GalleryProfile, store: ImageStore<Bitmap>) {
        self.mode = mode
        self.grid = grid
        self.profile = profile
        self.store = store
    }

    /// Plays the gallery, then lets go of everything and waits for the tasks it started.
    func play() -> Observations {
        let lastTop = grid.rowCount - grid.visibleRowCount
        var top = 0
        drawFrame {
            for row in 0..<grid.visibleRowCount { showRow(row) }
        }
        drawFramesUntilCellsAreSet()
        while true {
            openPhoto(grid.centredPhoto(top: top))
            guard top < lastTop else { break }
            let target = min(top + profile.flingRowCount, lastTop)
            observations.flingCount += 1
            while top < target {
                drawFrame {
                    receiveDeliveries()
                    let newTop = min(top + profile.rowsPerFrame, target)
                    // Cell reuse: the rows that left let go before the new ones are configured.
                    for row in top..<newTop { hideRow(row) }
                    for row in max(newTop, top + grid.visibleRowCount)..<(newTop + grid.visibleRowCount) {
                        showRow(row)
                    }
                    top = newTop
                }
            }
            drawFramesUntilCellsAreSet()
        }
        tearDown()
        observations.frames = frameLoop.frames
        return observations
    }

    /// Draws frames that only take deliveries until every cell shows its photo, or the settle
    /// time has passed.
    private func drawFramesUntilCellsAreSet() {
        drawFramesTakingDeliveries(forAtMost: profile.settleSeconds, until: { cells.allSatisfy { $0.image != nil } })
    }

    /// Opens `photo` full size, draws frames until it is shown (at most the settle time), keeps
    /// it on screen for the profile's detail frames, and goes back.
    private func openPhoto(_ photo: Int) {
        observations.openFrames.append(frameLoop.frames.count)
        drawFrame { open(photo) }
        drawFramesTakingDeliveries(forAtMost: profile.settleSeconds, until: { detail?.state.image != nil })
        if detail?.state.image == nil { observations.unshownPhotos += 1 }
        for _ in 0..<profile.detailFrameCount {
            drawFrame { receiveDeliveries() }
        }
        drawFrame {
            receiveDeliveries()
            closeDetail()
        }
    }

    /// Draws a frame with `work`, then records what the screen holds.
    func drawFrame(_ work: () -> Void) {
        frameLoop.draw(work)
        var images = cells.byTag.values.compactMap(\.image)
        if let opened = detail?.state.image { images.append(opened) }
        var seen = Set<ObjectIdentifier>()
        let bytes = images.reduce(0) { sum, image in
            seen.insert(ObjectIdentifier(image)).inserted ? sum + image.cost : sum
        }
        observations.peakInUseBytes = max(observations.peakInUseBytes, bytes)
    }

    // MARK: Cells and the opened photo

    private func showRow(_ row: Int) {
        for photo in grid.photoIndices(inRow: row) {
            let tag = cells.newTag(for: photo)
            cells.bind(request(photo, tag: tag, fullSize: mode == .fullSize), tag: tag)
        }
    }

    private func hideRow(_ row: Int) {
        for photo in grid.photoIndices(inRow: row) {
            guard let cell = cells.unbind(photo) else { continue }
            if cell.image == nil { observations.unfinishedCells += 1 }
            // The cell's image is released here, on the UI thread, as a reused cell's would be.
        }
    }

    private func open(_ photo: Int) {
        let tag = cells.newTag(for: photo)
        let state = request(photo, tag: tag, fullSize: true)
        if state.image != nil { observations.openToShownNanoseconds.append(MonotonicClock.now() - state.shownAt) }
        detail = (tag, state)
    }

    private func closeDetail() {
        detail?.state.task?.cancel()
        detail = nil
    }

    /// Asks for `photo` at the cell's or the full size: from memory if the store holds it, else
    /// in a task that delivers it under `tag`.
    private func request(_ photo: Int, tag: Int, fullSize: Bool) -> ImageCell {
        var state = ImageCell(item: photo)
        let name = grid.photos[photo]
        let maxPixelSize = profile.thumbnailPixelSize
        let cached =
            fullSize ? store.cachedImage(named: name) : store.cachedImage(named: name, maxPixelSize: maxPixelSize)
        if let cached {
            set(cached, on: &state)
            return state
        }
        state.task = inbox.load(tag: tag, slot: 0) { [store] () async throws(ImageStoreError) in
            fullSize
                ? try await store.fetchImage(named: name, priority: .high)
                : try await store.fetchImage(named: name, maxPixelSize: maxPixelSize, priority: .high)
        }
        return state
    }

    private func set(_ image: Bitmap, on state: inout ImageCell) {
        guard state.image == nil else { return }
        deliveredImages.setOnScreen(image, key: pixelsKey(image, photo: state.item))
        state.image = image
    }

    /// One file at one size: two live instances under one key hold the same pixels.
    private func pixelsKey(_ image: Bitmap, photo: Int) -> String {
        "\(grid.photos[photo]) \(image.width)×\(image.height)"
    }

    /// Sets what the tasks handed back; what arrived for a tag no longer on screen is dropped.
    func receiveDeliveries() {
        for delivery in inbox.drain() {
            let photo = cells.item(ofTag: delivery.tag)
            guard let image = delivery.image else {
                observations.failedLookups += 1
                continue
            }
            if var cell = cells[delivery.tag] {
                set(image, on: &cell)
                cells[delivery.tag] = cell
            } else if var opened = detail, opened.tag == delivery.tag {
                set(image, on: &opened.state)
                observations.openToShownNanoseconds.append(MonotonicClock.now() - opened.state.shownAt)
                detail = opened
            } else {
                deliveredImages.dropped(image, key: pixelsKey(image, photo: photo))
            }
        }
    }

    /// Lets go of every cell and the opened photo, waits for the tasks, and takes what they
    /// still handed back.
    private func tearDown() {
        closeDetail()
        for row in 0..<grid.rowCount { hideRow(row) }
        inbox.waitForPendingLoads()
        receiveDeliveries()
        observations.usedDecodes = deliveredImages.usedDecodes
        observations.maximumDuplicates = deliveredImages.maximumDuplicates
    }
}
