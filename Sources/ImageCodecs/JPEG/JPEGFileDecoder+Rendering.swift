import Foundation

/// Rendering: the decoded coefficients turned into pixels, streamed row band by row band or
/// from the whole image's coefficients, block smoothing included.
extension JPEGFileDecoder {
    /// Decodes the only scan of a sequential file MCU row by MCU row, transforming each row and
    /// converting the rows it completes into ``pixels`` at once.
    mutating func decodeStreaming(
        frame: JPEGFrame, decoder: inout JPEGScanDecoder, bits: inout JPEGBitReader
    ) throws(JPEGError) {
        let rowBuffer = JPEGCoefficientBuffer(frame: frame, mcuRowOnly: true)
        let quantizationPointers = makeMultiplierTables()
        defer { quantizationPointers.deallocate() }
        let single = frame.components.count == 1
        pixels = try renderInBands(frame: frame) { ring, bandReady throws(JPEGError) in
            try decoder.decode(into: rowBuffer, reader: &bits) { mcuRow in
                for (index, component) in frame.components.enumerated() {
                    let rows = single ? 1 : component.verticalSampling
                    for blockY in 0..<rows {
                        ring.transformBlockRow(
                            component: index, blockRow: mcuRow * rows + blockY,
                            blocks: rowBuffer.planes[index] + blockY * component.blocksPerLine * 64,
                            quantization: quantizationPointers + 64 * index
                        )
                    }
                }
                bandReady(mcuRow)
            }
        }
    }

    /// Transforms and converts a whole-image coefficient buffer (progressive or multi-scan
    /// files) MCU row by MCU row, as ``decodeStreaming(frame:decoder:bits:)`` does: no sample
    /// planes of the whole image are made.
    ///
    /// The DC scans' coefficients are merged into the blocks first (``JPEGCoefficientBuffer/mergeDC(except:)``),
    /// but for a component transformed 1×1 without smoothing (the luma of a 4:2:0 file at 1/8,
    /// every component of a 4:4:4 one), which is transformed from its DC plane: smoothing may
    /// interpolate a DC from the blocks, so it reads merged ones.
    ///
    /// - Parameter smoothing: Block-smooth the coefficients first (into a copy of each block row;
    ///   the buffer is not changed), as libjpeg-turbo does for an incomplete progressive image.
    func renderCoefficients(
        frame: JPEGFrame, coefficients: JPEGCoefficientBuffer, smoothing: JPEGBlockSmoothing?
    ) throws(JPEGError) -> [UInt8] {
        let transformSizes = JPEGSamplePlanes.transformSizes(frame: frame, scaleDenominator: scaleDenominator)
        let readsDCPlane = transformSizes.map { $0 == 1 && smoothing == nil && !coefficients.dcPlanes.isEmpty }
        coefficients.mergeDC(except: readsDCPlane)
        // A component never scanned (recovering) has all-zero multipliers, so it comes out gray.
        let quantization = makeMultiplierTables()
        defer { quantization.deallocate() }
        let single = frame.components.count == 1
        let widest = frame.components.map(\.widthInBlocks).max() ?? 0
        let smoothed = UnsafeMutablePointer<Int16>.allocate(capacity: widest * 64)
        defer { smoothed.deallocate() }
        let rowCount = single ? frame.components[0].heightInBlocks : frame.mcuRows
        return try renderInBands(frame: frame) { ring, bandReady throws(JPEGError) in
            for mcuRow in 0..<rowCount {
                for (index, component) in frame.components.enumerated() {
                    let rows = single ? 1 : component.verticalSampling
                    for blockY in 0..<rows {
                        let blockRow = mcuRow * rows + blockY
                        guard blockRow < component.heightInBlocks else { continue }
                        if readsDCPlane[index] {
                            ring.transformDCRow(
                                component: index, blockRow: blockRow,
                                dcs: coefficients.dcPlanes[index] + blockRow * component.blocksPerLine,
                                quantization: quantization + 64 * index)
                            continue
                        }
                        var blocks = UnsafePointer(coefficients.planes[index] + blockRow * component.blocksPerLine * 64)
                        if let smoothing {
                            smoothing.smooth(component: index, blockRow: blockRow, from: coefficients, into: smoothed)
                            blocks = UnsafePointer(smoothed)
                        }
                        ring.transformBlockRow(
                            component: index, blockRow: blockRow, blocks: blocks,
                            quantization: quantization + 64 * index)
                    }
                }
                bandReady(mcuRow)
            }
        }
    }

    /// The whole image's coefficients. A progressive file decoded at 1/8 keeps its DC scans'
    /// coefficients apart (``JPEGCoefficientBuffer/dcPlanes``): there the DC is most of what is
    /// decoded. At larger scales the AC scans touch every block anyway, and merging the DCs
    /// would be one more pass over the image (slower: BENCHMARKS.md).
    func makeCoefficientBuffer(_ frame: JPEGFrame) -> JPEGCoefficientBuffer {
        JPEGCoefficientBuffer(frame: frame, separatesDC: frame.process == .progressive && scaleDenominator == 8)
    }

    /// The multipliers each component latched, as the inverse DCTs read them: 64 per component,
    /// in natural order, as 16-bit values (libjpeg's islow multipliers are 16-bit, so nothing is
    /// lost), all zero for a component never scanned. The caller deallocates the buffer.
    func makeMultiplierTables() -> UnsafeMutablePointer<Int16> {
        let tables = UnsafeMutablePointer<Int16>.allocate(capacity: 64 * max(componentQuantization.count, 1))
        tables.initialize(repeating: 0, count: 64 * max(componentQuantization.count, 1))
        for (index, table) in componentQuantization.enumerated() {
            guard let table else { continue }
            for position in 0..<64 { tables[64 * index + position] = Int16(truncatingIfNeeded: table[position]) }
        }
        return tables
    }

    /// Makes the output pixels band by band as `produce` transforms MCU rows into a ring of
    /// sample bands, calling its second argument after each MCU row (escaping only because the
    /// scan decoder takes its row callback as an optional).
    ///
    /// Upsampling filters read one row beyond each band, so band m is converted once band m + 1
    /// is transformed: a ring of three bands holds everything they read (one band suffices
    /// without upsampling).
    func renderInBands(
        frame: JPEGFrame,
        produce: (JPEGSamplePlanes, @escaping (Int) -> Void) throws(JPEGError) -> Void
    ) throws(JPEGError) -> [UInt8] {
        let single = frame.components.count == 1
        let probe = JPEGSamplePlanes(frame: frame, scaleDenominator: scaleDenominator, bands: 1)
        let delay = probe.needsNoUpsampling ? 0 : 1
        let ring = delay == 0 ? probe : JPEGSamplePlanes(frame: frame, scaleDenominator: scaleDenominator, bands: 3)
        let renderer = JPEGOutputRows(planes: ring)
        let converter = JPEGColorConverter(colorSpace: colorSpace)
        let (width, height) = (renderer.outputWidth, renderer.outputHeight)
        let rowSource = JPEGOutputRows.RowSource(planes: ring, outputWidth: width)
        let byteCount = width * height * converter.bytesPerPixel
        let bandHeight = (single ? 1 : frame.maxVerticalSampling) * (8 / scaleDenominator)
        let bandCount = ceilDivide(height, bandHeight)
        var failure: JPEGError?
        let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var prefaulter = PagePrefaulter(buffer)
            let rowByteCount = width * converter.bytesPerPixel
            func renderBand(_ band: Int) {
                let start = band * bandHeight
                let end = min(start + bandHeight, height)
                prefaulter.prepare(through: base + end * rowByteCount)
                rowSource.render(start..<end, converter: converter, into: base)
            }
            do throws(JPEGError) {
                try produce(ring) { mcuRow in
                    if mcuRow >= delay && mcuRow - delay < bandCount { renderBand(mcuRow - delay) }
                }
                // The last band, whose rows below the image repeat its last row.
                if delay == 1 && bandCount >= 1 { renderBand(bandCount - 1) }
                initialized = byteCount
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return output
    }

    /// The block smoothing libjpeg-turbo 2.1.5 applies to this image by default, if any.
    ///
    /// Where the last scan ran out of data matters to it. When that scan was skipped at 1/8, the
    /// skipped scans are decoded now, in order (a refinement scan reads as many bits as the
    /// earlier scans left nonzero coefficients); the 1×1 inverse DCT reads none of what they set.
    mutating func blockSmoothing(
        _ frame: JPEGFrame, coefficients: JPEGCoefficientBuffer
    ) throws(JPEGError) -> JPEGBlockSmoothing? {
        func smoothing() -> JPEGBlockSmoothing? {
            JPEGBlockSmoothing(
                frame: frame, bits: coefficientBits, scanCount: scanCount, quantization: componentQuantization,
                lastGoodIMCURow: lastGoodIMCURow)
        }
        guard smoothing() != nil else { return nil }
        if lastScanSkipped {
            for (skipped, position) in skippedScans {
                var decoder = skipped
                var bits = JPEGBitReader(bytes: reader.bytes, count: reader.count, position: position)
                bits.substitutesInvalidCodes = recovers
                try decoder.decode(into: coefficients, reader: &bits)
                if let scanDefect = decoder.defect { note(scanDefect) }
                if bits.metInvalidCode { note(.corruptScanData(offset: decoder.scanOffset)) }
                lastGoodIMCURow = decoder.lastGoodIMCURow
            }
            lastScanSkipped = false
        }
        return smoothing()
    }
}
