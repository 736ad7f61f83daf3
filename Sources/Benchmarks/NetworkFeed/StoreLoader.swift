import Foundation
import WeakImageStore

/// The store's way: each cell asks `image(for: .url(…), priority: .high)` in a task cancelled when
/// the cell is reused, the rows of the next screen in the scroll's direction are prefetched, and a
/// memory warning is `handleMemoryPressure(.critical)`, as the UIKit subscription maps it.
final class StoreLoader: FeedPictureLoader {
    private let store: ImageStore<Bitmap>
    private let urlsByRow: [[URL]]
    private let maxPixelSize: Int?
    private let inbox: UIInbox
    private var tasksByTag: [Int: [Task<Void, Never>]] = [:]
    /// The handles that keep the next screen's pictures, by row.
    private var prefetches: [Int: ImagePrefetch] = [:]

    /// - Parameters:
    ///   - maxPixelSize: The most pixels on a picture's longest side, or nil for full size.
    init(store: ImageStore<Bitmap>, urlsByRow: [[URL]], maxPixelSize: Int?, inbox: UIInbox) {
        self.store = store
        self.urlsByRow = urlsByRow
        self.maxPixelSize = maxPixelSize
        self.inbox = inbox
    }

    func picture(at url: URL, tag: Int, slot: Int) -> FeedPictureAnswer {
        let request = request(url)
        if let picture = store.cachedImage(for: request) { return .picture(picture) }
        let task = inbox.load(tag: tag, slot: slot) {
            [store] () async throws(ImageStoreError) in
            try await store.fetchImage(for: request, priority: .high)
        }
        tasksByTag[tag, default: []].append(task)
        return .loading
    }

    func cellReused(tag: Int) {
        for task in tasksByTag.removeValue(forKey: tag) ?? [] { task.cancel() }
    }

    /// Keeps the prefetches of the rows on screen (their pictures may still be on the way) and of
    /// the next screen, starting those missing; cancels the others.
    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool) {
        let count = rows.count
        let next =
            scrollingDown
            ? rows.upperBound..<min(rows.upperBound + count, urlsByRow.count)
            : max(rows.lowerBound - count, 0)..<rows.lowerBound
        for row in Array(prefetches.keys) where !rows.contains(row) && !next.contains(row) {
            prefetches.removeValue(forKey: row)?.cancel()
        }
        for row in next where prefetches[row] == nil {
            prefetches[row] = store.prefetch(urlsByRow[row].map(request), priority: .low)
        }
    }

    func handleMemoryWarning() {
        store.handleMemoryPressure(.critical)
    }

    func terminate() {
        for tasks in tasksByTag.values {
            for task in tasks { task.cancel() }
        }
        tasksByTag = [:]
        for prefetch in prefetches.values { prefetch.cancel() }
        prefetches = [:]
        inbox.waitForPendingLoads()
    }

    var picturesHeldForDisplay: [Bitmap] {
        prefetches.values.flatMap { $0.images.values.compactMap { $0 as? Bitmap } }
    }

    private func request(_ url: URL) -> ImageRequest {
        .url(url, maxPixelSize: maxPixelSize)
    }
}
