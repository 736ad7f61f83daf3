#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Shows store images in one image view, so a table or collection view cell needs no bookkeeping.
///
/// Each ``setImage(_:from:priority:placeholder:)`` shows the image at once when the store holds
/// it, and otherwise loads it asynchronously. Asking for another image (a reused cell), calling
/// ``cancel()`` or releasing the loader cancels the previous request, and a result that arrives
/// for a request no longer current is never shown.
///
/// ```swift
/// final class PhotoCell: UITableViewCell {
///     private lazy var loader = ImageViewLoader(imageView: imageView!)
///
///     func show(_ photo: Photo, from store: ImageStore<UIImage>) {
///         loader.setImage(.named(photo.fileName, maxPixelSize: 300), from: store)
///     }
///
///     override func prepareForReuse() {
///         super.prepareForReuse()
///         loader.cancel()
///     }
/// }
/// ```
@MainActor
public final class ImageViewLoader {
    /// The view the images go to; held weakly, the view usually owns the loader's owner.
    public private(set) weak var imageView: UIImageView?
    /// Bumped by every request: a load finishing for an older one is stale.
    private var generation = 0
    // Behind a lock rather than actor-isolated, so the nonisolated deinit can cancel it.
    private let currentLoad = Lock<Task<Void, Never>?>(nil)
    /// The list row shown, and the prefetcher told so.
    private var shownRow: (row: Int, prefetcher: ScrollPrefetcher<UIImage>)?

    /// Creates a loader for `imageView`.
    ///
    /// - Parameter imageView: The view to show images in.
    public init(imageView: UIImageView) {
        self.imageView = imageView
    }

    deinit {
        currentLoad.withLock { $0?.cancel() }
    }

    /// Shows the image `request` asks for: at once if `store` holds it, else `placeholder` until it
    /// has loaded.
    ///
    /// The lookup that answers at once is memory-only: it never reads a file, never calls a data
    /// provider and never decodes, so the main thread never waits. A miss loads on the store's
    /// loading threads.
    ///
    /// - Parameters:
    ///   - request: The image and the size to decode it at: its `maxPixelSize` should be the view's
    ///     size in points times the screen scale, or nil for the full-size image.
    ///   - store: The store to load from.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - placeholder: What to show while loading, and if the load fails. Defaults to nil.
    public func setImage(
        _ request: ImageRequest, from store: ImageStore<UIImage>, priority: ImageLoadPriority = .high,
        placeholder: UIImage? = nil
    ) {
        cancel()
        if let cached = store.cachedImage(for: request) {
            imageView?.image = cached
            return
        }
        imageView?.image = placeholder
        let requestGeneration = generation
        let task = Task { [weak self] in
            let image = try? await store.fetchImage(for: request, priority: priority)
            guard let self, let image, !Task.isCancelled, self.generation == requestGeneration else { return }
            self.imageView?.image = image
        }
        currentLoad.withLock { $0 = task }
    }

    /// Shows the animation `request` names in the loader's view, which must be an
    /// ``AnimatedImageView``: at once if someone holds it already (its first frame decoded), else
    /// `placeholder` until it loads. A still image plays as an animation of one frame.
    ///
    /// - Parameters:
    ///   - request: The file, and the size every frame is decoded at.
    ///   - store: The store to load from.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - placeholder: What to show while it loads, and if it cannot be loaded.
    public func setAnimation(
        _ request: ImageRequest, from store: ImageStore<UIImage>, priority: ImageLoadPriority = .high,
        placeholder: UIImage? = nil
    ) {
        cancel()
        guard let view = imageView as? AnimatedImageView else {
            preconditionFailure("setAnimation needs an AnimatedImageView")
        }
        if let cached = store.cachedAnimation(for: request) {
            view.animation = cached
            return
        }
        view.animation = nil
        view.image = placeholder
        let requestGeneration = generation
        let task = Task { [weak self] in
            let animation = try? await store.animation(for: request, priority: priority)
            guard let self, let animation, !Task.isCancelled, self.generation == requestGeneration else { return }
            (self.imageView as? AnimatedImageView)?.animation = animation
        }
        currentLoad.withLock { $0 = task }
    }

    /// Shows the image for `name`: at once if `store` holds it, else `placeholder` until it has
    /// loaded; the same as ``setImage(_:from:priority:placeholder:)`` with
    /// `.named(name, maxPixelSize: maxPixelSize)`.
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories.
    ///   - store: The store to load from.
    ///   - maxPixelSize: Decode to at most this many pixels on the longest side (the view's
    ///     size in points times the screen scale), or nil for the full-size image. Defaults to nil.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - placeholder: What to show while loading, and if the load fails. Defaults to nil.
    public func setImage(
        named name: String, from store: ImageStore<UIImage>, maxPixelSize: Int? = nil,
        priority: ImageLoadPriority = .high, placeholder: UIImage? = nil
    ) {
        setImage(.named(name, maxPixelSize: maxPixelSize), from: store, priority: priority, placeholder: placeholder)
    }

    /// Shows the image `request` asks for as row `row` of a list, which `prefetcher` learns is on
    /// screen until the next request or ``cancel()`` (the cell's reuse): the rows ahead load as
    /// the scroll's speed calls for.
    ///
    /// - Parameters:
    ///   - request: The image and the size to decode it at, the same request `prefetcher`
    ///     prefetches for the row.
    ///   - store: The store to load from.
    ///   - row: The row the view shows.
    ///   - prefetcher: The list's prefetcher.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - placeholder: What to show while loading, and if the load fails. Defaults to nil.
    public func setImage(
        _ request: ImageRequest, from store: ImageStore<UIImage>, row: Int, of prefetcher: ScrollPrefetcher<UIImage>,
        priority: ImageLoadPriority = .high, placeholder: UIImage? = nil
    ) {
        setImage(request, from: store, priority: priority, placeholder: placeholder)
        prefetcher.rowAppeared(row)
        shownRow = (row, prefetcher)
    }

    /// Cancels the request in progress, if any; the view keeps what it shows.
    public func cancel() {
        if let (row, prefetcher) = shownRow {
            prefetcher.rowDisappeared(row)
            shownRow = nil
        }
        generation += 1
        currentLoad.withLock { current in
            current?.cancel()
            current = nil
        }
    }
}
#endif
