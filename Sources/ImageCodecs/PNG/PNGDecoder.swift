import Foundation

/// A pure-Swift PNG decoder producing ``Bitmap``s.
///
/// Decodes every standard PNG: color types gray, RGB, palette, gray + alpha and RGBA at every bit
/// depth the specification allows, Adam7 interlacing, PLTE and tRNS. Other ancillary chunks are
/// skipped (no gamma or color correction).
///
/// An APNG decodes as its default image, as `UIImage(named:)` shows it; its frames come from
/// ``frameCursor(for:options:)`` (see ``animationInfo(of:)`` for the rules).
///
/// The output format is the smallest 8-bit one that holds the image faithfully:
///
/// | file                                   | ``Bitmap/format``            |
/// |----------------------------------------|------------------------------|
/// | gray without tRNS                      | ``PixelFormat/gray8``        |
/// | gray with a tRNS key, gray + alpha     | ``PixelFormat/grayAlpha8``   |
/// | RGB, palette, RGBA                     | ``PixelFormat/rgba8``        |
///
/// 16-bit samples keep their high byte; 1, 2 and 4-bit gray is scaled to 0...255; tRNS becomes
/// straight alpha (0 where the pixel equals the key color, masked to the bit depth and compared
/// at full precision).
///
/// ## What is lenient and what is strict
///
/// The decoder accepts what libpng 1.6 decodes with its default settings, and decodes it the same
/// way. A malformed **ancillary** chunk is dropped and the image decoded, where libpng warns:
///
/// - an ancillary chunk with a bad CRC;
/// - a tRNS of the wrong length for the color type, longer than the palette, before PLTE in a
///   palette image, after IDAT, in an image with an alpha channel, or after a first valid tRNS
///   (which counts); a tRNS before PLTE in an RGB image is cancelled by the PLTE;
/// - a PLTE in a gray image, or of a bad length (or after IDAT) in an RGB or RGBA image, where it
///   is only a suggestion;
/// - IDAT chunks after the first run of consecutive ones;
/// - compressed image data holding more than the image needs: the image takes what it needs; the
///   rest must still run to the end of the zlib stream (as libpng, which reads on to find it),
///   but its content and the stream's Adler-32, which covers bytes the image does not use, are
///   not checked.
///
/// A palette with more entries than the bit depth can index is cut to that many first, so a tRNS
/// is judged against the entries an index can reach.
///
/// **Critical** chunks stay strict: a bad CRC on IHDR, PLTE, IDAT or IEND; a missing, repeated or
/// misplaced IHDR; a second PLTE in any image, an empty PLTE, a PLTE missing or of a bad length in
/// a palette image; missing IDAT or IEND; an unknown critical chunk; image data too short for the
/// image; invalid deflate data or a bad Adler-32 in a stream that holds exactly the image; and a
/// stream with a surplus that stops before its end. (libpng looks past the image's last byte only
/// as far as the input it happens to read next reaches, so whether it notices these depends on
/// how the IDAT chunks split the stream; this decoder always checks.)
///
/// Hostile input cannot crash the decoder, make it loop or allocate without bound: the size
/// limits are checked from the header before anything is allocated, the image data is
/// decompressed a chunk at a time into fixed buffers (an interlaced image's into a buffer of
/// exactly the size the header implies), and any surplus into a fixed 64 KiB window.
public struct PNGDecoder: ImageDecoding {
    /// The most pixels (`width * height`) an image may have. Defaults to 64 Mi (67 108 864),
    /// which allows 8192 × 8192 and makes at most a 256 MiB RGBA bitmap. Values above
    /// `Int.max / 16` act as `Int.max / 16`, so that no size computation can overflow.
    public var maximumPixelCount: Int
    /// The largest width or height an image may have, in pixels. Defaults to 32 768, twice the
    /// largest texture side common GPUs accept; PNG itself allows up to 2³¹ − 1.
    public var maximumDimension: Int
    /// The most memory one decode may hold at once — the output plus every scratch buffer, as
    /// ``decodingPeakBytes(of:maxPixelSize:)`` computes it from the header — before it is
    /// refused with ``PNGError/decodeTooLarge(bytesNeeded:limit:)``, nothing allocated. Defaults
    /// to 384 MiB: one and a half times the 256 MiB RGBA output the default pixel limit allows,
    /// so every non-interlaced image within that limit decodes, while an 8192 × 8192 Adam7 file of
    /// 16-bit RGBA (768 MiB: its whole filtered data beside the output) does not.
    public var maximumDecodingBytes: Int
    /// The most frames an APNG's `acTL` may declare before ``frameCursor(for:options:)`` and
    /// ``animationInfo(of:)`` refuse it with ``PNGError/tooManyFrames(declared:limit:)``, nothing
    /// allocated for the frames. Defaults to 4096: minutes of animation at browser frame rates,
    /// while a frame's description costs about 100 bytes. A still decode ignores it.
    public var maximumFrameCount = 4096
    /// The most filtered bytes a non-interlaced image may have to be inflated whole into its
    /// bitmap's buffer rather than streamed (see ``PNGRowStream``); tests lower it to stream
    /// small images too.
    var wholeInflationLimit = PNGRowStream.defaultWholeInflationLimit

    /// Creates a decoder with size limits.
    ///
    /// - Parameters:
    ///   - maximumPixelCount: The most pixels an image may have; at least 1. Defaults to 64 Mi.
    ///   - maximumDimension: The largest width or height; at least 1. Defaults to 32 768.
    ///   - maximumDecodingBytes: The most memory one decode may hold at once; at least 1.
    ///     Defaults to 384 MiB.
    public init(
        maximumPixelCount: Int = 67_108_864, maximumDimension: Int = 32_768,
        maximumDecodingBytes: Int = 402_653_184
    ) {
        ImageSizeLimit.requireValid(
            maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
            maximumDecodingBytes: maximumDecodingBytes)
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.maximumDecodingBytes = maximumDecodingBytes
    }

    /// Decodes a PNG file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap (2 for `icon@2x.png`); at least 1.
    /// - Returns: The decoded bitmap, in the format the table above gives.
    /// - Throws: ``PNGError`` describing the first defect found.
    /// - Complexity: O(`data.count + width * height`).
    public func decode(_ data: Data, scale: Int) throws(PNGError) -> Bitmap {
        try decode(data, options: DecodeOptions(scale: scale)).image
    }

    /// A full-size decode, its peak checked for the thumbnail `averagedTo` it will be averaged to
    /// afterwards, if any.
    func decode(bytes: UnsafeRawBufferPointer, scale: Int, averagedTo thumbnail: ThumbnailSize?) throws(PNGError)
        -> Bitmap
    {
        var passes: [PNGPass] = []
        var filteredCount = 0
        let contents = try PNGContents(reading: bytes) { header throws(PNGError) in
            (passes, filteredCount) = try checkLimits(header)
            try checkPeak(peakBytes(of: header, fileCount: bytes.count, thumbnail: thumbnail))
        }
        return try contents.checkingImageData { checksumLane throws(PNGError) in
            try decode(
                contents, passes: passes, filteredCount: filteredCount, scale: scale, checksumLane: &checksumLane)
        }
    }

    /// Decodes the image data of a file whose chunks are read.
    private func decode(
        _ contents: PNGContents, passes: [PNGPass], filteredCount: Int, scale: Int, checksumLane: inout CRC32Lane
    ) throws(PNGError) -> Bitmap {
        let header = contents.header
        // Deflate expands at most 1032:1 (a 258-byte match in 2 bits), so a small file cannot
        // make the decoder allocate a large buffer for data it cannot contain.
        let (possibleCount, overflow) = contents.imageDataCount.multipliedReportingOverflow(by: 1032)
        guard overflow || filteredCount <= possibleCount else {
            throw .insufficientImageData(expectedBytes: filteredCount, compressedBytes: contents.imageDataCount)
        }

        let expansion = PixelExpansion(
            header: header, palette: contents.palette, transparency: contents.transparency
        )
        let outputCount = header.width * header.height * expansion.format.bytesPerPixel
        // A store that no longer needs the image stops the decode here, between inflated chunks
        // or deflate blocks, or after inflating.
        let cancellation = DecodeCancellation.current.get()
        if let cancellation, cancellation.shouldStop() { throw .cancelled }
        var failure: PNGError?
        let inflatesWhole =
            !header.isInterlaced
            && PNGRowStream.inflatesWhole(
                outputCount: outputCount, filteredCount: filteredCount, header: header, limit: wholeInflationLimit)
        let capacity =
            inflatesWhole
            ? PNGRowStream.wholeInflationCapacity(outputCount: outputCount, filteredCount: filteredCount)
            : outputCount
        let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            // Width and height are at least 1, so the buffer is never empty.
            guard let output = buffer.baseAddress else { return }
            do throws(PNGError) {
                if header.isInterlaced {
                    // Adam7 scatters each pass over the whole image, so the passes are inflated
                    // whole first.
                    let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredCount + Inflater.outputSlack)
                    defer { filtered.deallocate() }
                    try contents.inflateImageData(into: filtered, count: filteredCount, checksumLane: &checksumLane)
                    if let cancellation, cancellation.shouldStop() { throw .cancelled }
                    try Self.checkFilterTypes(filtered, passes: passes)
                    PNGInterlacedReconstruction(header: header, passes: passes, expansion: expansion)
                        .reconstruct(filtered, into: output)
                } else {
                    try PNGRowStream.reconstructImage(
                        of: contents, expansion: expansion, filteredCount: filteredCount,
                        inflatesWhole: inflatesWhole, into: output, checksumLane: &checksumLane)
                }
                initializedCount = outputCount
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return Bitmap(
            width: header.width, height: header.height, scale: scale, format: expansion.format, pixels: pixels
        )
    }

    /// Checks the size limits and computes the decompressed size, before anything is allocated.
    func checkLimits(_ header: PNGHeader) throws(PNGError) -> (passes: [PNGPass], filteredCount: Int) {
        // Whatever the configured limit, at most Int.max / 16 pixels: then every size below
        // (at most 8 filtered bytes a pixel plus a filter byte a row, 4 output bytes a pixel,
        // plus slack) fits in Int without overflow checks.
        if let limit = ImageSizeLimit.exceeded(
            width: header.width, height: header.height, maximumDimension: maximumDimension,
            maximumPixelCount: maximumPixelCount, ceiling: Int.max / 16)
        {
            throw .imageTooLarge(width: header.width, height: header.height, limit: limit)
        }
        let passes = PNGPass.passes(of: header)
        return (passes, passes.reduce(0) { $0 + $1.filteredByteCount })
    }

    /// Rejects the data if any row has a filter type other than 0...4, so that reconstruction,
    /// which writes straight into the bitmap (or an APNG frame's buffer), cannot fail halfway.
    static func checkFilterTypes(_ filtered: UnsafePointer<UInt8>, passes: [PNGPass]) throws(PNGError) {
        var rowStart = filtered
        var rowNumber = 0
        for pass in passes {
            for _ in 0..<pass.height {
                guard rowStart.pointee < Unfilter.filterTypeCount else {
                    throw .badFilterType(rowStart.pointee, row: rowNumber)
                }
                rowStart += pass.rowByteCount + 1
                rowNumber += 1
            }
        }
    }
}
