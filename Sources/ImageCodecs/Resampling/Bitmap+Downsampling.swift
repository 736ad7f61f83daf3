/// Shrinking a decoded bitmap after the fact, for images that cannot be averaged while they
/// decode (Adam7-interlaced PNGs) and for callers that already hold a full-size bitmap.
extension Bitmap {
    /// A copy reduced by exact area averaging so that its longest side is `maxPixelSize`.
    ///
    /// The size follows the thumbnail rule (`s = maxPixelSize / max(w, h)`,
    /// `outW = max(1, floor(w·s + 0.5))`, `outH = max(1, floor(h·s + 0.5))`); colors are
    /// averaged premultiplied by alpha; the format and ``scale`` are kept. Decoding straight to
    /// the reduced size with ``PNGDecoder/decode(_:scale:maxPixelSize:)`` gives the same pixels
    /// without holding the full-size image.
    ///
    /// - Parameter maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The reduced copy, or this bitmap itself if `maxPixelSize` is at least its
    ///   longest side (never enlarged) or it has no pixels.
    /// - Complexity: O(`width * height`).
    public func downsampled(maxPixelSize: Int) -> Bitmap {
        precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
        guard width > 0, height > 0, let size = ThumbnailSize(width: width, height: height, maxPixelSize: maxPixelSize)
        else { return self }
        return averaged(to: size)
    }

    /// A copy reduced to exactly `size` by the same area averaging, for decoders that first
    /// decode at a reduced scale of their own (JPEG's DCT scaling) and average the rest of the
    /// way to the size the thumbnail rule gives for the full image.
    ///
    /// - Returns: The reduced copy, or this bitmap itself if it already has that size, is empty,
    ///   or is smaller than `size` on a side (never enlarged).
    func averaged(to size: ThumbnailSize) -> Bitmap {
        guard width > 0, height > 0, size.width <= width, size.height <= height,
            size.width < width || size.height < height,
            width <= AreaAverager.maximumSourceSide, height <= AreaAverager.maximumSourceSide
        else { return self }
        let bytesPerPixel = format.bytesPerPixel
        let outputCount = size.width * size.height * bytesPerPixel
        let reduced = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initializedCount in
            // The output has at least one pixel, so the buffer has a base address.
            guard let base = buffer.baseAddress else { return }
            let averager = AreaAverager(
                sourceWidth: width, sourceHeight: height, outputWidth: size.width, outputHeight: size.height,
                format: format, into: base
            )
            pixels.withUnsafeBufferPointer { source in
                // `pixels` holds exactly `width * height * bytesPerPixel` bytes (checked at init).
                guard let start = source.baseAddress else { return }
                for y in 0..<height {
                    averager.addRow(start + y * width * bytesPerPixel)
                }
            }
            initializedCount = outputCount
        }
        return Bitmap(width: size.width, height: size.height, scale: scale, format: format, pixels: reduced)
    }
}
