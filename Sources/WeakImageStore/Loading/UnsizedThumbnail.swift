/// A thumbnail whose key is not known yet, because its full-size image's pixel size is not:
/// the bytes' header decides. A thumbnail at least as large as the image is the full-size image
/// itself (one key per output size, and never two live images with the same pixels).
struct UnsizedThumbnail: Hashable, Sendable, CustomStringConvertible {
    /// The image the thumbnail is made from.
    let fullSize: ImageLocator
    /// The longest side asked for, in pixels; at least 1.
    let maxPixelSize: Int

    init(of fullSize: ImageLocator, maxPixelSize: Int) {
        self.fullSize = fullSize
        self.maxPixelSize = maxPixelSize
    }

    /// The thumbnail's source once the image's size is known; nil when the decoder cannot tell,
    /// which makes it the full-size image (a decoder that cannot read the size cannot make
    /// thumbnails either).
    func source(forImageSize size: PixelSize?) -> ImageLocator {
        fullSize.reduced(to: maxPixelSize, imageSize: size)
    }

    var description: String { "\(fullSize) at most \(maxPixelSize) px" }
}
