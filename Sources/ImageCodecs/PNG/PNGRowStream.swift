/// Reconstructs the rows of a non-interlaced PNG one at a time while its data is inflated, into
/// a bitmap (a full decode) or one at a time to a consumer (a streaming thumbnail).
///
/// Beyond the file's bytes and the output it holds the streaming inflater's window, chunk and
/// input copy, two unfiltered rows (this one and the one above), one row for filtered data that
/// straddles two inflated chunks, and one converted row; never the whole filtered data. A
/// filtered row that lies within a chunk (most rows) is unfiltered straight from the inflater's
/// buffer while it is in the cache, and the inflated bytes are checked against the stream's
/// Adler-32 a chunk at a time, also from the cache.
///
/// A small image's full decode (at most ``defaultWholeInflationLimit`` filtered bytes, which the
/// cache holds anyway) is inflated whole instead, into the end of the bitmap's own buffer, and its
/// rows are unfiltered from there: that touches no memory beyond the bitmap, where a streaming
/// inflater's buffers would double it.
///
/// Rows whose bytes already are the output bytes (8-bit gray, gray + alpha, RGBA) and 8-bit RGB
/// rows (widened to RGBA on the way) are unfiltered straight into their output row, reading the
/// row above from the output; other rows are unfiltered into the row buffers and converted from
/// there.
///
/// Errors come in the order the stream defines them: a row with an undefined filter type is
/// noted, treated as unfiltered and reported only once the whole stream has been checked, so
/// that a stream that is also broken reports its deflate error.
enum PNGRowStream {
    /// The most filtered bytes a full decode inflates whole, in the bitmap's buffer.
    static let defaultWholeInflationLimit = 256 << 10

    /// Whether a full decode inflates the image whole into the end of its bitmap's buffer: at
    /// most `limit` filtered bytes, and filtered data that fits there (at most one byte a row
    /// more than the pixels: not 16-bit samples).
    static func inflatesWhole(outputCount: Int, filteredCount: Int, header: PNGHeader, limit: Int) -> Bool {
        filteredCount <= limit && filteredCount <= outputCount + header.height
    }

    /// The bytes the bitmap's buffer needs when the image is inflated whole into it: the larger
    /// of the pixels and the filtered data, plus ``Inflater/outputSlack``.
    static func wholeInflationCapacity(outputCount: Int, filteredCount: Int) -> Int {
        max(outputCount, filteredCount) + Inflater.outputSlack
    }

    /// Inflates, unfilters and converts every row into `output`, top to bottom.
    ///
    /// A small image is inflated whole into the end of `output` first (see
    /// ``inflatesWhole(outputCount:filteredCount:header:limit:)``). Each output row then only overwrites filtered bytes already used: an output pixel is written after the
    /// filtered bytes of the same pixel have been read, filtered row `y` never starts before
    /// output row `y`, and output row `y` never ends after filtered row `y + 1` starts.
    ///
    /// - Parameters:
    ///   - contents: A non-interlaced image's chunks; the size limits already checked.
    ///   - expansion: The conversion to the output format.
    ///   - filteredCount: The exact decompressed size: `height * (rowByteCount + 1)`.
    ///   - inflatesWhole: Whether to inflate the image whole into `output` rather than stream it.
    ///   - output: Room for the pixels, or for
    ///     ``wholeInflationCapacity(outputCount:filteredCount:)`` bytes when `inflatesWhole`; the
    ///     first `width * height` pixels in `expansion.format` are written unless an error is
    ///     thrown.
    ///   - checksumLane: The lane ``PNGContents/checkingImageData(_:)`` gives, advanced as the
    ///     data is inflated.
    /// - Throws: ``PNGError/inflate(_:)``, ``PNGError/badFilterType(_:row:)``, or
    ///   ``PNGError/cancelled`` when a store stops the load (polled once per inflated chunk, or
    ///   between deflate blocks of a small image).
    static func reconstructImage(
        of contents: PNGContents, expansion: PixelExpansion, filteredCount: Int, inflatesWhole: Bool,
        into output: UnsafeMutablePointer<UInt8>, checksumLane: inout CRC32Lane
    ) throws(PNGError) {
        let header = contents.header
        let outputRowCount = header.width * expansion.format.bytesPerPixel
        let outputCount = header.height * outputRowCount
        let outputRow = { (y: Int, _: UnsafeMutablePointer<UInt8>?) in output + y * outputRowCount }
        guard !inflatesWhole else {
            let filtered = output + (max(outputCount, filteredCount) - filteredCount)
            var isInflated = false
            try reconstruct(
                header, expansion: expansion,
                nextChunk: { () throws(PNGError) in
                    guard !isInflated else { return nil }
                    isInflated = true
                    try contents.inflateImageData(into: filtered, count: filteredCount, checksumLane: &checksumLane)
                    return UnsafeBufferPointer(start: filtered, count: filteredCount)
                },
                outputRow: outputRow, rowFinished: { _ in })
            return
        }
        var prefaulter = PagePrefaulter(UnsafeMutableBufferPointer(start: output, count: outputCount))
        try reconstructInflating(
            contents, expansion: expansion, filteredCount: filteredCount, checksumLane: &checksumLane,
            outputRow: { y, rowBuffer in
                let row = outputRow(y, rowBuffer)
                prefaulter.prepare(through: row + outputRowCount)
                return row
            },
            rowFinished: { _ in })
    }

    /// Inflates, unfilters and converts every row, top to bottom, handing each to `consumer`.
    ///
    /// - Parameters:
    ///   - contents: A non-interlaced image's chunks; the size limits already checked.
    ///   - expansion: The conversion to the output format.
    ///   - filteredCount: The exact decompressed size: `height * (rowByteCount + 1)`.
    ///   - consumer: Called with each row, `width` pixels in `expansion.format`, valid during
    ///     the call; at most `height` times (fewer if the data turns out to be broken).
    ///   - checksumLane: The lane ``PNGContents/checkingImageData(_:)`` gives, advanced as the
    ///     data is inflated.
    /// - Throws: ``PNGError/inflate(_:)``, ``PNGError/badFilterType(_:row:)``, or
    ///   ``PNGError/cancelled`` when a store stops the load (polled once per inflated chunk).
    static func reconstructRows(
        of contents: PNGContents, expansion: PixelExpansion, filteredCount: Int, checksumLane: inout CRC32Lane,
        consumer: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) {
        let header = contents.header
        let convertedCount = header.width * expansion.format.bytesPerPixel
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: convertedCount)
        defer { converted.deallocate() }
        try reconstructInflating(
            contents, expansion: expansion, filteredCount: filteredCount, checksumLane: &checksumLane,
            outputRow: { _, rowBuffer in rowBuffer ?? converted }, rowFinished: consumer)
    }

    /// ``reconstruct(_:expansion:nextChunk:outputRow:rowFinished:)`` on the image data inflated
    /// chunk by chunk, as both entry points stream it; parameters as theirs.
    @inline(__always)
    private static func reconstructInflating(
        _ contents: PNGContents, expansion: PixelExpansion, filteredCount: Int, checksumLane: inout CRC32Lane,
        outputRow: (_ y: Int, _ rowBuffer: UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>,
        rowFinished: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) {
        var inflater = StreamingInflater(
            pieces: contents.imageData, expectedCount: filteredCount, checksumLane: checksumLane)
        defer { checksumLane = inflater.checksumLane }
        try reconstruct(
            contents.header, expansion: expansion,
            nextChunk: { () throws(PNGError) in try inflater.nextChunk() },
            outputRow: outputRow, rowFinished: rowFinished)
    }

    /// Whether `count` bytes at `first` and `otherCount` bytes at `other` share no byte.
    private static func areDisjoint(
        _ first: UnsafeMutablePointer<UInt8>, _ count: Int, _ other: UnsafePointer<UInt8>, _ otherCount: Int
    ) -> Bool {
        UnsafePointer(first) + count <= other || other + otherCount <= UnsafePointer(first)
    }

    /// The loop both entry points share.
    ///
    /// - Parameters:
    ///   - nextChunk: The next inflated bytes (followed by at least two readable bytes), `nil`
    ///     once the stream is checked to its end.
    ///   - outputRow: Where row `y` goes, given the row buffer it would be unfiltered into where
    ///     the output format needs no conversion (`nil` where it does). A row unfiltered straight
    ///     into the output reads the row above from where `outputRow` put it.
    ///   - rowFinished: Called with each finished row.
    @inline(__always)
    static func reconstruct(
        _ header: PNGHeader, expansion: PixelExpansion,
        nextChunk: () throws(PNGError) -> UnsafeBufferPointer<UInt8>?,
        outputRow: (_ y: Int, _ rowBuffer: UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>,
        rowFinished: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) {
        let rowByteCount = header.rowByteCount(width: header.width)
        let filteredRowCount = rowByteCount + 1
        let widensRGB = expansion.isOpaqueRGB8
        let unfiltersIntoOutput = widensRGB || expansion.isCopy
        // Unfiltering reads a few bytes past the row above and past its own row.
        let rowCapacity = max(rowByteCount, widensRGB ? header.width * 4 : 0) + Inflater.outputSlack
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowCapacity)
        // Row 0's "row above" is the second buffer, all zeros until row 1 is written there.
        rows.initialize(repeating: 0, count: 2 * rowCapacity)
        defer { rows.deallocate() }
        let straddling = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredRowCount + Inflater.outputSlack)
        straddling.initialize(repeating: 0, count: filteredRowCount + Inflater.outputSlack)
        defer { straddling.deallocate() }

        var y = 0
        var straddlingCount = 0
        var above = UnsafePointer(rows + rowCapacity)
        var badFilter: (type: UInt8, row: Int)?
        let cancellation = DecodeCancellation.current.get()
        var stopped = false
        while let chunk = try nextChunk() {
            if let cancellation, cancellation.shouldStop() {
                stopped = true
                break
            }
            // A chunk is never empty, so it has a base address.
            guard let chunkStart = chunk.baseAddress else { continue }
            var offset = 0
            while offset < chunk.count {
                // Near the end of an image inflated whole into its own buffer, the second row's
                // output would overwrite the first row's filtered bytes before they are read;
                // those rows go one at a time.
                if widensRGB, straddlingCount == 0, chunk.count - offset >= 2 * filteredRowCount,
                    Unfilter.pairsRows(filterType: chunkStart[offset]),
                    chunkStart[offset + filteredRowCount] == chunkStart[offset],
                    Self.areDisjoint(
                        outputRow(y + 1, rows + (~y & 1) * rowCapacity), header.width * 4,
                        chunkStart + offset, filteredRowCount)
                {
                    let first = chunkStart + offset
                    let destinations = (
                        outputRow(y, rows + (y & 1) * rowCapacity), outputRow(y + 1, rows + (~y & 1) * rowCapacity)
                    )
                    Unfilter.unfilterRGBRowPairToRGBA(
                        filterType: first[0], rows: (first + 1, first + filteredRowCount + 1), prior: above,
                        into: destinations, pixelCount: header.width)
                    rowFinished(destinations.0)
                    rowFinished(destinations.1)
                    above = UnsafePointer(destinations.1)
                    offset += 2 * filteredRowCount
                    y += 2
                    continue
                }
                let filtered: UnsafePointer<UInt8>
                if straddlingCount == 0, chunk.count - offset >= filteredRowCount {
                    // Followed by more data or the inflater's slack, which unfiltering may read.
                    filtered = chunkStart + offset
                    offset += filteredRowCount
                } else {
                    let taken = min(filteredRowCount - straddlingCount, chunk.count - offset)
                    (straddling + straddlingCount).update(from: chunkStart + offset, count: taken)
                    straddlingCount += taken
                    offset += taken
                    guard straddlingCount == filteredRowCount else { continue }
                    filtered = UnsafePointer(straddling)
                    straddlingCount = 0
                }
                // The inflater hands out at most `filteredCount` bytes, so `y < height`.
                var filterType = filtered[0]
                if filterType >= Unfilter.filterTypeCount {
                    if badFilter == nil { badFilter = (filterType, y) }
                    filterType = 0
                }
                let rowBuffer = rows + (y & 1) * rowCapacity
                let destination = outputRow(y, unfiltersIntoOutput ? rowBuffer : nil)
                if widensRGB {
                    Unfilter.unfilterRGBRowToRGBA(
                        filterType: filterType, row: filtered + 1, prior: above, into: destination,
                        pixelCount: header.width
                    )
                    above = UnsafePointer(destination)
                } else if expansion.isCopy {
                    Unfilter.unfilterRow(
                        filterType: filterType, row: filtered + 1, prior: above, into: destination,
                        count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
                    )
                    above = UnsafePointer(destination)
                } else {
                    Unfilter.unfilterRow(
                        filterType: filterType, row: filtered + 1, prior: above, into: rowBuffer,
                        count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
                    )
                    expansion.expand(rowBuffer, pixelCount: header.width, into: destination)
                    above = UnsafePointer(rowBuffer)
                }
                rowFinished(destination)
                y += 1
            }
        }
        if stopped { throw .cancelled }
        if let badFilter { throw .badFilterType(badFilter.type, row: badFilter.row) }
    }
}

extension StreamingInflater {
    /// ``next()``, its errors as the PNG decoder reports them.
    fileprivate mutating func nextChunk() throws(PNGError) -> UnsafeBufferPointer<UInt8>? {
        do {
            return try next()
        } catch {
            throw .inflate(error)
        }
    }
}
