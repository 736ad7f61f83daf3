import Foundation

/// Turns the bytes of an image file into a decoded image.
///
/// An ``ImageStore`` calls its decoder outside any lock, at most once per image at a time, from
/// whichever thread missed first. Decoders must be safe to call from several threads at once.
public protocol ImageDecoding<Image>: Sendable {
    /// The decoded image type.
    associatedtype Image: StorableImage

    /// Decodes one image file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file (2 for `icon@2x.png`), to record in the image.
    /// - Returns: The decoded image.
    /// - Throws: Any error; the store reports it as ``ImageStoreError/decodingFailed(path:reason:)``
    ///   with the error's description.
    func decode(_ data: Data, scale: Int) throws -> Image
}
