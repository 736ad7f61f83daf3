import Foundation

/// The decoder seam: one decode with options, one result shape.
extension JPEGDecoder {
    /// Decodes a JPEG file as `options` say: full size, or straight to `maxPixelSize` from the
    /// header already read; damaged files shown as libjpeg-turbo shows them unless
    /// ``strict`` or ``DecodeOptions/Strictness/strict`` says to throw.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale, the size, the header read from `data` already, and the strictness.
    /// - Returns: The upright bitmap, and whether the file was damaged.
    /// - Throws: ``JPEGError``.
    public func decode(_ data: Data, options: DecodeOptions) throws(JPEGError) -> DecodeResult<Bitmap> {
        var decoder = self
        if options.strictness == .strict { decoder.strict = true }
        if let maxPixelSize = options.maxPixelSize {
            precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
            let header = options.header?.format == .jpeg ? options.header : decoder.header(of: data)
            let (image, isDamaged) = try decoder.decodeReportingDamage(
                data, scale: options.scale, maxPixelSize: maxPixelSize, header: header)
            return DecodeResult(image: image, isDamaged: isDamaged)
        }
        let (bitmap, report) = try decoder.decodeReportingDamage(data, scale: options.scale)
        return DecodeResult(image: bitmap, isDamaged: report.isDamaged)
    }
}
