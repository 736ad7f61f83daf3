#if canImport(UIKit)
import UIKit
import WeakImageStore

/// A store created off the main actor: `ImageStore<UIImage>(.init())` tries the main screen's scale
/// first, as `UIImage(named:)` does (`sticker@3x.png`, then `@2x`, then the plain file on a 3x
/// iPhone), and learns that scale without the main actor.
actor StickerLibrary {
    private let images = ImageStore<UIImage>(.init())

    /// The sticker called `name`, from the main bundle.
    func sticker(named name: String) -> UIImage? {
        images.image(named: name)
    }

    /// The order the library's store tries scale suffixes in, readable on any thread.
    nonisolated var scaleOrder: [Int] {
        ImageStore<UIImage>.screenFirstScales
    }
}
#endif
