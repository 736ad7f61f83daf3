import Foundation

/// Entry points that the one decode with options replaced, kept for one release.
extension PNGDecoder {
    /// Decodes a PNG file held in memory, as ``decode(_:scale:)`` does, without a `Data`.
    ///
    /// Deprecated: pass the bytes as `Data` (`Data(bytesNoCopy:count:deallocator: .none)` does not
    /// copy them) to ``decode(_:options:)``.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    /// - Returns: The decoded bitmap.
    /// - Throws: ``PNGError`` describing the first defect found.
    @available(*, deprecated, message: "Use decode(_:options:) with Data(bytesNoCopy:count:deallocator:)")
    public func decode(bytes: UnsafeRawBufferPointer, scale: Int) throws(PNGError) -> Bitmap {
        try decode(bytes: bytes, scale: scale, averagedTo: nil)
    }

    /// Decodes a PNG file held in memory straight to a reduced size, as
    /// ``decode(_:scale:maxPixelSize:)`` does, without a `Data`.
    ///
    /// Deprecated: pass the bytes as `Data` to ``decode(_:options:)``.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The reduced bitmap.
    /// - Throws: ``PNGError`` describing the first defect found.
    @available(*, deprecated, message: "Use decode(_:options:) with Data(bytesNoCopy:count:deallocator:)")
    public func decode(bytes: UnsafeRawBufferPointer, scale: Int, maxPixelSize: Int) throws(PNGError) -> Bitmap {
        try decodeReduced(bytes: bytes, scale: scale, maxPixelSize: maxPixelSize)
    }
}
