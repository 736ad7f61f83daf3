/// Thumbnails of Adam7-interlaced files, averaged pass by pass while the data is inflated.
extension PNGDecoder {
    /// Decodes an interlaced file to a reduced size: every pass row is added to a
    /// ``PassAreaAverager`` as it is reconstructed, so the pixels are those of a full-size decode
    /// averaged by ``AreaAverager``, without the full-size image or its filtered data.
    ///
    /// - Parameters:
    ///   - bytes: The whole file; its header peeked at and interlaced.
    ///   - scale: The scale to record in the bitmap.
    ///   - size: The reduced size; both sides at most the image's.
    /// - Returns: The reduced bitmap.
    /// - Throws: ``PNGError``, as a full-size decode does.
    func decodeStreamingPasses(bytes: UnsafeRawBufferPointer, scale: Int, size: ThumbnailSize) throws(PNGError)
        -> Bitmap
    {
        var passes: [PNGPass] = []
        var filteredCount = 0
        let contents = try PNGContents(reading: bytes) { header throws(PNGError) in
            (passes, filteredCount) = try checkLimits(header)
            try checkPeak(peakBytes(of: header, fileCount: bytes.count, thumbnail: size))
        }
        return try contents.checkingImageData { checksumLane throws(PNGError) in
            try decodeStreamingPasses(
                contents, passes: passes, filteredCount: filteredCount, scale: scale, size: size,
                checksumLane: &checksumLane)
        }
    }

    /// Decodes the image data of an interlaced file whose chunks are read to a reduced size.
    private func decodeStreamingPasses(
        _ contents: PNGContents, passes: [PNGPass], filteredCount: Int, scale: Int, size: ThumbnailSize,
        checksumLane: inout CRC32Lane
    ) throws(PNGError) -> Bitmap {
        let header = contents.header
        // As in a full decode: deflate expands at most 1032:1.
        let (possibleCount, overflow) = contents.imageDataCount.multipliedReportingOverflow(by: 1032)
        guard overflow || filteredCount <= possibleCount else {
            throw .insufficientImageData(expectedBytes: filteredCount, compressedBytes: contents.imageDataCount)
        }
        let expansion = PixelExpansion(header: header, palette: contents.palette, transparency: contents.transparency)
        let format = expansion.format
        let outputCount = size.width * size.height * format.bytesPerPixel
        if let cancellation = DecodeCancellation.current.get(), cancellation.shouldStop() { throw .cancelled }
        var failure: PNGError?
        let pixels = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initializedCount in
            // The output has at least one pixel, so the buffer has a base address.
            guard let output = buffer.baseAddress else { return }
            let averager = PassAreaAverager(
                sourceWidth: header.width, sourceHeight: header.height, outputWidth: size.width,
                outputHeight: size.height, format: format, isOpaque: expansion.isOpaqueRGB8, into: output)
            do throws(PNGError) {
                try PNGInterlacedRowStream.reconstructRows(
                    of: contents, passes: passes, expansion: expansion, filteredCount: filteredCount,
                    checksumLane: &checksumLane
                ) { row in
                    averager.addPixels(row.pixels, count: row.count, y: row.y, xStart: row.xStart, xStep: row.xStep)
                }
                // A whole, valid stream has delivered every pixel of every pass.
                averager.finish()
                initializedCount = outputCount
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return Bitmap(width: size.width, height: size.height, scale: scale, format: format, pixels: pixels)
    }
}
