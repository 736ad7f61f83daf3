/// Reconstructs the rows of a non-interlaced PNG one at a time while its data is inflated, and
/// hands each finished row, converted to the output format, to a consumer.
///
/// Beyond the file's bytes it holds the streaming inflater's window, chunk and input copy, two
/// unfiltered rows (this one and the one above), one row for filtered data that straddles two
/// inflated chunks, and one converted row; never the image. A filtered row that lies within a
/// chunk (most rows) is unfiltered straight from the inflater's buffer; 8-bit RGB is unfiltered
/// and widened to RGBA in one pass, as in a full decode.
///
/// Errors come in the order a full decode reports them: a row with an undefined filter type is
/// noted, treated as unfiltered and reported only once the whole stream has been checked, as the
/// full decode inflates everything before it looks at filter types.
enum PNGRowStream {
    /// Inflates, unfilters and converts every row, top to bottom.
    ///
    /// - Parameters:
    ///   - contents: A non-interlaced image's chunks; the size limits already checked.
    ///   - expansion: The conversion to the output format.
    ///   - filteredCount: The exact decompressed size: `height * (rowByteCount + 1)`.
    ///   - consumer: Called with each row, `width` pixels in `expansion.format`, valid during
    ///     the call; at most `height` times (fewer if the data turns out to be broken).
    /// - Throws: ``PNGError/inflate(_:)``, ``PNGError/badFilterType(_:row:)``, or
    ///   ``PNGError/cancelled`` when a store stops the load (polled once per inflated chunk).
    static func reconstructRows(
        of contents: PNGContents, expansion: PixelExpansion, filteredCount: Int,
        consumer: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) {
        let header = contents.header
        let rowByteCount = header.rowByteCount(width: header.width)
        let filteredRowCount = rowByteCount + 1
        let widensRGB = expansion.isOpaqueRGB8
        // Unfiltering reads a few bytes past the row above and past its own row.
        let rowCapacity = max(rowByteCount, widensRGB ? header.width * 4 : 0) + Inflater.outputSlack
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowCapacity)
        rows.initialize(repeating: 0, count: 2 * rowCapacity)
        defer { rows.deallocate() }
        let straddling = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredRowCount + Inflater.outputSlack)
        straddling.initialize(repeating: 0, count: filteredRowCount + Inflater.outputSlack)
        defer { straddling.deallocate() }
        let convertedCount = expansion.isCopy || widensRGB ? 0 : header.width * expansion.format.bytesPerPixel
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, convertedCount))
        defer { converted.deallocate() }

        var inflater = StreamingInflater(pieces: contents.imageData, expectedCount: filteredCount)
        var y = 0
        var straddlingCount = 0
        var badFilter: (type: UInt8, row: Int)?
        let cancellation = DecodeCancellation.current.get()
        var stopped = false
        do {
            while let chunk = try inflater.next() {
                if let cancellation, cancellation.shouldStop() {
                    stopped = true
                    break
                }
                // A chunk is never empty, so it has a base address.
                guard let chunkStart = chunk.baseAddress else { continue }
                var offset = 0
                while offset < chunk.count {
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
                    let current = rows + (y & 1) * rowCapacity
                    // Row 0's "row above" is the other buffer, still all zeros.
                    let above = UnsafePointer(rows + ((y + 1) & 1) * rowCapacity)
                    if widensRGB {
                        Unfilter.unfilterRGBRowToRGBA(
                            filterType: filterType, row: filtered + 1, prior: above, into: current,
                            pixelCount: header.width
                        )
                        consumer(current)
                    } else {
                        Unfilter.unfilterRow(
                            filterType: filterType, row: filtered + 1, prior: above, into: current,
                            count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
                        )
                        if expansion.isCopy {
                            consumer(current)
                        } else {
                            expansion.expand(current, pixelCount: header.width, into: converted)
                            consumer(converted)
                        }
                    }
                    y += 1
                }
            }
        } catch {
            throw .inflate(error)
        }
        if stopped { throw .cancelled }
        if let badFilter { throw .badFilterType(badFilter.type, row: badFilter.row) }
    }
}
