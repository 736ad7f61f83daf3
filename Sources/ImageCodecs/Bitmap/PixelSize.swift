/// An image's size in pixels, as a header declares it.
package struct PixelSize: Hashable, Sendable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a decoder's ``ImageDecoding/pixelSize(of:)`` reported, if it could tell.
    package init?(_ reported: (width: Int, height: Int)?) {
        guard let reported else { return nil }
        self.init(width: reported.width, height: reported.height)
    }

    /// The longest side.
    package var longestSide: Int { max(width, height) }
}
