#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
import SwiftUI
import UIKit
import WeakImageStore

/// An image from the store, by name, in SwiftUI, loaded without blocking the main thread.
struct StoreImage: View {
    let name: String
    /// The longest side to decode, in pixels: the view's size in points times the screen scale.
    var maxPixelSize = 132
    var images: ImageStore<UIImage> = AppImages.store
    @State private var loaded: (name: String, image: UIImage)?

    var body: some View {
        Group {
            // A hit needs no task at all: the store answers from memory.
            if let image = loaded?.name == name
                ? loaded?.image : images.cachedImage(named: name, maxPixelSize: maxPixelSize)
            {
                Image(uiImage: image).resizable().scaledToFill()
            } else {
                Image(systemName: "person.crop.circle").resizable().scaledToFit()
            }
        }
        // Runs when the row appears or its name changes, and is cancelled when the row goes
        // away or the name changes: a cancelled load delivers nothing.
        .task(id: name) {
            guard let image = try? await images.image(named: name, maxPixelSize: maxPixelSize) else { return }
            loaded = (name, image)
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
                StoreImage(name: item.imageName)
                    .frame(width: 44, height: 44)
                    .clipShape(Circle())
                Text(item.title)
            }
        }
    }
}
#endif
