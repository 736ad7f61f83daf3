#if canImport(ImageIO)
import Foundation
import ImageIO

/// Decodes image data into a `CGImage` whose pixels are decoded now, on the calling thread,
/// rather than lazily at first draw on the main thread.
enum EagerImageSource {
    static func decodedImage(from data: Data) throws(PlatformImageError) -> CGImage {
        guard let source = CGImageSourceCreateWithData(data as CFData, nil) else { throw .undecodable }
        let options = [kCGImageSourceShouldCacheImmediately: true] as CFDictionary
        guard let image = CGImageSourceCreateImageAtIndex(source, 0, options) else { throw .undecodable }
        return image
    }

    /// The decoded byte count of `image`: `bytesPerRow × height`.
    static func cost(of image: CGImage) -> Int {
        image.bytesPerRow * image.height
    }
}
#endif
