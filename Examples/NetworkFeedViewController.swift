#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// The source material's scenario: a table of pictures downloaded from the network. Downloads run
/// off the main thread, one per URL however many rows ask, at most six at once with the visible
/// rows first; the rows about to appear are prefetched; a memory warning empties the store's
/// strong layer but never what is on screen.
final class NetworkFeedViewController: UITableViewController, UITableViewDataSourcePrefetching {
    private let items: [NetworkPicture]
    private let images: ImageStore<UIImage>
    /// Pictures loading ahead of the rows that will show them, kept alive until the row appears or
    /// scrolls out of reach.
    private var prefetches: [IndexPath: ImagePrefetch] = [:]
    private var memoryPressure: MemoryPressureSubscription?

    init(items: [NetworkPicture] = NetworkPicture.sample(), images: ImageStore<UIImage> = AppImages.store) {
        self.items = items
        self.images = images
        super.init(style: .plain)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("NetworkFeedViewController is created in code")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Pictures"
        tableView.register(NetworkPictureCell.self, forCellReuseIdentifier: NetworkPictureCell.reuseIdentifier)
        tableView.rowHeight = NetworkPictureCell.pictureSide + 16
        tableView.prefetchDataSource = self
        memoryPressure = images.subscribeToSystemMemoryPressure()
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        items.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: NetworkPictureCell.reuseIdentifier, for: indexPath)
        (cell as? NetworkPictureCell)?.configure(with: items[indexPath.row], images: images)
        return cell
    }

    override func tableView(
        _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
    ) {
        prefetches[indexPath] = nil
    }

    // MARK: UITableViewDataSourcePrefetching

    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        let scale = tableView.traitCollection.displayScale
        for indexPath in indexPaths where prefetches[indexPath] == nil {
            // The same request the cell will make (same size), so the row finds it in memory.
            let request = NetworkPictureCell.request(for: items[indexPath.row], scale: scale)
            prefetches[indexPath] = images.prefetch([request], priority: .low)
        }
    }

    func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        // Downloads nobody else waits for stop; what was decoded is released.
        for indexPath in indexPaths { prefetches.removeValue(forKey: indexPath)?.cancel() }
    }
}
#endif
