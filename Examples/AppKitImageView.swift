#if canImport(AppKit) && !canImport(UIKit)
import AppKit
import WeakImageStore

/// AppKit: the store shares a `SharedNSImage`; each view shows its own `NSImage` made from it.
@MainActor
final class AvatarView: NSImageView {
    private let images: ImageStore<SharedNSImage>

    init(images: ImageStore<SharedNSImage>) {
        self.images = images
        super.init(frame: NSRect(x: 0, y: 0, width: 44, height: 44))
        imageScaling = .scaleProportionallyUpOrDown
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("AvatarView is created in code")
    }

    /// Shows the image named `name`. The `NSImage` keeps the shared image alive, so the store
    /// goes on sharing it while this view shows it.
    func show(_ name: String) {
        image = images.image(named: name)?.makeNSImage()
    }
}
#endif
