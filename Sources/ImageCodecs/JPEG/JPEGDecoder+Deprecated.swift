import Foundation

/// Entry points that the one decode with options replaced, kept for one release.
extension JPEGDecoder {
    /// Decodes a JPEG file at 1/`scaleDenominator` of its size, in the DCT domain.
    ///
    /// Deprecated: ``decode(_:scale:maxPixelSize:)`` picks the DCT scale for the size wanted.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - scaleDenominator: 1, 2, 4 or 8.
    /// - Returns: The upright bitmap, byte for byte `djpeg -scale 1/N`.
    /// - Throws: ``JPEGError`` describing the first defect found.
    @available(*, deprecated, message: "Use decode(_:scale:maxPixelSize:), which picks the DCT scale")
    public func decode(_ data: Data, scale: Int, scaleDenominator: Int) throws(JPEGError) -> Bitmap {
        try decodeScaled(data, scale: scale, scaleDenominator: scaleDenominator).bitmap
    }

    /// Decodes a JPEG file at 1/`scaleDenominator` of its size and tells whether it was damaged.
    ///
    /// Deprecated: ``decode(_:options:)`` returns a ``DecodeResult`` whose
    /// ``DecodeResult/isDamaged`` says it.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - scaleDenominator: 1, 2, 4 or 8. Defaults to 1.
    /// - Returns: The upright bitmap, and what was recovered from.
    /// - Throws: ``JPEGError`` describing the first defect that cannot be recovered from.
    @available(*, deprecated, message: "Use decode(_:options:), whose DecodeResult says whether the file was damaged")
    public func decodeReportingDamage(
        _ data: Data, scale: Int, scaleDenominator: Int = 1
    ) throws(JPEGError) -> (bitmap: Bitmap, report: JPEGDecodeReport) {
        try decodeScaled(data, scale: scale, scaleDenominator: scaleDenominator)
    }

    /// Decodes a JPEG file at full size or to `maxPixelSize` and tells whether it was damaged.
    ///
    /// Deprecated: ``decode(_:options:)`` returns the same in a ``DecodeResult``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, at least 1; nil for the full size.
    /// - Returns: The upright bitmap, and whether the file was damaged.
    /// - Throws: ``JPEGError``, as a full decode does.
    @available(*, deprecated, message: "Use decode(_:options:), whose DecodeResult says whether the file was damaged")
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws(JPEGError) -> (image: Bitmap, isDamaged: Bool) {
        let result = try decode(data, options: DecodeOptions(scale: scale, maxPixelSize: maxPixelSize))
        return (result.image, result.isDamaged)
    }

    /// Decodes a JPEG file held in memory at 1/`scaleDenominator` of its size.
    ///
    /// Deprecated: pass the bytes as `Data` (`Data(bytesNoCopy:count:deallocator: .none)` does not
    /// copy them) to ``decode(_:options:)``.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - scaleDenominator: 1, 2, 4 or 8. Defaults to 1.
    /// - Returns: The upright bitmap.
    /// - Throws: ``JPEGError`` describing the first defect found.
    @available(*, deprecated, message: "Use decode(_:options:) with Data(bytesNoCopy:count:deallocator:)")
    public func decode(
        bytes: UnsafeRawBufferPointer, scale: Int, scaleDenominator: Int = 1
    ) throws(JPEGError) -> Bitmap {
        try decodeScaled(bytes: bytes, scale: scale, scaleDenominator: scaleDenominator).bitmap
    }

    /// Decodes a JPEG file held in memory and tells whether it was damaged.
    ///
    /// Deprecated: pass the bytes as `Data` to ``decode(_:options:)``.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - scaleDenominator: 1, 2, 4 or 8. Defaults to 1.
    /// - Returns: The upright bitmap and what was recovered from.
    /// - Throws: ``JPEGError`` describing the first defect that cannot be recovered from.
    @available(*, deprecated, message: "Use decode(_:options:) with Data(bytesNoCopy:count:deallocator:)")
    public func decodeReportingDamage(
        bytes: UnsafeRawBufferPointer, scale: Int, scaleDenominator: Int = 1
    ) throws(JPEGError) -> (bitmap: Bitmap, report: JPEGDecodeReport) {
        try decodeScaled(bytes: bytes, scale: scale, scaleDenominator: scaleDenominator)
    }
}
