#if canImport(SwiftUI) && (canImport(UIKit) || (canImport(AppKit) && !targetEnvironment(macCatalyst)))
import SwiftUI
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// A SwiftUI view that shows an image from an ``ImageStore``: in the first frame when the store
/// holds it, else a placeholder while it loads on the store's loading threads.
///
/// ```swift
/// StoreImage(.named(item.imageName), from: images, displaySize: CGSize(width: 44, height: 44)) { image in
///     image.resizable().scaledToFill()
/// } placeholder: {
///     Color.gray.opacity(0.2)
/// }
/// .frame(width: 44, height: 44)
/// .clipShape(Circle())
/// ```
///
/// | the image is | the view shows |
/// |---|---|
/// | in memory (``ImageStore/cachedImage(for:)``) | the image at once; no task is started |
/// | not in memory | the placeholder, then the image once loaded |
/// | not loadable (missing, undecodable) | the placeholder |
///
/// The load starts when the placeholder appears and is cancelled when the view disappears or
/// its request changes: another request, another display size or another screen scale. An
/// image loaded for a request the view no longer shows is never drawn, so a row that is given
/// another item never flashes the previous item's picture.
///
/// With UIKit (iOS, iPadOS, tvOS, visionOS, watchOS, Mac Catalyst) the store holds `UIImage`s.
/// With AppKit (macOS) it holds ``SharedNSImage``s, and the view draws an `NSImage` of its own
/// made with ``SharedNSImage/makeNSImage()``, which keeps the shared image alive while it is
/// drawn, as a `UIImage` is.
@MainActor
public struct StoreImage<Content: View, Placeholder: View>: View {
    #if canImport(UIKit)
    /// The images the view's store holds: `UIImage` with UIKit.
    public typealias StoredImage = UIImage
    #else
    /// The images the view's store holds: ``SharedNSImage`` with AppKit.
    public typealias StoredImage = SharedNSImage
    #endif

    private let request: ImageRequest
    private let store: ImageStore<StoredImage>
    private let displaySize: CGSize?
    private let priority: ImageLoadPriority
    private let content: (Image) -> Content
    private let placeholder: () -> Placeholder
    @Environment(\.displayScale) private var displayScale
    /// The last image loaded, with the request it answers: shown only while that request is the
    /// view's, so a late result for an old request is dropped.
    @State private var loaded: (request: ImageRequest, image: StoredImage)?
    /// The list row the view shows, told to the prefetcher while the view is on screen.
    private var prefetching: (row: Int, prefetcher: ScrollPrefetcher<StoredImage>)?

    /// Creates a view showing the image `request` asks for, drawn by `content`.
    ///
    /// - Parameters:
    ///   - request: The image, and the size to decode it at unless `displaySize` is given.
    ///   - store: The store to load from.
    ///   - displaySize: The view's size in points: when given, it replaces the request's
    ///     `maxPixelSize` with the size's longest side times the screen's scale (see
    ///     ``ImageRequest/withMaxPixelSize(fitting:displayScale:)``). Defaults to nil: the
    ///     request's own size.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    ///   - content: Draws the image, for example `image.resizable().scaledToFill()`.
    ///   - placeholder: What to show while the image loads, and if it cannot be loaded.
    public init(
        _ request: ImageRequest,
        from store: ImageStore<StoredImage>,
        displaySize: CGSize? = nil,
        priority: ImageLoadPriority = .high,
        @ViewBuilder content: @escaping (Image) -> Content,
        @ViewBuilder placeholder: @escaping () -> Placeholder
    ) {
        self.request = request
        self.store = store
        self.displaySize = displaySize
        self.priority = priority
        self.content = content
        self.placeholder = placeholder
    }

    /// The image, or the placeholder with the task that loads the image.
    public var body: some View {
        let request = requestAtDisplaySize
        Group {
            if let image = image(for: request) {
                content(Self.swiftUIImage(image))
            } else {
                // On the placeholder only: a hit starts no task, and the load ends with the
                // placeholder, when the view disappears, or when `request` changes.
                placeholder().task(id: request) { await load(request) }
            }
        }
        .onAppear { prefetching.map { $0.prefetcher.rowAppeared($0.row) } }
        .onDisappear { prefetching.map { $0.prefetcher.rowDisappeared($0.row) } }
    }

    /// The view as row `row` of a scrolling list: while it is on screen `prefetcher` knows, and
    /// loads the rows ahead as the scroll's speed calls for.
    ///
    /// ```swift
    /// LazyVStack {
    ///     ForEach(posts.indices, id: \.self) { row in
    ///         StoreImage(.url(posts[row].photoURL), from: images, displaySize: cellSize)
    ///             .prefetchingAhead(row: row, with: prefetcher)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - row: The row the view shows.
    ///   - prefetcher: The list's prefetcher, whose requests for the row should be this view's
    ///     request at its display size.
    public func prefetchingAhead(row: Int, with prefetcher: ScrollPrefetcher<StoredImage>) -> Self {
        var view = self
        view.prefetching = (row, prefetcher)
        return view
    }

    /// The request at the size the view is drawn at.
    private var requestAtDisplaySize: ImageRequest {
        guard let displaySize else { return request }
        return request.withMaxPixelSize(fitting: displaySize, displayScale: max(displayScale, 1))
    }

    /// The image for `request` if the view has it or the store holds it now; never waits.
    private func image(for request: ImageRequest) -> StoredImage? {
        if let loaded, loaded.request == request { return loaded.image }
        return store.cachedImage(for: request)
    }

    private func load(_ request: ImageRequest) async {
        guard let image = try? await store.fetchImage(for: request, priority: priority) else { return }
        // A cancelled task's request is no longer the view's; the body would drop its image
        // anyway, but keeping it would keep a picture nobody sees alive.
        guard !Task.isCancelled else { return }
        loaded = (request, image)
    }

    private static func swiftUIImage(_ image: StoredImage) -> Image {
        #if canImport(UIKit)
        Image(uiImage: image)
        #else
        Image(nsImage: image.makeNSImage())
        #endif
    }
}

extension StoreImage where Content == Image, Placeholder == Color {
    /// Creates a view showing the image `request` asks for, resizable, over a light gray
    /// placeholder.
    ///
    /// ```swift
    /// StoreImage(.named("avatars/\(user.id)"), from: images, displaySize: CGSize(width: 44, height: 44))
    ///     .frame(width: 44, height: 44)
    /// ```
    ///
    /// The image is stretched to the view's frame; use
    /// ``init(_:from:displaySize:priority:content:placeholder:)`` to keep its aspect ratio with
    /// `.scaledToFit()` or `.scaledToFill()`.
    ///
    /// - Parameters:
    ///   - request: The image, and the size to decode it at unless `displaySize` is given.
    ///   - store: The store to load from.
    ///   - displaySize: The view's size in points, which replaces the request's `maxPixelSize`
    ///     when given. Defaults to nil: the request's own size.
    ///   - priority: The load's priority. Defaults to `.high`: the view is on screen.
    public init(
        _ request: ImageRequest,
        from store: ImageStore<StoredImage>,
        displaySize: CGSize? = nil,
        priority: ImageLoadPriority = .high
    ) {
        self.init(request, from: store, displaySize: displaySize, priority: priority) { image in
            image.resizable()
        } placeholder: {
            Color.gray.opacity(0.2)
        }
    }
}
#endif
