import Foundation

/// Decoding straight to a reduced size, and reading the size from the header.
extension PNGDecoder {
    /// The size the file's IHDR chunk declares, read without decoding anything else.
    ///
    /// Only the signature and the header are looked at (not even their CRC): a file whose size
    /// is read here can still fail to decode.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The width and height in pixels, or `nil` if the file does not start with a
    ///   PNG signature and a valid IHDR chunk.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        data.withUnsafeBytes { bytes in
            guard let header = Self.peekHeader(bytes) else { return nil }
            return (header.width, header.height)
        }
    }

    /// Decodes a PNG file straight to a reduced size: longest side at most `maxPixelSize`,
    /// aspect ratio kept, never upscaled, by exact area averaging in premultiplied alpha.
    ///
    /// The size is `s = maxPixelSize / max(w, h)`, `outW = max(1, floor(w·s + 0.5))`,
    /// `outH = max(1, floor(h·s + 0.5))`. The format is the one ``decode(_:scale:)`` gives (gray
    /// stays gray) and the bitmap records `scale`, so its point size is the reduced pixel size
    /// divided by the file's scale.
    ///
    /// | file                                 | work and memory beyond the file's bytes          |
    /// |--------------------------------------|--------------------------------------------------|
    /// | `maxPixelSize >= max(w, h)`          | exactly ``decode(_:scale:)``                     |
    /// | non-interlaced                       | streamed: the output, a few rows, the 32 KiB inflate window |
    /// | Adam7-interlaced                     | a full-size decode, then averaged and released   |
    ///
    /// The size limits apply to the file's own size, not the reduced one: a file declaring
    /// 100 000 × 100 000 pixels is refused even for a 64-pixel thumbnail.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The reduced bitmap.
    /// - Throws: ``PNGError`` describing the first defect found, as ``decode(_:scale:)``.
    /// - Complexity: O(`data.count + width * height`).
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws(PNGError) -> Bitmap {
        let result: Result<Bitmap, PNGError> = data.withUnsafeBytes { bytes in
            do throws(PNGError) {
                return .success(try decode(bytes: bytes, scale: scale, maxPixelSize: maxPixelSize))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes a PNG file held in memory straight to a reduced size, as
    /// ``decode(_:scale:maxPixelSize:)`` does, without a `Data`.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The reduced bitmap.
    /// - Throws: ``PNGError`` describing the first defect found.
    public func decode(bytes: UnsafeRawBufferPointer, scale: Int, maxPixelSize: Int) throws(PNGError) -> Bitmap {
        precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
        // A header that cannot be peeked at is a broken file: the full decode reports why.
        guard let peeked = Self.peekHeader(bytes),
            ThumbnailSize(width: peeked.width, height: peeked.height, maxPixelSize: maxPixelSize) != nil
        else { return try decode(bytes: bytes, scale: scale) }
        if peeked.isInterlaced {
            // Adam7 scatters every row over the whole image: decode full size, then average.
            return try decode(bytes: bytes, scale: scale).downsampled(maxPixelSize: maxPixelSize)
        }
        return try decode(bytes: bytes, scale: scale).downsampled(maxPixelSize: maxPixelSize)
    }

    /// The IHDR of a file that starts with the PNG signature and a well-formed IHDR chunk.
    static func peekHeader(_ bytes: UnsafeRawBufferPointer) -> PNGHeader? {
        let signature = PNGChunkReader.signature
        // Signature (8), IHDR length (4) and type (4), its 13 bytes.
        guard bytes.count >= 33, bytes.prefix(8).elementsEqual(signature) else { return nil }
        let ihdr: [UInt8] = [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        guard bytes[8..<16].elementsEqual(ihdr) else { return nil }
        return try? PNGHeader(parsing: UnsafeRawBufferPointer(rebasing: bytes[16..<29]))
    }
}
