/// Reconstructs the rows of an Adam7-interlaced PNG pass by pass while its data is inflated,
/// handing each pass row to a consumer with its place in the image, so a thumbnail of an
/// interlaced file is averaged as its data arrives (see ``PassAreaAverager``) instead of from a
/// full-size decode.
///
/// Beyond the file's bytes it holds the streaming inflater's buffers, the filtered bytes of one
/// pass row, two unfiltered pass rows (this one and the one above), a zero row for each pass's
/// first row and one converted row: a few rows, never the filtered data or the image.
///
/// Errors come in the order a full decode reports them: the stream is checked to its end first,
/// then a row with an undefined filter type (treated as unfiltered meanwhile) is reported.
enum PNGInterlacedRowStream {
    /// One reconstructed pass row: `count` pixels of image row `y`, at columns `xStart`,
    /// `xStart + xStep`, …, valid during the consumer's call.
    struct PassRow {
        let pixels: UnsafePointer<UInt8>
        let count: Int
        let y: Int
        let xStart: Int
        let xStep: Int
    }

    /// The row buffers' bytes, for peak memory estimates: for the widest pass row of
    /// `widestRowByteCount` filtered bytes, its filtered copy, two unfiltered rows and the zero
    /// row (each with the unfilter slack), and a converted row of `width` pixels.
    static func scratchBytes(widestRowByteCount: Int, width: Int, bytesPerPixel: Int) -> Int {
        4 * (widestRowByteCount + Inflater.outputSlack) + 1 + width * bytesPerPixel
    }

    /// Inflates, unfilters and converts every pass row, pass after pass, handing each to
    /// `consumer`.
    ///
    /// - Parameters:
    ///   - contents: An interlaced image's chunks; the size limits already checked.
    ///   - passes: The image's non-empty Adam7 passes.
    ///   - expansion: The conversion to the output format.
    ///   - filteredCount: The exact decompressed size of all passes.
    ///   - checksumLane: The lane ``PNGContents/checkingImageData(_:)`` gives, advanced as the
    ///     data is inflated.
    ///   - consumer: Called with each pass row; fewer times if the data turns out to be broken.
    /// - Throws: ``PNGError/inflate(_:)``, ``PNGError/badFilterType(_:row:)`` (rows counted over
    ///   all passes from 0), or ``PNGError/cancelled`` when a store stops the load (polled once
    ///   per inflated chunk).
    static func reconstructRows(
        of contents: PNGContents, passes: [PNGPass], expansion: PixelExpansion, filteredCount: Int,
        checksumLane: inout CRC32Lane, consumer: (PassRow) -> Void
    ) throws(PNGError) {
        let header = contents.header
        let widestRow = passes.map(\.rowByteCount).max() ?? 0
        // Unfiltering reads a few bytes past the row above and past its own row (see Unfilter).
        let rowCapacity = widestRow + Inflater.outputSlack
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * rowCapacity)
        rows.initialize(repeating: 0, count: 3 * rowCapacity)
        defer { rows.deallocate() }
        let zeroRow = UnsafePointer(rows + 2 * rowCapacity)
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity + 1)
        filtered.initialize(repeating: 0, count: rowCapacity + 1)
        defer { filtered.deallocate() }
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: header.width * expansion.format.bytesPerPixel)
        defer { converted.deallocate() }

        var inflater = StreamingInflater(
            pieces: contents.imageData, expectedCount: filteredCount, checksumLane: checksumLane)
        defer { checksumLane = inflater.checksumLane }
        var passIndex = 0
        var passY = 0
        var rowNumber = 0
        var filledCount = 0
        var prior = zeroRow
        var badFilter: (type: UInt8, row: Int)?
        let cancellation = DecodeCancellation.current.get()
        var stopped = false
        while let chunk = try inflater.nextPassChunk() {
            if let cancellation, cancellation.shouldStop() {
                stopped = true
                break
            }
            guard let chunkStart = chunk.baseAddress else { continue }
            var offset = 0
            // The inflater hands out exactly `filteredCount` bytes, so a pass is always left.
            while offset < chunk.count, passIndex < passes.count {
                let pass = passes[passIndex]
                let filteredRowCount = pass.rowByteCount + 1
                let taken = min(filteredRowCount - filledCount, chunk.count - offset)
                (filtered + filledCount).update(from: chunkStart + offset, count: taken)
                filledCount += taken
                offset += taken
                guard filledCount == filteredRowCount else { continue }
                filledCount = 0
                var filterType = filtered[0]
                if filterType >= Unfilter.filterTypeCount {
                    if badFilter == nil { badFilter = (filterType, rowNumber) }
                    filterType = 0
                }
                let destination = rows + (rowNumber & 1) * rowCapacity
                Unfilter.unfilterRow(
                    filterType: filterType, row: filtered + 1, prior: prior, into: destination,
                    count: pass.rowByteCount, bytesPerPixel: header.filterBytesPerPixel)
                expansion.expand(destination, pixelCount: pass.width, into: converted)
                consumer(
                    PassRow(
                        pixels: converted, count: pass.width, y: pass.yStart + passY * pass.yStep,
                        xStart: pass.xStart, xStep: pass.xStep))
                prior = UnsafePointer(destination)
                rowNumber += 1
                passY += 1
                if passY == pass.height {
                    passIndex += 1
                    passY = 0
                    prior = zeroRow
                }
            }
        }
        if stopped { throw .cancelled }
        if let badFilter { throw .badFilterType(badFilter.type, row: badFilter.row) }
    }
}

extension StreamingInflater {
    /// ``next()``, its errors as the PNG decoder reports them.
    fileprivate mutating func nextPassChunk() throws(PNGError) -> UnsafeBufferPointer<UInt8>? {
        do {
            return try next()
        } catch {
            throw .inflate(error)
        }
    }
}
