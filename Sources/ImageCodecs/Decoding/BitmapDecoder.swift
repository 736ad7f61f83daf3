import Foundation

/// Decodes PNG and JPEG files into ``Bitmap``s, choosing the format by the file's leading bytes,
/// never by its name: a JPEG saved as `photo.png` decodes as the JPEG it is.
///
/// | leading bytes                    | decoder         |
/// |----------------------------------|-----------------|
/// | `89 50 4E 47 0D 0A 1A 0A`        | ``PNGDecoder``  |
/// | `FF D8`                          | ``JPEGDecoder`` |
/// | anything else                    | throws ``BitmapDecoderError/unrecognizedFormat(leadingBytes:)`` |
///
/// This is the default decoder of `ImageStore<Bitmap>`.
public struct BitmapDecoder: ImageDecoding {
    /// The decoder of PNG files, with its size limits.
    public var pngDecoder: PNGDecoder
    /// The decoder of JPEG files, with its size limits.
    public var jpegDecoder: JPEGDecoder

    /// Creates a decoder from a PNG and a JPEG decoder.
    ///
    /// - Parameters:
    ///   - pngDecoder: Decodes PNG files. Defaults to `PNGDecoder()` (64 Mi pixels).
    ///   - jpegDecoder: Decodes JPEG files. Defaults to `JPEGDecoder()` (64 Mi pixels).
    public init(pngDecoder: PNGDecoder = PNGDecoder(), jpegDecoder: JPEGDecoder = JPEGDecoder()) {
        self.pngDecoder = pngDecoder
        self.jpegDecoder = jpegDecoder
    }

    /// The image formats the decoder recognizes.
    public enum Format: Sendable, Equatable {
        /// A PNG file.
        case png
        /// A JPEG file.
        case jpeg
    }

    /// The format of a file, from its leading bytes.
    ///
    /// - Parameter data: The file, or at least its first 8 bytes.
    /// - Returns: The format, or `nil` if the bytes are neither a PNG signature nor a JPEG SOI.
    public static func format(of data: Data) -> Format? {
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if data.starts(with: pngSignature) { return .png }
        if data.starts(with: [0xFF, 0xD8]) { return .jpeg }
        return nil
    }

    /// Decodes a PNG or JPEG file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap (2 for `icon@2x.png`); at least 1.
    /// - Returns: The decoded bitmap (a JPEG's EXIF orientation applied).
    /// - Throws: ``BitmapDecoderError`` wrapping the format decoder's error, or saying the
    ///   format is not recognized.
    public func decode(_ data: Data, scale: Int) throws(BitmapDecoderError) -> Bitmap {
        switch Self.format(of: data) {
        case .png:
            do {
                return try pngDecoder.decode(data, scale: scale)
            } catch {
                throw .png(error)
            }
        case .jpeg:
            do {
                return try jpegDecoder.decode(data, scale: scale)
            } catch {
                throw .jpeg(error)
            }
        case nil:
            throw .unrecognizedFormat(leadingBytes: Array(data.prefix(8)))
        }
    }
}

extension BitmapDecoder {
    /// The pixel size the file's header declares, by the decoder of its format.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The (upright) width and height, or nil if the format is not recognized or the
    ///   header is broken.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        switch Self.format(of: data) {
        case .png: pngDecoder.pixelSize(of: data)
        case .jpeg: jpegDecoder.pixelSize(of: data)
        case nil: nil
        }
    }

    /// The most memory a decode of the file will hold at once, by the decoder of its format: see
    /// ``PNGDecoder/decodingPeakBytes(of:maxPixelSize:)`` and
    /// ``JPEGDecoder/decodingPeakBytes(of:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The bytes, or nil if the format is not recognized or the header is broken.
    public func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
        switch Self.format(of: data) {
        case .png: pngDecoder.decodingPeakBytes(of: data, maxPixelSize: maxPixelSize)
        case .jpeg: jpegDecoder.decodingPeakBytes(of: data, maxPixelSize: maxPixelSize)
        case nil: nil
        }
    }

    /// Decodes a PNG or JPEG file straight to at most `maxPixelSize` pixels on its longest side:
    /// see ``PNGDecoder/decode(_:scale:maxPixelSize:)`` and
    /// ``JPEGDecoder/decode(_:scale:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The thumbnail, or the full-size image if it is not larger.
    /// - Throws: ``BitmapDecoderError``, as ``decode(_:scale:)`` does.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws(BitmapDecoderError) -> Bitmap {
        switch Self.format(of: data) {
        case .png:
            do {
                return try pngDecoder.decode(data, scale: scale, maxPixelSize: maxPixelSize)
            } catch {
                throw .png(error)
            }
        case .jpeg:
            do {
                return try jpegDecoder.decode(data, scale: scale, maxPixelSize: maxPixelSize)
            } catch {
                throw .jpeg(error)
            }
        case nil:
            throw .unrecognizedFormat(leadingBytes: Array(data.prefix(8)))
        }
    }
}

extension BitmapDecoder {
    /// Decodes a PNG or JPEG file as ``decode(_:scale:)`` or ``decode(_:scale:maxPixelSize:)``
    /// does, and tells whether it was damaged: a JPEG that ``JPEGDecoder`` recovered (see
    /// ``JPEGDecoder/strict``). A PNG is never reported damaged: ``PNGDecoder`` refuses damage.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, in pixels, at least 1; nil for the full
    ///     size.
    /// - Returns: The bitmap and whether it was recovered from a damaged file.
    /// - Throws: ``BitmapDecoderError``, as ``decode(_:scale:)`` does.
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws(BitmapDecoderError) -> (image: Bitmap, isDamaged: Bool) {
        guard Self.format(of: data) == .jpeg else {
            if let maxPixelSize { return (try decode(data, scale: scale, maxPixelSize: maxPixelSize), false) }
            return (try decode(data, scale: scale), false)
        }
        do {
            return try jpegDecoder.decodeReportingDamage(data, scale: scale, maxPixelSize: maxPixelSize)
        } catch {
            throw .jpeg(error)
        }
    }
}
