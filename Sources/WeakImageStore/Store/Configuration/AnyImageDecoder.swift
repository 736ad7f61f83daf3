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
    private let readHeader: @Sendable (Data) -> ImageHeader?
    private let decodeWithOptions: @Sendable (Data, DecodeOptions) throws -> DecodeResult<Image>
    private let peakBytes: @Sendable (Data, DecodeOptions) -> Int?
    private let readFrames: @Sendable (Data, DecodeOptions) throws -> AnimatedFrames<Image>?

    /// Wraps `decoder`; an `AnyImageDecoder` is kept as it is rather than wrapped again.
    ///
    /// - Parameter decoder: The decoder every call goes to.
    public init<Decoder: ImageDecoding>(_ decoder: Decoder) where Decoder.Image == Image {
        if let wrapped = decoder as? AnyImageDecoder<Image> {
            self = wrapped
            return
        }
        readHeader = { data in decoder.header(of: data) }
        decodeWithOptions = { data, options in try decoder.decode(data, options: options) }
        peakBytes = { data, options in decoder.decodingPeakBytes(of: data, options: options) }
        readFrames = { data, options in try decoder.animatedFrames(of: data, options: options) }
    }

    /// The wrapped decoder's header.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: What the wrapped decoder returns.
    public func header(of data: Data) -> ImageHeader? {
        readHeader(data)
    }

    /// The wrapped decoder's decode.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options.
    /// - Returns: What the wrapped decoder returns.
    /// - Throws: What the wrapped decoder throws.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Image> {
        try decodeWithOptions(data, options)
    }

    /// The wrapped decoder's decode peak.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options.
    /// - Returns: What the wrapped decoder returns.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        peakBytes(data, options)
    }

    /// The wrapped decoder's frames of an animated file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame.
    /// - Returns: What the wrapped decoder returns.
    /// - Throws: What the wrapped decoder throws.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Image>? {
        try readFrames(data, options)
    }
}
