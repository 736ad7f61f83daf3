/// How a chat shows its animated stickers.
enum StickerStrategy: Hashable {
    /// Every frame decoded when the message appears, kept while it shows: `UIImage.animatedImage`
    /// and the YYImage-style loaders of the source material.
    case everyFrameUpFront
    /// A player per view decoding up to ten frames ahead of its playhead, as the popular players
    /// buffer: views showing the same sticker decode it each.
    case bufferPerView
    /// The store: one shared `ImageAnimation` per sticker, frames kept within a frame budget.
    case sharedAnimation(frameBudget: Int)

    var label: String {
        switch self {
        case .everyFrameUpFront: "every frame up front"
        case .bufferPerView: "10-frame buffer per view"
        case .sharedAnimation(let budget): "shared animation, \(budget >> 20) MiB budget"
        }
    }

    /// The frames a view buffers ahead, for ``bufferPerView``.
    static var bufferedFrames: Int { 10 }
}
