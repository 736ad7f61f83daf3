#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
import SwiftUI
import UIKit
import WeakImageStore

/// An image from the store, by name, in SwiftUI.
struct StoreImage: View {
    let name: String
    var images: ImageStore<UIImage> = AppImages.store

    var body: some View {
        // `body` runs often; after the first decode every run is a hash lookup that returns the
        // same instance, so SwiftUI sees an unchanged image.
        if let image = images.image(named: name) {
            Image(uiImage: image).resizable().scaledToFill()
        } else {
            Image(systemName: "person.crop.circle").resizable().scaledToFit()
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
