#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
import SwiftUI
import UIKit
import WeakImageStore

/// The feed as a SwiftUI list: rows scrolled away are destroyed, and with them their images'
/// last holders.
struct FeedList: View {
    var items: [FeedItem] = FeedItem.sample()
    var images: ImageStore<UIImage> = AppImages.store

    var body: some View {
        List(items) { item in
            HStack(spacing: 12) {
                // Decoded at 44 points times the screen's scale: 132 pixels on a 3x iPhone.
                StoreImage(.named(item.imageName), from: images, displaySize: CGSize(width: 44, height: 44)) { image in
                    image.resizable().scaledToFill()
                } placeholder: {
                    Image(systemName: "person.crop.circle").resizable().scaledToFit()
                }
                .frame(width: 44, height: 44)
                .clipShape(Circle())
                Text(item.title)
            }
        }
    }
}
#endif
