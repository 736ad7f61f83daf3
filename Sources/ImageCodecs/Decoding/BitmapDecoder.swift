import Foundation

/// Decodes PNG, JPEG, GIF and WebP files into ``Bitmap``s, choosing the format by the file's leading bytes,
/// never by its name: a JPEG saved as `photo.png` decodes as the JPEG it is.
///
/// | leading bytes                    | decoder         |
/// |----------------------------------|-----------------|
/// | `89 50 4E 47 0D 0A 1A 0A`        | ``PNGDecoder``  |
/// | `FF D8`                          | ``JPEGDecoder`` |
/// | `GIF87a` or `GIF89a`             | ``GIFDecoder``  |
/// | `RIFF`, 4 bytes, `WEBP`          | ``WebPDecoder`` |
/// | anything else                    | throws ``BitmapDecoderError/unrecognizedFormat(leadingBytes:)`` |
///
/// This is the default decoder of `ImageStore<Bitmap>`.
public struct BitmapDecoder: ImageDecoding {
    /// The decoder of PNG files, with its size limits.
    public var pngDecoder: PNGDecoder
    /// The decoder of JPEG files, with its size limits.
    public var jpegDecoder: JPEGDecoder
    /// The decoder of GIF files, with its size and frame limits.
    public var gifDecoder: GIFDecoder
    /// The decoder of WebP files, with its size and frame limits.
    public var webpDecoder: WebPDecoder

    /// Creates a decoder from a PNG, a JPEG, a GIF and a WebP decoder.
    ///
    /// - Parameters:
    ///   - pngDecoder: Decodes PNG files. Defaults to `PNGDecoder()` (64 Mi pixels).
    ///   - jpegDecoder: Decodes JPEG files. Defaults to `JPEGDecoder()` (64 Mi pixels).
    ///   - gifDecoder: Decodes GIF files. Defaults to `GIFDecoder()` (64 Mi pixels, 4096 frames).
    ///   - webpDecoder: Decodes WebP files. Defaults to `WebPDecoder()` (64 Mi pixels, 4096 frames).
    public init(
        pngDecoder: PNGDecoder = PNGDecoder(), jpegDecoder: JPEGDecoder = JPEGDecoder(),
        gifDecoder: GIFDecoder = GIFDecoder(), webpDecoder: WebPDecoder = WebPDecoder()
    ) {
        self.pngDecoder = pngDecoder
        self.jpegDecoder = jpegDecoder
        self.gifDecoder = gifDecoder
        self.webpDecoder = webpDecoder
    }

    /// The image formats the decoder recognizes.
    public enum Format: Sendable, Equatable {
        /// A PNG file.
        case png
        /// A JPEG file.
        case jpeg
        /// A GIF file (GIF87a or GIF89a).
        case gif
        /// A WebP file (a RIFF container of type `WEBP`).
        case webp
    }

    /// The format of a file, from its leading bytes.
    ///
    /// - Parameter data: The file, or at least its first 12 bytes.
    /// - Returns: The format, or `nil` if the bytes are neither a PNG signature, a JPEG SOI, a
    ///   GIF signature nor a RIFF `WEBP` header.
    public static func format(of data: Data) -> Format? {
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if data.starts(with: pngSignature) { return .png }
        if data.starts(with: [0xFF, 0xD8]) { return .jpeg }
        if data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)) { return .gif }
        if data.count >= 12, data.starts(with: Array("RIFF".utf8)),
            data.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
        {
            return .webp
        }
        return nil
    }

    /// Decodes a PNG, JPEG, GIF or WebP file (a GIF's first frame).
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap (2 for `icon@2x.png`); at least 1.
    /// - Returns: The decoded bitmap (a JPEG's EXIF orientation applied).
    /// - Throws: ``BitmapDecoderError`` wrapping the format decoder's error, or saying the
    ///   format is not recognized.
    public func decode(_ data: Data, scale: Int) throws(BitmapDecoderError) -> Bitmap {
        try decode(data, options: DecodeOptions(scale: scale)).image
    }
}

/// The decoder seam: the header, one decode with options, and the decode's peak, each by the
/// decoder of the file's format.
extension BitmapDecoder {
    /// The file's header, by the decoder of its format.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header (a JPEG's size upright), or nil if the format is not recognized or
    ///   the header is broken.
    public func header(of data: Data) -> ImageHeader? {
        switch Self.format(of: data) {
        case .png: pngDecoder.header(of: data)
        case .jpeg: jpegDecoder.header(of: data)
        case .gif: gifDecoder.header(of: data)
        case .webp: webpDecoder.header(of: data)
        case nil: nil
        }
    }

    /// Decodes a PNG, JPEG, GIF or WebP file as `options` say, by the decoder of its format: see
    /// ``PNGDecoder/decode(_:options:)``, ``JPEGDecoder/decode(_:options:)``,
    /// ``GIFDecoder/decode(_:options:)`` (a GIF's first frame) and ``WebPDecoder/decode(_:options:)``.
    /// Only a JPEG or a GIF is ever reported damaged: ``PNGDecoder`` and ``WebPDecoder`` refuse
    /// damage.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale, the size, the header read from `data` already, and the strictness.
    /// - Returns: The bitmap (a JPEG's Exif orientation applied), and whether it was damaged.
    /// - Throws: ``BitmapDecoderError`` wrapping the format decoder's error, or saying the format
    ///   is not recognized.
    public func decode(_ data: Data, options: DecodeOptions) throws(BitmapDecoderError) -> DecodeResult<Bitmap> {
        switch Self.format(of: data) {
        case .png:
            do {
                return try pngDecoder.decode(data, options: options)
            } catch {
                throw .png(error)
            }
        case .jpeg:
            do {
                return try jpegDecoder.decode(data, options: options)
            } catch {
                throw .jpeg(error)
            }
        case .gif:
            do {
                return try gifDecoder.decode(data, options: options)
            } catch {
                throw .gif(error)
            }
        case .webp:
            do {
                return try webpDecoder.decode(data, options: options)
            } catch {
                throw .webp(error)
            }
        case nil:
            throw .unrecognizedFormat(leadingBytes: Array(data.prefix(8)))
        }
    }

    /// The most memory a decode with `options` will hold at once, by the decoder of the file's
    /// format, from the header in the options when it has one: see
    /// ``PNGDecoder/decodingPeakBytes(of:options:)``, ``JPEGDecoder/decodingPeakBytes(of:options:)``
    /// and ``GIFDecoder/decodingPeakBytes(of:options:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options.
    /// - Returns: The bytes, or nil if the format is not recognized or the header is broken.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        switch Self.format(of: data) {
        case .png: pngDecoder.decodingPeakBytes(of: data, options: options)
        case .jpeg: jpegDecoder.decodingPeakBytes(of: data, options: options)
        case .gif: gifDecoder.decodingPeakBytes(of: data, options: options)
        case .webp: webpDecoder.decodingPeakBytes(of: data, options: options)
        case nil: nil
        }
    }

    /// The frames of an animated file, by the decoder of its format: every GIF (one of a single
    /// frame too), an APNG, an animated WebP; nil for a still image (a PNG without `acTL`, a
    /// JPEG, a WebP without animation).
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and the maximum pixel size of every frame, and the strictness.
    /// - Returns: A cursor before the first frame, or nil for a still image.
    /// - Throws: ``BitmapDecoderError`` when the animation's description cannot be read.
    public func frameCursor(for data: Data, options: DecodeOptions) throws(BitmapDecoderError) -> AnimationFrameCursor?
    {
        switch Self.format(of: data) {
        case .gif:
            do {
                return try gifDecoder.frameCursor(for: data, options: options)
            } catch {
                throw .gif(error)
            }
        case .png:
            do {
                return try pngDecoder.frameCursor(for: data, options: options)
            } catch {
                throw .png(error)
            }
        case .webp:
            do {
                return try webpDecoder.frameCursor(for: data, options: options)
            } catch {
                throw .webp(error)
            }
        case .jpeg, nil:
            return nil
        }
    }

    /// The frames of an animated file as bitmaps: see ``frameCursor(for:options:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and the maximum pixel size of every frame, and the strictness.
    /// - Returns: The frames, or nil for a still image.
    /// - Throws: ``BitmapDecoderError`` when the animation's description cannot be read.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws(BitmapDecoderError) -> AnimatedFrames<
        Bitmap
    >? {
        try frameCursor(for: data, options: options).map { AnimatedFrames(cursor: $0) }
    }
}
