import Foundation

/// The decoder seam: the header, one decode with options, and the decode's peak from the header.
extension PNGDecoder {
    /// The file's header, from its IHDR chunk.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header (an APNG's ``ImageHeader/frameCount`` is `acTL`'s `num_frames`), or
    ///   nil if the file does not start with a PNG signature and an IHDR chunk.
    public func header(of data: Data) -> ImageHeader? {
        data.withUnsafeBytes { bytes in
            Self.peekHeader(bytes).map {
                var header = ImageHeader(width: $0.width, height: $0.height, format: .png, parsed: .png($0))
                // An APNG's acTL comes before its image data: cheap to find.
                header.frameCount = APNGStructure.declaredFrameCount(bytes).map { max($0, 1) } ?? 1
                return header
            }
        }
    }

    /// Decodes a PNG file as `options` say: full size, or straight to `maxPixelSize`. A PNG
    /// decode recovers from nothing, so it never reports damage and the strictness changes
    /// nothing.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and the size.
    /// - Returns: The bitmap.
    /// - Throws: ``PNGError``.
    public func decode(_ data: Data, options: DecodeOptions) throws(PNGError) -> DecodeResult<Bitmap> {
        // Typed throws do not cross older SDKs' `withUnsafeBytes`: the error leaves as a value.
        try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(PNGError) -> DecodeResult<Bitmap> in
                guard let maxPixelSize = options.maxPixelSize else {
                    return DecodeResult(image: try decode(bytes: bytes, scale: options.scale, averagedTo: nil))
                }
                return DecodeResult(
                    image: try decodeReduced(bytes: bytes, scale: options.scale, maxPixelSize: maxPixelSize))
            })
        }.typedGet()
    }

    /// The most memory a decode with `options` holds at once: its output and every scratch
    /// buffer (see the table in `PNGDecoder+Peak.swift`'s extension).
    ///
    /// Computed from the header in `options` when it has one, else from the IHDR chunk, and the
    /// file's size (an upper bound of the compressed data the decoder may copy), without
    /// decoding; the decode refuses a file whose peak exceeds ``maximumDecodingBytes`` with
    /// ``PNGError/decodeTooLarge(bytesNeeded:limit:)`` giving this number.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options: its maximum pixel size, and the header if read already.
    /// - Returns: The bytes, or nil if the file does not start with a PNG signature and an IHDR
    ///   chunk.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        guard let header = options.header ?? header(of: data), case .png(let png) = header.parsed else { return nil }
        return peakBytes(of: png, fileCount: data.count, thumbnail: thumbnailSize(png, options.maxPixelSize))
    }
}
