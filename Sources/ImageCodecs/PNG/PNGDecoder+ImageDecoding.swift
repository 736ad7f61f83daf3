import Foundation

/// The decoder seam: the header, one decode with options, and the decode's peak from the header.
extension PNGDecoder {
    /// The file's header, from its IHDR chunk.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header, or nil if the file does not start with a PNG signature and an IHDR
    ///   chunk.
    public func header(of data: Data) -> ImageHeader? {
        data.withUnsafeBytes { bytes in
            Self.peekHeader(bytes).map {
                ImageHeader(width: $0.width, height: $0.height, format: .png, parsed: .png($0))
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
        guard let maxPixelSize = options.maxPixelSize else {
            return DecodeResult(image: try decode(data, scale: options.scale))
        }
        return DecodeResult(image: try decode(data, scale: options.scale, maxPixelSize: maxPixelSize))
    }

    /// The peak of a decode with `options` (see ``decodingPeakBytes(of:maxPixelSize:)``), from the
    /// header in the options when it has one, else read from `data`.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options: its maximum pixel size, and the header if read already.
    /// - Returns: The bytes, or nil if there is no PNG header.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        guard let header = options.header ?? header(of: data), case .png(let png) = header.parsed else { return nil }
        return peakBytes(of: png, fileCount: data.count, thumbnail: thumbnailSize(png, options.maxPixelSize))
    }
}
