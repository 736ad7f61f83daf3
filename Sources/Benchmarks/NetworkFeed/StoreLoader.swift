import Foundation
import WeakImageStore

/// The store's way: each cell asks `fetchImage(for: .url(…), priority: .high)` in a task cancelled
/// when the cell is reused, a ``ScrollPrefetcher`` loads the rows ahead as far as the scroll's
/// speed and the measured load times call for, and a memory warning is
/// `handleMemoryPressure(.critical)`, as the UIKit subscription maps it.
final class StoreLoader: FeedPictureLoader {
    private let store: ImageStore<Bitmap>
    private let urlsByRow: [[URL]]
    private let maxPixelSize: Int?
    private let inbox: UIInbox
    private var tasksByTag: [Int: [Task<Void, Never>]] = [:]
    private let prefetcher: ScrollPrefetcher<Bitmap>

    /// - Parameters:
    ///   - maxPixelSize: The most pixels on a picture's longest side, or nil for full size.
    init(store: ImageStore<Bitmap>, urlsByRow: [[URL]], maxPixelSize: Int?, inbox: UIInbox) {
        self.store = store
        self.urlsByRow = urlsByRow
        self.maxPixelSize = maxPixelSize
        self.inbox = inbox
        prefetcher = ScrollPrefetcher(store: store, rowCount: urlsByRow.count) { row in
            urlsByRow[row].map { .url($0, maxPixelSize: maxPixelSize) }
        }
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

    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool) {
        prefetcher.visibleRowsChanged(rows)
    }

    func handleMemoryWarning() {
        store.handleMemoryPressure(.critical)
    }

    func terminate() {
        for tasks in tasksByTag.values {
            for task in tasks { task.cancel() }
        }
        tasksByTag = [:]
        prefetcher.cancelAll()
        inbox.waitForPendingLoads()
    }

    var picturesHeldForDisplay: [Bitmap] {
        prefetcher.heldImages
    }

    private func request(_ url: URL) -> ImageRequest {
        .url(url, maxPixelSize: maxPixelSize)
    }
}
