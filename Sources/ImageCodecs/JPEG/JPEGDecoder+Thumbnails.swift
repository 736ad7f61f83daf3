import Foundation

/// Thumbnails of JPEG files: decoded in the DCT domain at the smallest scale (1/8, 1/4, 1/2)
/// that still covers the requested size, then area-averaged the rest of the way.
///
/// A 4032 × 3024 photo thumbnailed to 256 pixels is decoded at 1/8 (504 × 378, 0.7 MiB) and
/// averaged to 256 × 192: the full-size image (46 MiB) never exists. At 1/8 the inverse DCT reads
/// only each block's DC coefficient, so a progressive file's AC scans of the luma are skipped
/// without decoding. Progressive files (and files with one scan per component) keep their
/// coefficients for the whole image until the last scan: 2 bytes a sample, whatever the scale.
extension JPEGDecoder {
    /// The upright pixel size the file declares (width and height swapped for the EXIF
    /// orientations that turn the image), read from its headers without decoding.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The width and height, or nil if the headers are broken or over the decoder's
    ///   limits (a decode then reports why).
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        data.withUnsafeBytes { bytes -> (width: Int, height: Int)? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                var file = try? JPEGFileDecoder(
                    bytes: base, count: bytes.count, maximumPixelCount: maximumPixelCount,
                    maximumDimension: maximumDimension)
            else { return nil }
            guard (try? file.run(headerOnly: true)) != nil, let frame = file.frame else { return nil }
            return file.orientation.swapsDimensions ? (frame.height, frame.width) : (frame.width, frame.height)
        }
    }

    /// Decodes a JPEG file straight to at most `maxPixelSize` pixels on its longest side.
    ///
    /// The size follows the thumbnail rule on the upright image (`s = maxPixelSize / max(w, h)`,
    /// `outW = max(1, floor(w·s + 0.5))`, `outH = max(1, floor(h·s + 0.5))`). The file is decoded
    /// at the smallest DCT scale whose output is at least that size, byte for byte
    /// ``decode(_:scale:scaleDenominator:)``, then area-averaged in premultiplied alpha.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The upright thumbnail, or the full-size image if `maxPixelSize` is at least its
    ///   longest side.
    /// - Throws: ``JPEGError``, as a full decode does; the limits apply to the file's full size.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws(JPEGError) -> Bitmap {
        try decodeReportingDamage(data, scale: scale, maxPixelSize: maxPixelSize).image
    }

    /// Decodes a JPEG file at full size, or straight to at most `maxPixelSize` pixels on its
    /// longest side as ``decode(_:scale:maxPixelSize:)`` does, and tells whether it was damaged.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, in pixels, at least 1; nil for the full
    ///     size.
    /// - Returns: The upright bitmap, and whether the file was damaged and decoded as
    ///   libjpeg-turbo shows it (never when ``strict``).
    /// - Throws: ``JPEGError``, as a full decode does.
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws(JPEGError) -> (image: Bitmap, isDamaged: Bool) {
        guard let maxPixelSize else {
            let (bitmap, report) = try decodeReportingDamage(data, scale: scale)
            return (bitmap, report.isDamaged)
        }
        precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
        guard let size = pixelSize(of: data), let plan = Self.thumbnailPlan(size, maxPixelSize: maxPixelSize) else {
            let (bitmap, report) = try decodeReportingDamage(data, scale: scale)
            return (bitmap, report.isDamaged)
        }
        var failure: JPEGError?
        let decoded: (bitmap: Bitmap, report: JPEGDecodeReport)? = data.withUnsafeBytes { bytes in
            do throws(JPEGError) {
                return try decodeReportingDamage(
                    bytes: bytes, scale: scale, scaleDenominator: plan.denominator,
                    thumbnailBytes: plan.target.width * plan.target.height * 4)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        guard let decoded else { throw .notAJPEG }
        return (decoded.bitmap.averaged(to: plan.target), decoded.report.isDamaged)
    }

    /// The DCT scale a thumbnail is decoded at (the smallest whose output still covers it) and
    /// its size, for an upright `size`; nil when `maxPixelSize` reduces nothing.
    static func thumbnailPlan(
        _ size: (width: Int, height: Int), maxPixelSize: Int
    ) -> (denominator: Int, target: ThumbnailSize)? {
        guard let target = ThumbnailSize(width: size.width, height: size.height, maxPixelSize: maxPixelSize) else {
            return nil
        }
        var denominator = 8
        while denominator > 1,
            ceilDivide(size.width, denominator) < target.width || ceilDivide(size.height, denominator) < target.height
        {
            denominator /= 2
        }
        return (denominator, target)
    }

    /// The most memory a decode of `data` holds at once: output, coefficients and scratch (see
    /// ``maximumDecodingBytes``), computed from the frame and first scan headers without
    /// decoding; a decode whose peak exceeds ``maximumDecodingBytes`` is refused with
    /// ``JPEGError/decodeTooLarge(bytesNeeded:limit:)`` giving this number.
    ///
    /// | file                                      | peak                                        |
    /// |-------------------------------------------|---------------------------------------------|
    /// | sequential, first scan holds every component | output + one MCU row of coefficients + a few rows of samples |
    /// | progressive or one scan per component     | output + 2 bytes a sample of coefficients (6 a pixel for 4:4:4, 3 for 4:2:0) + rows |
    /// | EXIF orientation that turns or flips       | the output once more (a turned copy)        |
    /// | thumbnail                                 | at the DCT scale it is decoded at, plus the thumbnail |
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The bytes, or nil if the headers up to the first scan are broken or over the
    ///   size limits (a decode then reports why).
    public func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
        data.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                var header = try? JPEGFileDecoder(
                    bytes: base, count: bytes.count, maximumPixelCount: maximumPixelCount,
                    maximumDimension: maximumDimension)
            else { return nil }
            guard (try? header.run(headerOnly: true)) != nil, let frame = header.frame else { return nil }
            let upright =
                header.orientation.swapsDimensions ? (frame.height, frame.width) : (frame.width, frame.height)
            let plan = maxPixelSize.flatMap { Self.thumbnailPlan(upright, maxPixelSize: $0) }
            guard let firstScanComponentCount = header.firstScanComponentCount else { return nil }
            return JPEGDecodePeak.bytes(
                frame: frame,
                streams: frame.process == .sequential && firstScanComponentCount == frame.components.count,
                scaleDenominator: plan?.denominator ?? 1, reorients: header.orientation != .upright,
                thumbnailBytes: plan.map { $0.target.width * $0.target.height * 4 } ?? 0)
        }
    }
}
