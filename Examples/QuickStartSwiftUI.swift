// The README's SwiftUI quick start. The lines between the "README" markers are quoted in README.md
// verbatim (Tests/WeakImageStoreTests/Documentation/ReadmeQuickStartTests.swift checks that), so
// the README's snippet is type-checked with the other examples by Scripts/typecheck-apple.sh.
#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
import SwiftUI
import UIKit
import WeakImageStore

// README: begin
struct ContactRow: View {
    let name: String
    let images: ImageStore<UIImage>

    var body: some View {
        HStack {
            // In memory: drawn in the first frame. Otherwise a placeholder, then the image decoded
            // off the main thread at 44 points × the screen's scale; cancelled if the row goes away.
            StoreImage(.named("avatars/\(name)"), from: images, displaySize: CGSize(width: 44, height: 44))
                .frame(width: 44, height: 44)
                .clipShape(Circle())
            Text(name)
        }
    }
}

struct PhotoDetail: View {
    let images: ImageStore<UIImage>
    @State private var photo: UIImage?

    var body: some View {
        ZStack {
            if let photo { Image(uiImage: photo).resizable().scaledToFit() } else { ProgressView() }
        }
        .task {
            // `fetchImage` is the asynchronous load: `try await`, off the main thread.
            photo = try? await images.fetchImage(named: "beach.jpg", maxPixelSize: 2048)
        }
    }
}
// README: end
#endif
