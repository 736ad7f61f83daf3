import Foundation

/// Decoding straight to a reduced size, and reading the size from the header.
extension PNGDecoder {
    /// Decodes a PNG file straight to a reduced size: longest side at most `maxPixelSize`,
    /// aspect ratio kept, never upscaled, by exact area averaging in premultiplied alpha.
    ///
    /// The size is `s = maxPixelSize / max(w, h)`, `outW = max(1, floor(w·s + 0.5))`,
    /// `outH = max(1, floor(h·s + 0.5))`. The format is the one ``decode(_:scale:)`` gives (gray
    /// stays gray) and the bitmap records `scale`, so its point size is the reduced pixel size
    /// divided by the file's scale.
    ///
    /// | file                                 | work and memory beyond the file's bytes          |
    /// |--------------------------------------|--------------------------------------------------|
    /// | `maxPixelSize >= max(w, h)`          | exactly ``decode(_:scale:)``                     |
    /// | non-interlaced                       | streamed: the output, a few rows, the 32 KiB inflate window |
    /// | Adam7-interlaced                     | streamed pass by pass: the output, 64-bit sums (8 bytes an output sample), a few rows, the inflater |
    ///
    /// The size limits apply to the file's own size, not the reduced one: a file declaring
    /// 100 000 × 100 000 pixels is refused even for a 64-pixel thumbnail.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the bitmap; at least 1.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The reduced bitmap.
    /// - Throws: ``PNGError`` describing the first defect found, as ``decode(_:scale:)``.
    /// - Complexity: O(`data.count + width * height`).
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws(PNGError) -> Bitmap {
        try decode(data, options: DecodeOptions(scale: scale, maxPixelSize: maxPixelSize)).image
    }

    /// A file in memory decoded straight to a reduced size, as ``decode(_:scale:maxPixelSize:)``
    /// says.
    func decodeReduced(bytes: UnsafeRawBufferPointer, scale: Int, maxPixelSize: Int) throws(PNGError) -> Bitmap {
        precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
        // A header that cannot be peeked at is a broken file: the full decode reports why (and
        // should it decode, the result is still reduced).
        guard let peeked = Self.peekHeader(bytes) else {
            return try decode(bytes: bytes, scale: scale, averagedTo: nil).downsampled(maxPixelSize: maxPixelSize)
        }
        guard ThumbnailSize(width: peeked.width, height: peeked.height, maxPixelSize: maxPixelSize) != nil else {
            return try decode(bytes: bytes, scale: scale, averagedTo: nil)
        }
        guard peeked.isInterlaced else {
            return try decode(bytes: bytes, scale: scale, maxPixelSizes: [maxPixelSize])[0]
        }
        let thumbnail = thumbnailSize(peeked, maxPixelSize)
        guard let thumbnail, peeked.width <= AreaAverager.maximumSourceSide,
            peeked.height <= AreaAverager.maximumSourceSide,
            streamsPasses(of: peeked, fileCount: bytes.count, thumbnail: thumbnail)
        else {
            // Sums of a thumbnail nearly as large as the image would outweigh its full decode.
            return try decode(bytes: bytes, scale: scale, averagedTo: thumbnail).downsampled(maxPixelSize: maxPixelSize)
        }
        return try decodeStreamingPasses(bytes: bytes, scale: scale, size: thumbnail)
    }

    /// Decodes a file to several reduced sizes at once, inflating and unfiltering it once.
    ///
    /// Each bitmap is what ``decode(_:scale:maxPixelSize:)`` gives for its size.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - scale: The scale to record in the bitmaps; at least 1.
    ///   - maxPixelSizes: The sizes, each at least 1.
    /// - Returns: One bitmap per size, in order.
    /// - Throws: ``PNGError`` describing the first defect found.
    func decode(bytes: UnsafeRawBufferPointer, scale: Int, maxPixelSizes: [Int]) throws(PNGError) -> [Bitmap] {
        precondition(maxPixelSizes.allSatisfy { $0 >= 1 }, "maxPixelSize must be at least 1")
        guard let peeked = Self.peekHeader(bytes), !peeked.isInterlaced else {
            let full = try decode(bytes: bytes, scale: scale, averagedTo: nil)
            return maxPixelSizes.map { full.downsampled(maxPixelSize: $0) }
        }
        var full: Bitmap?
        var bitmaps: [Bitmap?] = Array(repeating: nil, count: maxPixelSizes.count)
        var reduced: [(index: Int, size: ThumbnailSize)] = []
        for (index, maxPixelSize) in maxPixelSizes.enumerated() {
            if let size = ThumbnailSize(width: peeked.width, height: peeked.height, maxPixelSize: maxPixelSize) {
                reduced.append((index, size))
            } else {
                if full == nil { full = try decode(bytes: bytes, scale: scale, averagedTo: nil) }
                bitmaps[index] = full
            }
        }
        if !reduced.isEmpty {
            let images = try decodeStreaming(bytes: bytes, scale: scale, sizes: reduced.map(\.size))
            for (entry, image) in zip(reduced, images) {
                bitmaps[entry.index] = image
            }
        }
        return bitmaps.compactMap { $0 }
    }

    /// Decodes a non-interlaced file to reduced sizes, averaging rows as they are inflated.
    private func decodeStreaming(bytes: UnsafeRawBufferPointer, scale: Int, sizes: [ThumbnailSize]) throws(PNGError)
        -> [Bitmap]
    {
        var filteredCount = 0
        let contents = try PNGContents(reading: bytes) { header throws(PNGError) in
            (_, filteredCount) = try checkLimits(header)
            let peaks = sizes.map { peakBytes(of: header, fileCount: bytes.count, thumbnail: $0) }
            // Several sizes share the rows and the inflater: their outputs and averagers add up.
            try checkPeak(peaks.count == 1 ? peaks[0] : peaks.reduce(0) { DecodingPeak.sum($0, $1) })
        }
        return try contents.checkingImageData { checksumLane throws(PNGError) in
            try decodeStreaming(
                contents, filteredCount: filteredCount, scale: scale, sizes: sizes, checksumLane: &checksumLane)
        }
    }

    /// Decodes the image data of a non-interlaced file whose chunks are read to reduced sizes.
    private func decodeStreaming(
        _ contents: PNGContents, filteredCount: Int, scale: Int, sizes: [ThumbnailSize],
        checksumLane: inout CRC32Lane
    ) throws(PNGError) -> [Bitmap] {
        let header = contents.header
        guard header.width <= AreaAverager.maximumSourceSide, header.height <= AreaAverager.maximumSourceSide else {
            throw .imageTooLarge(
                width: header.width, height: header.height, limit: .dimension(AreaAverager.maximumSourceSide)
            )
        }
        // As in a full decode: deflate expands at most 1032:1.
        let (possibleCount, overflow) = contents.imageDataCount.multipliedReportingOverflow(by: 1032)
        guard overflow || filteredCount <= possibleCount else {
            throw .insufficientImageData(expectedBytes: filteredCount, compressedBytes: contents.imageDataCount)
        }
        let expansion = PixelExpansion(
            header: header, palette: contents.palette, transparency: contents.transparency
        )
        let format = expansion.format
        if sizes.count == 1 {
            // One size: the rows are averaged straight into the bitmap's own array.
            let size = sizes[0]
            let outputCount = size.width * size.height * format.bytesPerPixel
            var failure: PNGError?
            let pixels = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initializedCount in
                // The output has at least one pixel, so the buffer has a base address.
                guard let output = buffer.baseAddress else { return }
                let averager = AreaAverager(
                    sourceWidth: header.width, sourceHeight: header.height, outputWidth: size.width,
                    outputHeight: size.height, format: format, isOpaque: expansion.isOpaqueRGB8, into: output
                )
                do throws(PNGError) {
                    try PNGRowStream.reconstructRows(
                        of: contents, expansion: expansion, filteredCount: filteredCount, checksumLane: &checksumLane
                    ) {
                        averager.addRow($0)
                    }
                    // A whole, valid stream has delivered every row.
                    initializedCount = outputCount
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            return [Bitmap(width: size.width, height: size.height, scale: scale, format: format, pixels: pixels)]
        }
        let outputs = sizes.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.width * $0.height * 4) }
        defer {
            for output in outputs { output.deallocate() }
        }
        let averagers = zip(sizes, outputs).map { size, output in
            AreaAverager(
                sourceWidth: header.width, sourceHeight: header.height, outputWidth: size.width,
                outputHeight: size.height, format: format, isOpaque: expansion.isOpaqueRGB8, into: output
            )
        }
        try PNGRowStream.reconstructRows(
            of: contents, expansion: expansion, filteredCount: filteredCount, checksumLane: &checksumLane
        ) { row in
            for averager in averagers { averager.addRow(row) }
        }
        return zip(sizes, outputs).map { size, output in
            let pixels = Array(
                UnsafeBufferPointer(start: output, count: size.width * size.height * format.bytesPerPixel))
            return Bitmap(width: size.width, height: size.height, scale: scale, format: format, pixels: pixels)
        }
    }

    /// The IHDR of a file that starts with the PNG signature and a well-formed IHDR chunk, after
    /// any ancillary chunks libpng does not know (which it skips there, as a full decode does).
    static func peekHeader(_ bytes: UnsafeRawBufferPointer) -> PNGHeader? {
        guard var reader = try? PNGChunkReader(bytes: bytes) else { return nil }
        while let chunk = try? reader.next() {
            if chunk.type == PNGChunk.ihdr { return try? PNGHeader(parsing: chunk.data) }
            guard !chunk.isCritical, !PNGChunk.knownToLibpng.contains(chunk.type) else { return nil }
        }
        return nil
    }
}
