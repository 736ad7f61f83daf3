/// Turns the decompressed, filtered data of an Adam7-interlaced image into output pixels: each
/// pass is unfiltered in place, converted into a pass row and scattered to its place in the
/// image. (Non-interlaced images are reconstructed row by row while they are inflated; see
/// ``PNGRowStream``.)
struct PNGInterlacedReconstruction {
    let header: PNGHeader
    /// The passes of the filtered data; filter types already checked to be 0...4.
    let passes: [PNGPass]
    let expansion: PixelExpansion

    /// Reconstructs the whole image.
    ///
    /// - Parameters:
    ///   - filtered: The decompressed data of all passes, followed by ``Inflater/outputSlack``
    ///     readable bytes; unfiltered in place.
    ///   - output: Room for `width * height * expansion.format.bytesPerPixel` bytes, all of
    ///     which are written.
    /// - Complexity: O(`width * height`).
    func reconstruct(_ filtered: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        // Unfiltering may read a few bytes past the row above (see Unfilter), so the zero row
        // that stands above each pass's first row has slack like the filtered data.
        let widestRow = passes.map(\.rowByteCount).max() ?? 0
        let rowCapacity = widestRow + Inflater.outputSlack
        let zeroRow = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity)
        zeroRow.initialize(repeating: 0, count: rowCapacity)
        defer { zeroRow.deallocate() }
        reconstructPasses(filtered, into: output, zeroRow: zeroRow)
    }

    /// Each pass unfiltered in place, converted into a pass row, scattered into the image.
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
