/// Turns the decompressed, filtered data into output pixels: unfilters each row, converts it to
/// the output format and, for Adam7, scatters it to its place in the image.
///
/// Without interlacing, rows whose bytes already are the output bytes (8-bit gray, gray + alpha,
/// RGBA) and 8-bit RGB rows (widened to RGBA on the way) are unfiltered straight into the output,
/// reading the row above from the output; other rows are unfiltered into one of two row buffers
/// (this row and the one above) and converted from there while in the cache.
///
/// This lets the filtered data share the output's buffer, placed to end where the output ends
/// (or to start where it starts if it is the larger): an output pixel is written only after the
/// filtered bytes of the same pixel have been read, and never reaches filtered bytes of later
/// pixels or rows, because filtered row `y` never starts before output row `y`, and output row
/// `y` never ends after filtered row `y + 1` starts.
///
/// Adam7 passes are unfiltered in place in a separate buffer, then scattered.
struct PNGReconstruction {
    let header: PNGHeader
    /// The passes of the filtered data; filter types already checked to be 0...4.
    let passes: [PNGPass]
    let expansion: PixelExpansion

    /// Reconstructs the whole image.
    ///
    /// - Parameters:
    ///   - filtered: The decompressed data of all passes, followed by ``Inflater/outputSlack``
    ///     readable bytes; modified when interlaced.
    ///   - output: Room for `width * height * expansion.format.bytesPerPixel` bytes, all of
    ///     which are written. May share memory with `filtered` as described above.
    /// - Complexity: O(`width * height`).
    func reconstruct(_ filtered: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        // Unfiltering may read a few bytes past the row above (see Unfilter), so the rows that
        // can be "above" have slack like the filtered data; the zero row also stands in for an
        // output row above.
        let widestRow = max(passes.map(\.rowByteCount).max() ?? 0, header.width * expansion.format.bytesPerPixel)
        let rowCapacity = widestRow + Inflater.outputSlack
        let zeroRow = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity)
        zeroRow.initialize(repeating: 0, count: rowCapacity)
        defer { zeroRow.deallocate() }
        if header.isInterlaced {
            reconstructPasses(filtered, into: output, zeroRow: zeroRow)
        } else if expansion.isCopy {
            reconstructDirectly(filtered, into: output, zeroRow: zeroRow)
        } else if expansion.isOpaqueRGB8 {
            reconstructRGBDirectly(filtered, into: output, zeroRow: zeroRow)
        } else {
            let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowCapacity)
            defer { rows.deallocate() }
            reconstructThroughRows(filtered, into: output, zeroRow: zeroRow, rows: rows, rowCapacity: rowCapacity)
        }
    }

    /// Non-interlaced rows that need no conversion: unfiltered from the data into the output.
    private func reconstructDirectly(
        _ filtered: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, zeroRow: UnsafePointer<UInt8>
    ) {
        let rowByteCount = passes[0].rowByteCount
        var row = filtered
        var prior = zeroRow
        for y in 0..<header.height {
            let outputRow = output + y * rowByteCount
            Unfilter.unfilterRow(
                filterType: row[0], row: row + 1, prior: prior, into: outputRow,
                count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
            )
            prior = UnsafePointer(outputRow)
            row += rowByteCount + 1
        }
    }

    /// Non-interlaced 8-bit RGB without a key: unfiltered from the data into RGBA output.
    private func reconstructRGBDirectly(
        _ filtered: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, zeroRow: UnsafePointer<UInt8>
    ) {
        let rowByteCount = passes[0].rowByteCount
        let outputRowCount = header.width * 4
        var row = filtered
        var prior = zeroRow
        for y in 0..<header.height {
            let outputRow = output + y * outputRowCount
            Unfilter.unfilterRGBRowToRGBA(
                filterType: row[0], row: row + 1, prior: prior, into: outputRow, pixelCount: header.width
            )
            prior = UnsafePointer(outputRow)
            row += rowByteCount + 1
        }
    }

    /// Non-interlaced rows that need conversion: unfiltered into alternating row buffers, then
    /// converted into the output.
    private func reconstructThroughRows(
        _ filtered: UnsafePointer<UInt8>,
        into output: UnsafeMutablePointer<UInt8>,
        zeroRow: UnsafePointer<UInt8>,
        rows: UnsafeMutablePointer<UInt8>,
        rowCapacity: Int
    ) {
        let rowByteCount = passes[0].rowByteCount
        let outputRowCount = header.width * expansion.format.bytesPerPixel
        var row = filtered
        var prior = zeroRow
        for y in 0..<header.height {
            let current = rows + (y & 1) * rowCapacity
            Unfilter.unfilterRow(
                filterType: row[0], row: row + 1, prior: prior, into: current,
                count: rowByteCount, bytesPerPixel: header.filterBytesPerPixel
            )
            expansion.expand(current, pixelCount: header.width, into: output + y * outputRowCount)
            prior = UnsafePointer(current)
            row += rowByteCount + 1
        }
    }

    /// Adam7: each pass unfiltered in place, converted into a pass row, scattered into the image.
    private func reconstructPasses(
        _ filtered: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, zeroRow: UnsafePointer<UInt8>
    ) {
        let outputBytesPerPixel = expansion.format.bytesPerPixel
        let outputRowCount = header.width * outputBytesPerPixel
        let passRow = UnsafeMutablePointer<UInt8>.allocate(capacity: outputRowCount)
        defer { passRow.deallocate() }
        var row = filtered
        for pass in passes {
            var prior = zeroRow
            for passY in 0..<pass.height {
                Unfilter.unfilterRow(
                    filterType: row[0], row: row + 1, prior: prior, into: row + 1,
                    count: pass.rowByteCount, bytesPerPixel: header.filterBytesPerPixel
                )
                expansion.expand(row + 1, pixelCount: pass.width, into: passRow)
                let y = pass.yStart + passY * pass.yStep
                let start = output + y * outputRowCount + pass.xStart * outputBytesPerPixel
                switch outputBytesPerPixel {
                case 1: scatter(passRow, UInt8.self, count: pass.width, to: start, every: pass.xStep)
                case 2: scatter(passRow, UInt16.self, count: pass.width, to: start, every: pass.xStep)
                default: scatter(passRow, UInt32.self, count: pass.width, to: start, every: pass.xStep)
                }
                prior = UnsafePointer(row + 1)
                row += pass.rowByteCount + 1
            }
        }
    }

    /// Copies `count` consecutive pixels of type `Pixel` to every `step`-th pixel of `destination`.
    private func scatter<Pixel: FixedWidthInteger>(
        _ source: UnsafePointer<UInt8>,
        _: Pixel.Type,
        count: Int,
        to destination: UnsafeMutablePointer<UInt8>,
        every step: Int
    ) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        let size = MemoryLayout<Pixel>.size
        for x in 0..<count {
            let pixel = from.loadUnaligned(fromByteOffset: x * size, as: Pixel.self)
            to.storeBytes(of: pixel, toByteOffset: x * step * size, as: Pixel.self)
        }
    }
}
