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
    /// The file's header: its upright size, read from the markers up to the first scan without
    /// decoding, with what a decode's peak is computed from.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header, or nil if the markers are broken or over the decoder's limits (a
    ///   decode then reports why).
    public func header(of data: Data) -> ImageHeader? {
        data.withUnsafeBytes { bytes -> ImageHeader? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                var file = try? JPEGFileDecoder(
                    bytes: base, count: bytes.count, maximumPixelCount: maximumPixelCount,
                    maximumDimension: maximumDimension)
            else { return nil }
            guard (try? file.run(headerOnly: true)) != nil, let frame = file.frame,
                let firstScanComponentCount = file.firstScanComponentCount
            else { return nil }
            let turned = file.orientation.swapsDimensions
            return ImageHeader(
                width: turned ? frame.height : frame.width, height: turned ? frame.width : frame.height,
                format: .jpeg,
                parsed: .jpeg(
                    JPEGHeaderSummary(
                        frame: frame, orientation: file.orientation, firstScanComponentCount: firstScanComponentCount)))
        }
    }

    /// Decodes a JPEG file straight to at most `maxPixelSize` pixels on its longest side.
    ///
    /// The size follows the thumbnail rule on the upright image (`s = maxPixelSize / max(w, h)`,
    /// `outW = max(1, floor(w·s + 0.5))`, `outH = max(1, floor(h·s + 0.5))`). The file is decoded
    /// at the smallest DCT scale (1/8, 1/4, 1/2) whose output is at least that size, byte for byte
    /// `djpeg -scale 1/N`, then area-averaged in premultiplied alpha.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The upright thumbnail, or the full-size image if `maxPixelSize` is at least its
    ///   longest side.
    /// - Throws: ``JPEGError``, as a full decode does; the limits apply to the file's full size.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws(JPEGError) -> Bitmap {
        try decode(data, options: DecodeOptions(scale: scale, maxPixelSize: maxPixelSize)).image
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
    /// Computed from the header in `options` when it has one, else read from `data`.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options: its maximum pixel size, and the header if read already.
    /// - Returns: The bytes, or nil if the headers up to the first scan are broken or over the
    ///   size limits (a decode then reports why).
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        guard let header = options.header ?? header(of: data), case .jpeg(let summary) = header.parsed else {
            return nil
        }
        let plan = options.maxPixelSize.flatMap { Self.thumbnailPlan((header.width, header.height), maxPixelSize: $0) }
        return JPEGDecodePeak.bytes(
            frame: summary.frame,
            streams: summary.frame.process == .sequential
                && summary.firstScanComponentCount == summary.frame.components.count,
            scaleDenominator: plan?.denominator ?? 1, reorients: summary.orientation != .upright,
            thumbnailBytes: plan.map { $0.target.width * $0.target.height * 4 } ?? 0)
    }
}
