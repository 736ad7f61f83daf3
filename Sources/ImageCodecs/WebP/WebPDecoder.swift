import Foundation

/// A pure-Swift WebP decoder producing ``Bitmap``s: the RIFF container (simple and extended),
/// VP8 lossy and VP8L lossless images and `ALPH` alpha planes, byte-exact with libwebp 1.2.4's
/// `dwebp -pam` (lossy with its default fancy upsampling).
///
/// | file                                 | result                                             |
/// |--------------------------------------|----------------------------------------------------|
/// | `VP8L` (lossless), simple or in `VP8X` | ``PixelFormat/rgba8``, the stream's alpha as coded (colour kept under alpha 0) |
/// | `VP8 ` (lossy), with or without `ALPH` | ``PixelFormat/rgba8``, alpha 255 without `ALPH`; decoded macroblock row by macroblock row, so a thumbnail never holds the full-size image |
/// | animated (`VP8X` + `ANIM`/`ANMF`)    | the first frame on its canvas; every frame through ``frameCursor(for:options:)``, as libwebp's `WebPAnimDecoder` composites them |
/// | `ICCP`, `EXIF`, `XMP `, unknown chunks | skipped                                            |
///
/// Every image is ``PixelFormat/rgba8``, opaque ones too, as `dwebp -pam` writes them: the VP8L
/// header's alpha flag is only a hint, and the pixels carry their alpha either way.
///
/// A file is decoded whole or refused: a truncated bitstream, a RIFF size that lies, a prefix
/// code that over-subscribes its code space, a colour cache of 12+ bits, a transform repeated,
/// a backward reference outside the image — each throws its ``WebPError``, as `dwebp` refuses
/// them; nothing is reported as recovered damage, so ``DecodeOptions/strictness`` changes nothing.
///
/// Hostile input cannot make the decoder allocate without bound: the canvas and every frame are
/// checked against the size limits, and the decode's peak against ``maximumDecodingBytes``,
/// before any pixel buffer exists; the prefix tables count toward the same limit as they grow.
public struct WebPDecoder: ImageDecoding {
    /// The decoded image.
    public typealias Image = Bitmap

    /// The most pixels (`width * height`) the canvas or a frame may have. Defaults to 64 Mi
    /// (67 108 864), which makes at most a 256 MiB image.
    public var maximumPixelCount: Int
    /// The largest width or height, in pixels. Defaults to 32 768; a VP8L image is at most
    /// 16 384 wide, an extended canvas 16 777 216.
    public var maximumDimension: Int
    /// The most frames an animated file may have. Defaults to 4096.
    public var maximumFrameCount: Int
    /// The most memory one decode may hold at once, as ``decodingPeakBytes(of:options:)``
    /// computes it, before it is refused with ``WebPError/decodeTooLarge(bytesNeeded:limit:)``.
    /// Defaults to 384 MiB, as ``PNGDecoder``'s.
    public var maximumDecodingBytes: Int

    /// Creates a decoder with size limits.
    ///
    /// - Parameters:
    ///   - maximumPixelCount: The most pixels of the canvas or a frame; at least 1. Defaults to
    ///     64 Mi.
    ///   - maximumDimension: The largest width or height; at least 1. Defaults to 32 768.
    ///   - maximumFrameCount: The most frames; at least 1. Defaults to 4096.
    ///   - maximumDecodingBytes: The most memory one decode may hold at once; at least 1.
    ///     Defaults to 384 MiB.
    public init(
        maximumPixelCount: Int = 67_108_864, maximumDimension: Int = 32_768, maximumFrameCount: Int = 4096,
        maximumDecodingBytes: Int = 402_653_184
    ) {
        ImageSizeLimit.requireValid(
            maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
            maximumDecodingBytes: maximumDecodingBytes)
        precondition(maximumFrameCount >= 1, "maximumFrameCount must be at least 1")
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.maximumFrameCount = maximumFrameCount
        self.maximumDecodingBytes = maximumDecodingBytes
    }

    /// The file's chunks, from the header's parse when it carries one, with the canvas and every
    /// frame checked against the limits.
    func container(of data: Data, header: ImageHeader? = nil) throws(WebPError) -> WebPContainer {
        if case .webp(let container) = header?.parsed { return container }
        let container = try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(WebPError) in
                try WebPContainer(reading: bytes, maximumFrameCount: maximumFrameCount) {
                    width, height throws(WebPError) in
                    try checkSize(width: width, height: height)
                }
            })
        }.typedGet()
        if let animation = container.animation {
            for (index, frame) in animation.frames.enumerated() {
                guard frame.x + frame.width <= container.width, frame.y + frame.height <= container.height else {
                    throw .frameOutsideCanvas(frame: index)
                }
            }
        }
        return container
    }

    func checkSize(width: Int, height: Int) throws(WebPError) {
        if let limit = ImageSizeLimit.exceeded(
            width: width, height: height, maximumDimension: maximumDimension,
            maximumPixelCount: maximumPixelCount, ceiling: Int.max / 16)
        {
            throw .imageTooLarge(width: width, height: height, limit: limit)
        }
    }

    func checkPeak(_ bytesNeeded: Int) throws(WebPError) {
        guard bytesNeeded <= maximumDecodingBytes else {
            throw .decodeTooLarge(bytesNeeded: bytesNeeded, limit: maximumDecodingBytes)
        }
    }
}
