import Foundation

/// The decoder seam: the header, the image with options, and the decode's peak.
extension WebPDecoder {
    /// The file's header: the canvas size and the frame count, from a walk over its chunks and
    /// the bitstream's first bytes (nothing is decoded).
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header, or nil if the file is not WebP, is broken or exceeds a limit.
    public func header(of data: Data) -> ImageHeader? {
        guard let container = try? container(of: data) else { return nil }
        var header = ImageHeader(
            width: container.width, height: container.height, format: .webp, parsed: .webp(container))
        header.frameCount = container.frameCount
        return header
    }

    /// Decodes the image (an animation's first frame on its canvas), at full size or reduced to
    /// `maxPixelSize` with the area-average downsampler.
    ///
    /// A full-size lossless still is decoded straight into the bitmap's bytes. A thumbnail is
    /// averaged row by row, but a lossless image is decoded whole first — its backward references
    /// reach up to a million pixels back — so its peak is the full image plus the thumbnail; a
    /// lossy one streams its rows (the output, the alpha plane and the lossy decoder's rows).
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale, the size and the header if read already.
    /// - Returns: The image, ``PixelFormat/rgba8``; never damaged.
    /// - Throws: ``WebPError``: the file is not WebP, is broken, or exceeds a limit.
    public func decode(_ data: Data, options: DecodeOptions) throws(WebPError) -> DecodeResult<Bitmap> {
        let container = try container(of: data, header: options.header)
        let thumbnail = options.maxPixelSize.flatMap {
            ThumbnailSize(width: container.width, height: container.height, maxPixelSize: $0)
        }
        try checkPeak(peakBytes(of: container, fileCount: data.count, thumbnail: thumbnail))
        let width = thumbnail?.width ?? container.width
        let height = thumbnail?.height ?? container.height
        let count = width * height * 4
        var failure: WebPError?
        let pixels = data.withUnsafeBytes { bytes in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                // The image has at least one pixel, so the buffer has a base address.
                guard let output = buffer.baseAddress else { return }
                output.initialize(repeating: 0, count: count)
                initialized = count
                do throws(WebPError) {
                    try render(container, from: bytes, into: output, thumbnail: thumbnail)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return DecodeResult(
            image: Bitmap(width: width, height: height, scale: options.scale, format: .rgba8, pixels: pixels))
    }

    /// Draws the still image (or first frame) into `output`, the canvas or its thumbnail.
    private func render(
        _ container: WebPContainer, from bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
        thumbnail: ThumbnailSize?
    ) throws(WebPError) {
        let image = container.image
        let placement = container.animation.map { ($0.frames[0].x, $0.frames[0].y) } ?? (0, 0)
        let coversCanvas = image.width == container.width && image.height == container.height
        if thumbnail == nil && coversCanvas {
            try decodePixels(image, from: bytes, into: output)
            return
        }
        // A lossy image without `ALPH` that fills the canvas is opaque: nothing to premultiply.
        let isOpaque = image.coding == .lossy && image.alpha == nil && coversCanvas
        let averager = thumbnail.map {
            AreaAverager(
                sourceWidth: container.width, sourceHeight: container.height, outputWidth: $0.width,
                outputHeight: $0.height, format: .rgba8, isOpaque: isOpaque, into: output)
        }
        // A frame smaller than the canvas sits on transparent rows (WebPAnimDecoder starts every
        // key frame from a transparent canvas).
        let canvasRow = UnsafeMutablePointer<UInt8>.allocate(capacity: container.width * 4)
        defer { canvasRow.deallocate() }
        canvasRow.initialize(repeating: 0, count: container.width * 4)
        var nextCanvasRow = 0
        func emitCanvasRow(_ row: UnsafePointer<UInt8>) {
            if let averager {
                averager.addRow(row)
            } else {
                (output + nextCanvasRow * container.width * 4).update(from: row, count: container.width * 4)
            }
            nextCanvasRow += 1
        }
        func emitEmptyRows(until end: Int) {
            canvasRow.update(repeating: 0, count: container.width * 4)
            while nextCanvasRow < end { emitCanvasRow(canvasRow) }
        }
        try decodeRows(image, from: bytes) { y, row throws(WebPError) in
            emitEmptyRows(until: placement.1 + y)
            (canvasRow + placement.0 * 4).update(from: row, count: image.width * 4)
            emitCanvasRow(canvasRow)
        }
        emitEmptyRows(until: container.height)
    }

    /// The most memory a decode with `options` holds at once: the output, the full-size image
    /// a thumbnail or a frame is decoded through, the transforms' and meta codes' sub-images,
    /// an alpha plane, and the file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options: its maximum pixel size, and the header if read already.
    /// - Returns: The bytes, or nil if the file is not WebP, is broken or exceeds a limit.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        guard let container = try? container(of: data, header: options.header) else { return nil }
        let thumbnail = options.maxPixelSize.flatMap {
            ThumbnailSize(width: container.width, height: container.height, maxPixelSize: $0)
        }
        return peakBytes(of: container, fileCount: data.count, thumbnail: thumbnail)
    }

    /// The peak of decoding `container`, saturating.
    func peakBytes(of container: WebPContainer, fileCount: Int, thumbnail: ThumbnailSize?) -> Int {
        let output =
            thumbnail.map { DecodingPeak.product($0.width, $0.height, 4) }
            ?? DecodingPeak.product(container.width, container.height, 4)
        let image = container.image
        let imagePixels = DecodingPeak.product(image.width, image.height)
        // Sub-images are at most one value per 4 × 4 block, three of them (predictor,
        // cross-colour, meta codes); the colour cache and a canvas row are small.
        let subImages = DecodingPeak.product(
            VP8LDecoder.subsampled(image.width, bits: 2), VP8LDecoder.subsampled(image.height, bits: 2), 4, 3)
        let working: Int
        switch image.coding {
        case .lossless:
            let throughBuffer = thumbnail != nil || image.width != container.width || image.height != container.height
            working = throughBuffer ? DecodingPeak.product(imagePixels, 4) : 0
        case .lossy:
            // The alpha plane, and a VP8L-coded one's ARGB buffer while it decodes.
            let alpha = image.alpha == nil ? 0 : DecodingPeak.product(imagePixels, 5)
            // The VP8 decoder keeps a few macroblock rows: under 128 bytes a column.
            let scratch = DecodingPeak.product(image.width + 15, 128)
            working = DecodingPeak.sum(alpha, scratch, DecodingPeak.product(image.width, 4))
        }
        return DecodingPeak.sum(output, working, subImages, DecodingPeak.product(container.width, 4), fileCount)
    }
}
