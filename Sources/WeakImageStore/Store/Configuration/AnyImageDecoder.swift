import Foundation

/// Any ``ImageDecoding`` of `Image`, behind one concrete type, so that an
/// ``ImageStore/Configuration`` can hold a decoder as a value on every supported OS.
///
/// `any ImageDecoding<Image>` needs a runtime that iOS 15 and macOS 12 lack; this wrapper needs
/// none. It keeps the wrapped decoder once and forwards each call to it, so the decoder's own
/// implementations (thumbnails, damage reports, decode peaks) are the ones used. A call costs one
/// indirect call more than calling the decoder itself.
///
/// ```swift
/// configuration.decoder = AnyImageDecoder(BitmapDecoder(pngDecoder: PNGDecoder(maximumPixelCount: 1 << 20)))
/// ```
public struct AnyImageDecoder<Image: StorableImage>: ImageDecoding {
    private let decodeFullSize: @Sendable (Data, Int) throws -> Image
    private let decodeReduced: @Sendable (Data, Int, Int) throws -> Image
    private let readPixelSize: @Sendable (Data) -> (width: Int, height: Int)?
    private let decodeWithDamage: @Sendable (Data, Int, Int?) throws -> (image: Image, isDamaged: Bool)
    private let peakBytes: @Sendable (Data, Int?) -> Int?

    /// Wraps `decoder`.
    ///
    /// - Parameter decoder: The decoder every call is forwarded to. Wrapping an
    ///   `AnyImageDecoder` keeps it as it is instead of wrapping it twice.
    public init<Decoder: ImageDecoding>(_ decoder: Decoder) where Decoder.Image == Image {
        if let wrapped = decoder as? AnyImageDecoder<Image> {
            self = wrapped
            return
        }
        decodeFullSize = { data, scale in try decoder.decode(data, scale: scale) }
        decodeReduced = { data, scale, maxPixelSize in
            try decoder.decode(data, scale: scale, maxPixelSize: maxPixelSize)
        }
        readPixelSize = { data in decoder.pixelSize(of: data) }
        decodeWithDamage = { data, scale, maxPixelSize in
            try decoder.decodeReportingDamage(data, scale: scale, maxPixelSize: maxPixelSize)
        }
        peakBytes = { data, maxPixelSize in decoder.decodingPeakBytes(of: data, maxPixelSize: maxPixelSize) }
    }

    /// Decodes with the wrapped decoder's ``ImageDecoding/decode(_:scale:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    /// - Returns: The decoded image.
    /// - Throws: What the wrapped decoder throws.
    public func decode(_ data: Data, scale: Int) throws -> Image {
        try decodeFullSize(data, scale)
    }

    /// Reads the pixel size with the wrapped decoder's ``ImageDecoding/pixelSize(of:)``.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The width and height in pixels, or nil when the wrapped decoder cannot tell.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        readPixelSize(data)
    }

    /// Decodes to a reduced size with the wrapped decoder's
    /// ``ImageDecoding/decode(_:scale:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The reduced image.
    /// - Throws: What the wrapped decoder throws.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image {
        try decodeReduced(data, scale, maxPixelSize)
    }

    /// Decodes with the wrapped decoder's ``ImageDecoding/decodeReportingDamage(_:scale:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The image, and whether it was recovered from a damaged file.
    /// - Throws: What the wrapped decoder throws.
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws -> (image: Image, isDamaged: Bool) {
        try decodeWithDamage(data, scale, maxPixelSize)
    }

    /// The wrapped decoder's ``ImageDecoding/decodingPeakBytes(of:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The bytes the decode holds at its peak, or nil when the wrapped decoder cannot tell.
    public func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
        peakBytes(data, maxPixelSize)
    }
}
