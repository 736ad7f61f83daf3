/// An image's size in pixels, as a header declares it.
struct PixelSize: Hashable, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a decoder's ``ImageDecoding/pixelSize(of:)`` reported, if it could tell.
    init?(_ reported: (width: Int, height: Int)?) {
        guard let reported else { return nil }
        self.init(width: reported.width, height: reported.height)
    }

    /// The longest side.
    var longestSide: Int { max(width, height) }
}
