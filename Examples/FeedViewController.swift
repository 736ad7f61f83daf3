#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// A scrolling feed whose rows show images from an ``ImageStore``, prefetching the rows about to
/// appear.
final class FeedViewController: UITableViewController, UITableViewDataSourcePrefetching {
    private let items: [FeedItem]
    private let images: ImageStore<UIImage>
    /// Images loading ahead of the rows that will show them; each handle keeps its images alive
    /// until the row appears (its cell then holds the image) or scrolls out of reach.
    private var prefetches: [IndexPath: ImagePrefetch] = [:]
    /// The store hears the system's memory warnings while this screen exists.
    private var memoryPressure: MemoryPressureSubscription?

    init(items: [FeedItem] = FeedItem.sample(), images: ImageStore<UIImage> = AppImages.store) {
        self.items = items
        self.images = images
        super.init(style: .plain)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("FeedViewController is created in code")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Feed"
        tableView.register(FeedCell.self, forCellReuseIdentifier: FeedCell.reuseIdentifier)
        tableView.rowHeight = 60
        tableView.prefetchDataSource = self
        // Memory warnings: Dispatch memory-pressure events and didReceiveMemoryWarningNotification
        // reach the store, which drops its strong references; images that visible rows hold stay
        // alive and shared. The subscription holds the store weakly and stops when freed.
        memoryPressure = images.subscribeToSystemMemoryPressure()
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        items.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: FeedCell.reuseIdentifier, for: indexPath)
        if let feedCell = cell as? FeedCell {
            feedCell.configure(with: items[indexPath.row], images: images)
        }
        return cell
    }

    override func tableView(
        _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
    ) {
        prefetches[indexPath] = nil
    }

    // MARK: UITableViewDataSourcePrefetching

    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        for indexPath in indexPaths where prefetches[indexPath] == nil {
            // `.low`: queued behind everything a visible row asks for.
            prefetches[indexPath] = images.prefetch(named: [items[indexPath.row].imageName], priority: .low)
        }
    }

    func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        // Drops the loads nobody else waits for and releases what was already decoded.
        for indexPath in indexPaths { prefetches.removeValue(forKey: indexPath)?.cancel() }
    }
}
#endif
