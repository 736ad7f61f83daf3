/// Decodes a key frame one macroblock row at a time, as libwebp does without threads: the modes
/// of the row from the first partition, then each macroblock's coefficients and pixels, then the
/// loop filter over the row, then the rows that no later filtering can change go out as RGBA.
///
/// A load's ``DecodeCancellation`` is polled before each macroblock row (every 16 pixel rows),
/// and stops the decode with ``VP8Error/cancelled(row:)``.
///
/// Memory: the caches hold one macroblock row plus the rows the next row's filter still
/// changes (8 luma rows for the normal filter, 2 for the simple one), whatever the height.
enum VP8FrameDecoder {
    /// Decodes the frame; each RGBA row goes to `sink`, converted in `destination` (which holds
    /// the whole image) when given, else in a row buffer.
    static func decode(
        _ chunk: UnsafeRawBufferPointer, header: VP8FrameHeader, destination: UnsafeMutablePointer<UInt8>? = nil,
        rows sink: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) throws(VP8Error) {
        var header = header
        var (modeReader, tokenReaders) = try header.readFields(chunk)
        let columns = (header.width + 15) >> 4
        let rows = (header.height + 15) >> 4
        let filterType = header.filter.level == 0 ? 0 : header.filter.isSimple ? 1 : 2
        let extraRows = [0, 2, 8][filterType]
        let lumaStride = 16 * columns
        let chromaStride = 8 * columns
        let lumaCache = UnsafeMutablePointer<UInt8>.allocate(capacity: (extraRows + 16) * lumaStride)
        let uCache = UnsafeMutablePointer<UInt8>.allocate(capacity: (extraRows / 2 + 8) * chromaStride)
        let vCache = UnsafeMutablePointer<UInt8>.allocate(capacity: (extraRows / 2 + 8) * chromaStride)
        let reconstruction = VP8MacroblockReconstruction(
            buffer: .allocate(capacity: VP8MacroblockReconstruction.bufferSize),
            aboveSamples: .allocate(capacity: 32 * columns))
        reconstruction.buffer.initialize(repeating: 0, count: VP8MacroblockReconstruction.bufferSize)
        let coefficients = UnsafeMutablePointer<Int16>.allocate(capacity: 400)
        coefficients.initialize(repeating: 0, count: 400)
        let modes = UnsafeMutablePointer<VP8MacroblockModes>.allocate(capacity: columns)
        modes.initialize(repeating: VP8MacroblockModes(), count: columns)
        // Per column: 4 mode contexts, then 9 non-zero contexts; the left ones after them.
        let contexts = UnsafeMutablePointer<UInt8>.allocate(capacity: 13 * columns + 13)
        contexts.initialize(repeating: 0, count: 13 * columns + 13)
        let modesAbove = contexts
        let nonZeroAbove = contexts + 4 * columns
        let modesLeft = contexts + 13 * columns
        let nonZeroLeft = modesLeft + 4
        let filterStrengths = UnsafeMutablePointer<VP8LoopFilter.Strength>.allocate(capacity: columns)
        filterStrengths.initialize(repeating: VP8LoopFilter.Strength(), count: columns)
        var emitter = VP8RowEmitter(width: header.width, height: header.height, destination: destination)
        defer {
            lumaCache.deallocate()
            uCache.deallocate()
            vCache.deallocate()
            reconstruction.buffer.deallocate()
            reconstruction.aboveSamples.deallocate()
            coefficients.deallocate()
            modes.deallocate()
            contexts.deallocate()
            filterStrengths.deallocate()
            emitter.deallocate()
        }
        let strengths = VP8LoopFilter.strengths(header: header)
        let cancellation = DecodeCancellation.current.get()
        let rowLuma = lumaCache + extraRows * lumaStride
        let rowU = uCache + extraRows / 2 * chromaStride
        let rowV = vCache + extraRows / 2 * chromaStride
        try header.coefficientProbabilities.withUnsafeBufferPointer { probabilities in
            Result(typedCatching: { () throws(VP8Error) in
                let residuals = VP8Residuals(probabilities: probabilities.baseAddress!)
                let segmentProbabilities = header.segmentMapProbabilities
                let subblockTable = VP8Tables.subblockModeProbabilities.pointer
                for row in 0..<rows {
                    if let cancellation, cancellation.shouldStop() { throw .cancelled(row: row) }
                    modesLeft.update(repeating: 0, count: 4)
                    for column in 0..<columns {
                        modes[column] = VP8MacroblockModes.read(
                            &modeReader, segmentProbabilities: segmentProbabilities,
                            skipProbability: header.skipProbability, table: subblockTable,
                            above: modesAbove + 4 * column,
                            left: modesLeft)
                    }
                    guard !modeReader.reachedEnd else { throw .truncatedModes(row: row) }
                    nonZeroLeft.update(repeating: 0, count: 9)
                    reconstruction.startRow(row)
                    let partition = row & (header.partitionCount - 1)
                    var tokens = tokenReaders[partition]
                    for column in 0..<columns {
                        let macroblock = modes[column]
                        let nonZeroAboveHere = nonZeroAbove + 9 * column
                        var masks = VP8Residuals.BlockMasks()
                        if !macroblock.skipsCoefficients {
                            masks = residuals.read(
                                &tokens, modes: macroblock, quantizer: header.quantizers[macroblock.segment],
                                above: nonZeroAboveHere, left: nonZeroLeft,
                                coefficients: coefficients)
                        } else {
                            let count = macroblock.usesSubblocks ? 8 : 9
                            nonZeroAboveHere.update(repeating: 0, count: count)
                            nonZeroLeft.update(repeating: 0, count: count)
                        }
                        guard !tokens.reachedEnd else { throw .truncatedCoefficients(column: column, row: row) }
                        reconstruction.reconstruct(
                            column: column, row: row, columns: columns, rows: rows, modes: macroblock, masks: masks,
                            coefficients: coefficients)
                        if masks.nonZero != 0 { coefficients.update(repeating: 0, count: 384) }
                        var strength = strengths[macroblock.segment * 2 + (macroblock.usesSubblocks ? 1 : 0)]
                        strength.filtersInnerEdges = strength.filtersInnerEdges || masks.nonZero != 0
                        filterStrengths[column] = strength
                        reconstruction.copy(
                            column: column, luma: rowLuma, lumaStride: lumaStride, u: rowU, v: rowV,
                            chromaStride: chromaStride)
                    }
                    tokenReaders[partition] = tokens
                    if filterType > 0 {
                        for column in 0..<columns where filterStrengths[column].limit > 0 {
                            VP8LoopFilter.filterMacroblock(
                                y: rowLuma + 16 * column, u: rowU + 8 * column, v: rowV + 8 * column,
                                lumaStride: lumaStride, chromaStride: chromaStride, strength: filterStrengths[column],
                                isSimple: filterType == 1, hasLeft: column > 0, hasAbove: row > 0)
                        }
                    }
                    let isLast = row == rows - 1
                    let first = row == 0 ? 0 : 16 * row - extraRows
                    let end = isLast ? header.height : 16 * row + 16 - extraRows
                    let cacheOffset = first - (16 * row - extraRows)
                    emitter.emit(
                        VP8RowEmitter.Batch(
                            first: first, end: end, isLast: isLast, luma: lumaCache + cacheOffset * lumaStride,
                            lumaStride: lumaStride, u: uCache + cacheOffset / 2 * chromaStride,
                            v: vCache + cacheOffset / 2 * chromaStride, chromaStride: chromaStride),
                        to: sink)
                    if !isLast && extraRows > 0 {
                        lumaCache.update(from: lumaCache + 16 * lumaStride, count: extraRows * lumaStride)
                        uCache.update(from: uCache + 8 * chromaStride, count: extraRows / 2 * chromaStride)
                        vCache.update(from: vCache + 8 * chromaStride, count: extraRows / 2 * chromaStride)
                    }
                }
            })
        }.typedGet()
    }
}
