#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Plugs a ``ScrollPrefetcher`` into `UITableView` and `UICollectionView` prefetching.
///
/// UIKit calls a prefetching data source as rows near the screen; this one answers each call by
/// telling the prefetcher which rows of its section are visible, and the prefetcher decides
/// how far ahead to load by the scroll's speed (UIKit's own window is a fixed few rows). For a
/// finer reading of the speed, also call ``visibleRowsChanged(in:)`` from
/// `scrollViewDidScroll(_:)`.
///
/// ```swift
/// let prefetcher = ScrollPrefetcher(store: images, rowCount: posts.count) { row in
///     [.url(posts[row].photoURL, maxPixelSize: 360)]
/// }
/// prefetching = PrefetchingDataSource(prefetcher: prefetcher)
/// tableView.prefetchDataSource = prefetching  // a weak reference: keep `prefetching`
/// ```
@MainActor
public final class PrefetchingDataSource: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    /// The prefetcher the visible rows go to.
    public let prefetcher: ScrollPrefetcher<UIImage>
    /// The section whose rows (or items) are the prefetcher's rows.
    public let section: Int

    /// Creates a prefetching data source for the rows of `section`.
    ///
    /// - Parameters:
    ///   - prefetcher: The prefetcher to drive; its rows are the section's rows or items.
    ///   - section: The section of the table or collection. Defaults to 0.
    public init(prefetcher: ScrollPrefetcher<UIImage>, section: Int = 0) {
        self.prefetcher = prefetcher
        self.section = section
    }

    /// Tells the prefetcher which of the table's rows are visible now.
    public func visibleRowsChanged(in tableView: UITableView) {
        follow(tableView.indexPathsForVisibleRows ?? [])
    }

    /// Tells the prefetcher which of the collection's items are visible now.
    public func visibleItemsChanged(in collectionView: UICollectionView) {
        follow(collectionView.indexPathsForVisibleItems)
    }

    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        visibleRowsChanged(in: tableView)
    }

    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        visibleRowsChanged(in: tableView)
    }

    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        visibleItemsChanged(in: collectionView)
    }

    public func collectionView(
        _ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
    ) {
        visibleItemsChanged(in: collectionView)
    }

    /// The span of the visible rows of ``section``, to the prefetcher.
    private func follow(_ indexPaths: [IndexPath]) {
        let rows = indexPaths.filter { $0.section == section }.map(\.item)
        guard let first = rows.min(), let last = rows.max() else { return }
        prefetcher.visibleRowsChanged(first..<(last + 1))
    }
}
#endif
