/// An animated file's frames for a decoder's image type: the cursor that composites them and how
/// a composited frame becomes the decoder's image (``ImageDecoding/animatedFrames(of:options:)``).
public struct AnimatedFrames<Image>: Sendable {
    /// The frames, from the first.
    public var cursor: AnimationFrameCursor
    /// Turns a composited frame into the decoder's image (the frame itself for ``Bitmap``).
    public let makeImage: @Sendable (Bitmap) throws -> Image

    /// The frames of `cursor`, each made into an image by `makeImage`.
    ///
    /// - Parameters:
    ///   - cursor: A cursor before the first frame.
    ///   - makeImage: Turns a composited frame into the decoder's image.
    public init(cursor: AnimationFrameCursor, makeImage: @escaping @Sendable (Bitmap) throws -> Image) {
        self.cursor = cursor
        self.makeImage = makeImage
    }
}

extension AnimatedFrames where Image == Bitmap {
    /// The frames of `cursor`, as the bitmaps it composites.
    ///
    /// - Parameter cursor: A cursor before the first frame.
    public init(cursor: AnimationFrameCursor) {
        self.init(cursor: cursor, makeImage: { $0 })
    }
}
