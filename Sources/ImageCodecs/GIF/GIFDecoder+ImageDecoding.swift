import Foundation

/// The decoder seam: the header, the first frame with options, and the decode's peak.
extension GIFDecoder {
    /// The file's header: the canvas size and the frame count, from a walk over its blocks
    /// (no LZW data is decoded).
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header, or nil if the file is not a GIF, has no frame or exceeds a limit.
    public func header(of data: Data) -> ImageHeader? {
        guard let container = try? container(of: data) else { return nil }
        var header = ImageHeader(
            width: container.canvasWidth, height: container.canvasHeight, format: .gif, parsed: .gif(container))
        header.frameCount = container.frames.count
        return header
    }

    /// Decodes the first frame composited on the canvas, what an image view shows, at full size
    /// or reduced to `maxPixelSize`.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale, the size, the header if read already, and the strictness.
    /// - Returns: The canvas after the first frame, RGBA8, and the damage recovered from if any.
    /// - Throws: ``GIFError``: the file is not a GIF, has no frame or exceeds a limit, or, under
    ///   ``DecodeOptions/Strictness/strict``, the first frame is damaged.
    public func decode(_ data: Data, options: DecodeOptions) throws(GIFError) -> DecodeResult<Bitmap> {
        let container = try container(of: data, header: options.header)
        try checkPeak(peakBytes(of: container, fileCount: data.count, maxPixelSize: options.maxPixelSize))
        let reader = GIFFrameReader(data: data, container: container, strictness: options.strictness)
        var canvas = AnimationCanvas(width: container.canvasWidth, height: container.canvasHeight)
        canvas.prepare(for: container.frames[0].animationFrame)
        let damage = reader.compose(0, onto: &canvas)
        let image = canvas.bitmap(scale: options.scale, maxPixelSize: options.maxPixelSize)
        guard let damage else { return DecodeResult(image: image) }
        if options.strictness == .strict { throw damage }
        return DecodeResult(image: image, damage: damage)
    }

    /// The most memory a decode with `options` holds at once: the canvas, the rectangle a frame
    /// disposed to "previous" saves, the largest frame's palette indices and its LZW data, one
    /// row, and the reduced frame.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options: its maximum pixel size, and the header if read already.
    /// - Returns: The bytes, or nil if the file is not a GIF, has no frame or exceeds a limit.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        guard let container = try? container(of: data, header: options.header) else { return nil }
        return peakBytes(of: container, fileCount: data.count, maxPixelSize: options.maxPixelSize)
    }

    /// The peak of decoding any frame of `container`, saturating.
    func peakBytes(of container: GIFContainer, fileCount: Int, maxPixelSize: Int?) -> Int {
        let canvas = DecodingPeak.product(container.canvasWidth, container.canvasHeight, 4)
        let largestFrame = container.frames.reduce(0) { max($0, $1.pixelCount) }
        let widestFrame = container.frames.reduce(0) { max($0, $1.width) }
        let thumbnail =
            maxPixelSize.flatMap {
                ThumbnailSize(width: container.canvasWidth, height: container.canvasHeight, maxPixelSize: $0)
            }.map { DecodingPeak.product($0.width, $0.height, 4) } ?? 0
        // The canvas twice: the one a caller holds and the copy the next frame draws on.
        return DecodingPeak.sum(
            canvas, canvas, canvas, largestFrame, DecodingPeak.product(widestFrame, 4), fileCount, thumbnail)
    }

    func checkPeak(_ bytesNeeded: Int) throws(GIFError) {
        guard bytesNeeded <= maximumDecodingBytes else {
            throw .decodeTooLarge(bytesNeeded: bytesNeeded, limit: maximumDecodingBytes)
        }
    }
}
