import Dispatch
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
final class GalleryUIThread {
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

    /// A cell on screen, or the opened photo: what it shows under a tag of its own.
    private struct VisibleImage {
        let photo: Int
        let shownAt: UInt64
        var image: Bitmap?
        var task: Task<Void, Never>?
    }

    private let mode: GalleryMode
    private let grid: GalleryGrid
    private let profile: GalleryProfile
    private let store: ImageStore<Bitmap>
    private let inbox = UIInbox()
    /// Tasks not finished yet, waited for at the end.
    private let background = DispatchGroup()

    private var cells: [Int: VisibleImage] = [:]
    private var tagOfPhoto: [Int: Int] = [:]
    /// The photo each tag was given to; tags count up from 0.
    private var photoOfTag: [Int] = []
    /// The tag of the opened photo, kept apart from the cells.
    private var detail: (tag: Int, state: VisibleImage)?
    /// Every image the thread received, to find two live instances with the same pixels.
    private var receivedImages = InstanceTracker()
    /// Images set on screen: each new instance is a decode that was not wasted.
    private var shownImages = InstanceTracker()
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
        var clock = FrameClock()
        var top = 0
        drawFrame(&clock) {
            for row in 0..<grid.visibleRowCount { showRow(row) }
        }
        drawFrames(clock: &clock, until: { cells.values.allSatisfy { $0.image != nil } })
        while true {
            openPhoto(grid.centredPhoto(top: top), clock: &clock)
            guard top < lastTop else { break }
            let target = min(top + profile.flingRowCount, lastTop)
            observations.flingCount += 1
            while top < target {
                drawFrame(&clock) {
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
            drawFrames(clock: &clock, until: { cells.values.allSatisfy { $0.image != nil } })
        }
        tearDown()
        return observations
    }

    /// Opens `photo` full size, draws frames until it is shown (at most the settle time), keeps
    /// it on screen for the profile's detail frames, and goes back.
    private func openPhoto(_ photo: Int, clock: inout FrameClock) {
        observations.openFrames.append(observations.frames.count)
        drawFrame(&clock) { open(photo) }
        drawFrames(clock: &clock, until: { detail?.state.image != nil })
        if detail?.state.image == nil { observations.unshownPhotos += 1 }
        for _ in 0..<profile.detailFrameCount {
            drawFrame(&clock) { receiveDeliveries() }
        }
        drawFrame(&clock) {
            receiveDeliveries()
            closeDetail()
        }
    }

    /// Draws a frame with `work`, then records what the screen holds.
    private func drawFrame(_ clock: inout FrameClock, _ work: () -> Void) {
        observations.frames.append(clock.drawFrame(work))
        var images = cells.values.compactMap(\.image)
        if let opened = detail?.state.image { images.append(opened) }
        var seen = Set<ObjectIdentifier>()
        let bytes = images.reduce(0) { sum, image in
            seen.insert(ObjectIdentifier(image)).inserted ? sum + image.cost : sum
        }
        observations.peakInUseBytes = max(observations.peakInUseBytes, bytes)
    }

    /// Draws frames that only take deliveries until `isDone`, or the settle time has passed.
    private func drawFrames(clock: inout FrameClock, until isDone: () -> Bool) {
        let deadline = MonotonicClock.now() + UInt64(profile.settleSeconds * 1e9)
        while !isDone() && MonotonicClock.now() < deadline {
            drawFrame(&clock) { receiveDeliveries() }
        }
    }

    // MARK: Cells and the opened photo

    private func showRow(_ row: Int) {
        for photo in grid.photoIndices(inRow: row) {
            let tag = newTag(for: photo)
            tagOfPhoto[photo] = tag
            cells[tag] = request(photo, tag: tag, fullSize: mode == .fullSize)
        }
    }

    private func hideRow(_ row: Int) {
        for photo in grid.photoIndices(inRow: row) {
            guard let tag = tagOfPhoto.removeValue(forKey: photo), let cell = cells.removeValue(forKey: tag) else {
                continue
            }
            if cell.image == nil { observations.unfinishedCells += 1 }
            cell.task?.cancel()
            // The cell's image is released here, on the UI thread, as a reused cell's would be.
        }
    }

    private func open(_ photo: Int) {
        let tag = newTag(for: photo)
        let state = request(photo, tag: tag, fullSize: true)
        if state.image != nil { observations.openToShownNanoseconds.append(MonotonicClock.now() - state.shownAt) }
        detail = (tag, state)
    }

    private func closeDetail() {
        detail?.state.task?.cancel()
        detail = nil
    }

    private func newTag(for photo: Int) -> Int {
        photoOfTag.append(photo)
        return photoOfTag.count - 1
    }

    /// Asks for `photo` at the cell's or the full size: from memory if the store holds it, else
    /// in a task that delivers it under `tag`.
    private func request(_ photo: Int, tag: Int, fullSize: Bool) -> VisibleImage {
        var state = VisibleImage(photo: photo, shownAt: MonotonicClock.now())
        let name = grid.photos[photo]
        let maxPixelSize = profile.thumbnailPixelSize
        let cached =
            fullSize ? store.cachedImage(named: name) : store.cachedImage(named: name, maxPixelSize: maxPixelSize)
        if let cached {
            set(cached, on: &state)
            return state
        }
        state.task = inbox.load(tag: tag, slot: 0, background: background) { [store] () async throws(ImageStoreError) in
            fullSize
                ? try await store.image(named: name, priority: .high)
                : try await store.image(named: name, maxPixelSize: maxPixelSize, priority: .high)
        }
        return state
    }

    private func set(_ image: Bitmap, on state: inout VisibleImage) {
        guard state.image == nil else { return }
        let key = pixelsKey(image, photo: state.photo)
        _ = receivedImages.observe(image, file: key)
        if shownImages.observe(image, file: key) { observations.usedDecodes += 1 }
        state.image = image
    }

    /// One file at one size: two live instances under one key hold the same pixels.
    private func pixelsKey(_ image: Bitmap, photo: Int) -> String {
        "\(grid.photos[photo]) \(image.width)×\(image.height)"
    }

    /// Sets what the tasks handed back; what arrived for a tag no longer on screen is dropped.
    private func receiveDeliveries() {
        for delivery in inbox.drain() {
            let photo = photoOfTag[delivery.tag]
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
                _ = receivedImages.observe(image, file: pixelsKey(image, photo: photo))
            }
        }
    }

    /// Lets go of every cell and the opened photo, waits for the tasks, and takes what they
    /// still handed back.
    private func tearDown() {
        closeDetail()
        for row in 0..<grid.rowCount { hideRow(row) }
        background.wait()
        receiveDeliveries()
        observations.maximumDuplicates = receivedImages.maximumDuplicates
    }
}
