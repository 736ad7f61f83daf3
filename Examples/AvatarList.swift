#if canImport(AppKit) && !canImport(UIKit) && canImport(SwiftUI)
import SwiftUI
import WeakImageStore

/// SwiftUI on macOS: the same view over a store of `SharedNSImage`s; each row draws its own
/// `NSImage` made from the shared one.
///
/// Not type-checked yet: the macOS SDK copy that Scripts/typecheck-apple.sh uses has no SwiftUI.
struct AvatarList: View {
    let names: [String]
    let images: ImageStore<SharedNSImage>

    var body: some View {
        List(names, id: \.self) { name in
            HStack {
                StoreImage(.named("avatars/\(name)"), from: images, displaySize: CGSize(width: 32, height: 32)) {
                    image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    Color.secondary.opacity(0.2)
                }
                .frame(width: 32, height: 32)
                Text(name)
            }
        }
    }
}
#endif
