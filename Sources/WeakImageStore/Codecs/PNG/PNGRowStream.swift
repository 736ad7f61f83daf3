/// Reconstructs the rows of a non-interlaced PNG one at a time while its data is inflated, and
/// hands each finished row, converted to the output format, to a consumer.
///
/// Beyond the file's bytes it holds the streaming inflater's window, chunk and input copy, two
/// filtered rows (this one and the one above, unfiltered in place) and one converted row; never
/// the image.
///
/// Errors come in the order a full decode reports them: a row with an undefined filter type is
/// noted, treated as unfiltered and reported only once the whole stream has been checked, as the
/// full decode inflates everything before it looks at filter types.
enum PNGRowStream {
    /// The bytes ``reconstructRows(of:expansion:filteredCount:consumer:)`` allocates.
    ///
    /// - Parameters:
    ///   - header: The image's header.
    ///   - expansion: The conversion to the output format.
    /// - Returns: The scratch bytes besides the file and the consumer's own memory.
    static func scratchByteCount(header: PNGHeader, expansion: PixelExpansion) -> Int {
        let rowCapacity = header.rowByteCount(width: header.width) + 1 + Inflater.outputSlack
        let convertedCount = expansion.isCopy ? 0 : header.width * expansion.format.bytesPerPixel
        return StreamingInflater.scratchByteCount + 2 * rowCapacity + convertedCount
    }

    /// Inflates, unfilters and converts every row, top to bottom.
    ///
    /// - Parameters:
    ///   - contents: A non-interlaced image's chunks; the size limits already checked.
    ///   - expansion: The conversion to the output format.
    ///   - filteredCount: The exact decompressed size: `height * (rowByteCount + 1)`.
    ///   - consumer: Called with each row, `width` pixels in `expansion.format`, valid during
    ///     the call; at most `height` times (fewer if the data turns out to be broken).
    /// - Throws: ``PNGError/inflate(_:)`` or ``PNGError/badFilterType(_:row:)``.
    static func reconstructRows(
        of contents: PNGContents, expansion: PixelExpansion, filteredCount: Int,
        consumer: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) {
        let header = contents.header
        let rowByteCount = header.rowByteCount(width: header.width)
        let filteredRowCount = rowByteCount + 1
        // Unfiltering reads a few bytes past the row above and past its own row.
        let rowCapacity = filteredRowCount + Inflater.outputSlack
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowCapacity)
        rows.initialize(repeating: 0, count: 2 * rowCapacity)
        defer { rows.deallocate() }
        let convertedCount = expansion.isCopy ? 0 : header.width * expansion.format.bytesPerPixel
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, convertedCount))
        defer { converted.deallocate() }

        var inflater = StreamingInflater(pieces: contents.imageData, expectedCount: filteredCount)
        var y = 0
        var filled = 0
        var badFilter: (type: UInt8, row: Int)?
        do {
            while let chunk = try inflater.next() {
                // A chunk is never empty, so it has a base address.
                guard let chunkStart = chunk.baseAddress else { continue }
                var offset = 0
                while offset < chunk.count {
                    let current = rows + (y & 1) * rowCapacity
                    let taken = min(filteredRowCount - filled, chunk.count - offset)
                    (current + filled).update(from: chunkStart + offset, count: taken)
                    filled += taken
                    offset += taken
                    guard filled == filteredRowCount else { continue }
                    // The inflater hands out at most `filteredCount` bytes, so `y < height`.
                    var filterType = current[0]
                    if filterType >= Unfilter.filterTypeCount {
                        if badFilter == nil { badFilter = (filterType, y) }
                        filterType = 0
                    }
                    // Row 0's "row above" is the other buffer, still all zeros.
                    let above = rows + ((y + 1) & 1) * rowCapacity + 1
                    Unfilter.unfilterRow(
                        filterType: filterType, row: current + 1, prior: above, into: current + 1,
                        count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
                    )
                    if expansion.isCopy {
                        consumer(current + 1)
                    } else {
                        expansion.expand(current + 1, pixelCount: header.width, into: converted)
                        consumer(converted)
                    }
                    y += 1
                    filled = 0
                }
            }
        } catch {
            throw .inflate(error)
        }
        if let badFilter { throw .badFilterType(badFilter.type, row: badFilter.row) }
    }
}
