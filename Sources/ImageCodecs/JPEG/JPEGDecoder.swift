import Foundation

/// A pure-Swift JPEG decoder producing ``Bitmap``s, byte for byte what libjpeg-turbo 2.1.5's
/// `djpeg` produces in its default mode (accurate integer IDCT, fancy upsampling).
///
/// Supported: baseline and extended sequential Huffman coding (8-bit samples, 8- and 16-bit
/// quantization tables), progressive coding (spectral selection and successive approximation),
/// interleaved and non-interleaved scans, restart intervals, every integral sampling factor
/// 1–4, grayscale, YCbCr, RGB, CMYK and YCCK (Adobe APP14), the standard Huffman tables when a
/// sequential file defines none (Motion-JPEG), and the EXIF orientation, which is applied so
/// the bitmap is upright. Arithmetic coding, 12-bit samples, lossless and hierarchical files
/// throw ``JPEGError/unsupportedProcess(_:)``.
///
/// | file                        | ``Bitmap/format``        |
/// |-----------------------------|--------------------------|
/// | one component (grayscale)   | ``PixelFormat/gray8``    |
/// | YCbCr, RGB, CMYK, YCCK      | ``PixelFormat/rgba8``    |
///
/// ``decode(_:scale:maxPixelSize:)`` decodes at 1/2, 1/4 or 1/8 in the DCT domain, with
/// libjpeg-turbo's reduced transforms, which is several times cheaper than decoding at full size
/// and shrinking.
///
/// Damaged files: by default the decoder recovers from damaged scan data as libjpeg-turbo does
/// and returns the same pixels `djpeg` writes with a warning; ``strict`` makes it throw instead.
///
/// | defect                                    | default                           | ``strict``                |
/// |-------------------------------------------|-----------------------------------|---------------------------|
/// | sequential scan data cut short            | djpeg's pixels (zero bits, gray)  | `truncated`               |
/// | a wrong or missing restart marker         | djpeg's pixels (libjpeg's resync) | `missingRestartMarker`    |
/// | bits that are no Huffman code             | djpeg's pixels (symbol 0)         | `corruptScanData`         |
/// | a progressive file cut short              | djpeg's pixels (block-smoothed)   | `truncated`               |
/// | a segment cut short after scan data       | djpeg's pixels (the end as EOI)   | `truncated`               |
/// | bytes outside any segment                 | djpeg's pixels (skipped)          | `extraneousBytes`         |
/// | a progressive scan out of sequence        | djpeg's pixels                    | `badScan`                 |
///
/// Fill bytes before a stuffed zero (`FF FF 00`) in sequential scan data, which libjpeg-turbo
/// reads without a warning but differently in its fast and slow Huffman decoders, give djpeg's
/// pixels in both modes.
///
/// Progressive images whose first coefficients are not all final (a file cut short, or a valid
/// file whose scans stop early: DC only, AC never refined) are block-smoothed in both modes as
/// libjpeg-turbo 2.1.5 does by default (`jdcoefct.c`): the first nine AC coefficients, and for a
/// DC-only component the DC, are estimated from the DC values of the 5×5 blocks around each block.
///
/// ``decode(_:options:)`` tells the caller whether it recovered (``DecodeResult/isDamaged``).
/// Other defects in the headers and tables throw in both modes. Damage that leaves the data
/// valid (a flipped bit that still spells codes) cannot be seen: it decodes, unreported, in both
/// modes.
///
/// Hostile input cannot crash the decoder, make it loop or allocate without bound: the size
/// limits are checked from the frame header before anything is allocated, and a file whose
/// scan data is too short to hold the frame's blocks (less than one bit per 8×8 block) is
/// refused before anything large is allocated; in the default mode only above 1 Mi pixels
/// (4 MiB of RGBA), so that a small damaged image still decodes.
///
/// Memory: a sequential file whose first scan holds every component (nearly every photo) is
/// decoded and converted one MCU row at a time: besides the output, one MCU row of coefficients
/// and at most three MCU rows of samples. Progressive and multi-scan files keep the coefficients
/// of the whole image until the last scan (2 bytes per sample: 3 bytes per pixel for 4:2:0, 6 for
/// 4:4:4) and then the samples at the output scale (1.5 bytes per output pixel for 4:2:0).
public struct JPEGDecoder: ImageDecoding {
    /// The most pixels (`width * height`) an image may have. Defaults to 64 Mi (67 108 864).
    public var maximumPixelCount: Int
    /// The largest width or height an image may have, in pixels. Defaults to 32 768.
    public var maximumDimension: Int
    /// Whether to throw at the first defect in the scan data instead of decoding the file as
    /// libjpeg-turbo does with a warning. Defaults to `false`.
    public var strict: Bool
    /// The most memory one decode may hold at once — output, coefficients and scratch, as
    /// ``decodingPeakBytes(of:maxPixelSize:)`` computes them from the frame and first scan
    /// headers — before it is refused with ``JPEGError/decodeTooLarge(bytesNeeded:limit:)``,
    /// before the coefficients or the output are allocated. Defaults to 384 MiB: one and a half
    /// times the 256 MiB RGBA output the default pixel limit allows, so every sequential photo
    /// within that limit decodes, and a progressive 4:2:0 one up to about 57 megapixels, while a
    /// 400 KiB progressive 4:4:4 file of 8192 × 8192 (640 MiB: 384 MiB of coefficients beside
    /// the output) does not.
    public var maximumDecodingBytes: Int

    /// Creates a decoder with size limits.
    ///
    /// - Parameters:
    ///   - maximumPixelCount: The most pixels an image may have; at least 1. Defaults to 64 Mi.
    ///   - maximumDimension: The largest width or height; at least 1. Defaults to 32 768.
    ///   - strict: Throw at the first defect instead of recovering as libjpeg-turbo does.
    ///     Defaults to `false`.
    ///   - maximumDecodingBytes: The most memory one decode may hold at once; at least 1.
    ///     Defaults to 384 MiB.
    public init(
        maximumPixelCount: Int = 67_108_864, maximumDimension: Int = 32_768, strict: Bool = false,
        maximumDecodingBytes: Int = 402_653_184
    ) {
        ImageSizeLimit.requireValid(
            maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
            maximumDecodingBytes: maximumDecodingBytes)
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.strict = strict
        self.maximumDecodingBytes = maximumDecodingBytes
    }

    /// Decodes a JPEG file at full size.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap (2 for `photo@2x.jpg`); at least 1.
    /// - Returns: The upright bitmap.
    /// - Throws: ``JPEGError`` describing the first defect found.
    /// - Complexity: O(`data.count + width * height`).
    public func decode(_ data: Data, scale: Int) throws(JPEGError) -> Bitmap {
        try decode(data, options: DecodeOptions(scale: scale)).image
    }

    /// Decodes a JPEG file at 1/`scaleDenominator` of its size in the DCT domain, byte for byte
    /// `djpeg -scale 1/N` (`ceil(width / N) × ceil(height / N)` before the Exif orientation is
    /// applied), and reports what it recovered from.
    package func decodeScaled(
        _ data: Data, scale: Int, scaleDenominator: Int, thumbnailBytes: Int = 0
    ) throws(JPEGError) -> (bitmap: Bitmap, report: JPEGDecodeReport) {
        // Typed throws do not cross older SDKs' `withUnsafeBytes`: the error leaves as a value.
        try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(JPEGError) -> (bitmap: Bitmap, report: JPEGDecodeReport) in
                try decodeScaled(
                    bytes: bytes, scale: scale, scaleDenominator: scaleDenominator, thumbnailBytes: thumbnailBytes)
            })
        }.typedGet()
    }

    /// ``decodeScaled(_:scale:scaleDenominator:thumbnailBytes:)`` on bytes in memory, its peak
    /// counting a thumbnail of `thumbnailBytes` averaged from the result afterwards.
    func decodeScaled(
        bytes: UnsafeRawBufferPointer, scale: Int, scaleDenominator: Int, thumbnailBytes: Int = 0
    ) throws(JPEGError) -> (bitmap: Bitmap, report: JPEGDecodeReport) {
        precondition([1, 2, 4, 8].contains(scaleDenominator), "scaleDenominator must be 1, 2, 4 or 8")
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .notAJPEG }
        var file = try JPEGFileDecoder(
            bytes: base, count: bytes.count, maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
            scaleDenominator: scaleDenominator, recovers: !strict, maximumDecodingBytes: maximumDecodingBytes,
            thumbnailBytes: thumbnailBytes
        )
        try file.run()
        try file.checkPeakBeforeReorienting()
        guard let frame = file.frame else { throw .incompleteImage }
        let format: PixelFormat = file.colorSpace == .gray ? .gray8 : .rgba8
        let pixels = try JPEGOutputRows.pixels(of: file)
        let outputWidth = ceilDivide(frame.width, scaleDenominator)
        let outputHeight = ceilDivide(frame.height, scaleDenominator)
        let upright = file.orientation.apply(
            pixels, width: outputWidth, height: outputHeight, bytesPerPixel: format.bytesPerPixel
        )
        let bitmap = Bitmap(
            width: upright.width, height: upright.height, scale: scale, format: format, pixels: upright.pixels)
        return (bitmap, JPEGDecodeReport(defect: file.defect))
    }
}
