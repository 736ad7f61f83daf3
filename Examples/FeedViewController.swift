#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// A scrolling feed whose rows show images from an ``ImageStore``.
final class FeedViewController: UITableViewController {
    private let items: [FeedItem]
    private let images: ImageStore<UIImage>
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
}
#endif
