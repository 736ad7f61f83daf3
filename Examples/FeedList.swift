#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
import SwiftUI
import UIKit
import WeakImageStore

/// An image from the store, for any request, in SwiftUI, loaded without blocking the main thread.
struct StoreImage: View {
    /// The image and the size to decode it at: `maxPixelSize` is the view's size in points times
    /// the screen scale.
    let request: ImageRequest
    var images: ImageStore<UIImage> = AppImages.store
    @State private var loaded: (request: ImageRequest, image: UIImage)?

    var body: some View {
        Group {
            // A hit needs no task at all: the store answers from memory.
            if let image = loaded?.request == request ? loaded?.image : images.cachedImage(for: request) {
                Image(uiImage: image).resizable().scaledToFill()
            } else {
                Image(systemName: "person.crop.circle").resizable().scaledToFit()
            }
        }
        // Runs when the row appears or its request changes, and is cancelled when the row goes
        // away or the request changes: a cancelled load delivers nothing.
        .task(id: request) {
            guard let image = try? await images.image(for: request) else { return }
            loaded = (request, image)
        }
    }
}

/// The feed as a SwiftUI list: rows scrolled away are destroyed, and with them their images'
/// last holders.
struct FeedList: View {
    var items: [FeedItem] = FeedItem.sample()

    var body: some View {
        List(items) { item in
            HStack(spacing: 12) {
                // 44 points at 3x.
                StoreImage(request: .named(item.imageName, maxPixelSize: 132))
                    .frame(width: 44, height: 44)
                    .clipShape(Circle())
                Text(item.title)
            }
        }
    }
}
#endif
