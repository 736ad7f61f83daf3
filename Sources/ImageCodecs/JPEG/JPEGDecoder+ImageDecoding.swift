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
    /// - Returns: The upright bitmap, and whether the file was damaged: its
    ///   ``DecodeResult/damage`` is the first defect recovered from.
    /// - Throws: ``JPEGError``.
    public func decode(_ data: Data, options: DecodeOptions) throws(JPEGError) -> DecodeResult<Bitmap> {
        var decoder = self
        if options.strictness == .strict { decoder.strict = true }
        var plan: (denominator: Int, target: ThumbnailSize)?
        if let maxPixelSize = options.maxPixelSize {
            precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
            // Without a header the full-size decode says why the file is broken (or, should it
            // decode, gives the full size).
            let header = options.header?.format == .jpeg ? options.header : decoder.header(of: data)
            plan = header.flatMap { Self.thumbnailPlan(($0.width, $0.height), maxPixelSize: maxPixelSize) }
        }
        let decoded = try decoder.decodeScaled(
            data, scale: options.scale, scaleDenominator: plan?.denominator ?? 1,
            thumbnailBytes: plan.map { $0.target.width * $0.target.height * 4 } ?? 0)
        let image = plan.map { decoded.bitmap.averaged(to: $0.target) } ?? decoded.bitmap
        guard let defect = decoded.report.defect else { return DecodeResult(image: image) }
        return DecodeResult(image: image, damage: defect)
    }
}
