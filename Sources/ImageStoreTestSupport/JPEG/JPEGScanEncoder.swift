/// The entropy-coded data of one interleaved baseline scan: each 8×8 block transformed,
/// quantized, and Huffman coded as T.81 F.1.2 says (DC as a difference from the component's
/// previous block, AC as run/size symbols with ZRL and EOB).
struct JPEGScanEncoder {
    private var writer: JPEGBitWriter
    private let transform = JPEGForwardDCT()
    /// Reciprocal quantization steps in the transform's transposed layout, 8 rows each.
    private let luminanceReciprocals: [SIMD8<Float>]
    private let chrominanceReciprocals: [SIMD8<Float>]
    /// `zigzagTransposed[k]`: where zigzag coefficient `k` sits in the transposed layout.
    private let zigzagTransposed: [Int] = JPEGZigzag.naturalIndex.map { ($0 % 8) * 8 + $0 / 8 }
    private var previousDC = (luma: 0, blue: 0, red: 0)
    private var quantized = [Int32](repeating: 0, count: 64)

    init(
        continuing header: [UInt8], luminance: JPEGQuantizationTable, chrominance: JPEGQuantizationTable,
        expectedByteCount: Int
    ) {
        writer = JPEGBitWriter(continuing: header, reservingCapacity: expectedByteCount)
        luminanceReciprocals = Self.reciprocals(luminance)
        chrominanceReciprocals = Self.reciprocals(chrominance)
    }

    /// Encodes every MCU of `band`, left to right: for 4:2:0 the four luma blocks (row by row)
    /// then one Cb and one Cr block; otherwise one block of each component.
    mutating func encodeMCURow(of band: JPEGSampleBand, mcuColumns: Int) {
        // 8 rows of samples (the block) and 8 of working space for the transform.
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 16) { vectors in
            // Proven: 16 elements, as asked for.
            encodeMCURow(of: band, mcuColumns: mcuColumns, vectors: vectors.baseAddress!)
        }
    }

    private mutating func encodeMCURow(
        of band: JPEGSampleBand, mcuColumns: Int, vectors: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        let lumaBlocksPerSide = band.isSubsampled ? 2 : 1
        for column in 0..<mcuColumns {
            for blockRow in 0..<lumaBlocksPerSide {
                for blockColumn in 0..<lumaBlocksPerSide {
                    let x = (column * lumaBlocksPerSide + blockColumn) * 8
                    previousDC.luma = encodeBlock(
                        band.luma, width: band.lumaWidth, x: x, y: blockRow * 8, reciprocals: luminanceReciprocals,
                        dc: JPEGStandardHuffmanTables.luminanceDC, ac: JPEGStandardHuffmanTables.luminanceAC,
                        previousDC: previousDC.luma, vectors: vectors)
                }
            }
            guard band.isColor else { continue }
            previousDC.blue = encodeBlock(
                band.blueDifference, width: band.chromaWidth, x: column * 8, y: 0,
                reciprocals: chrominanceReciprocals, dc: JPEGStandardHuffmanTables.chrominanceDC,
                ac: JPEGStandardHuffmanTables.chrominanceAC, previousDC: previousDC.blue, vectors: vectors)
            previousDC.red = encodeBlock(
                band.redDifference, width: band.chromaWidth, x: column * 8, y: 0,
                reciprocals: chrominanceReciprocals, dc: JPEGStandardHuffmanTables.chrominanceDC,
                ac: JPEGStandardHuffmanTables.chrominanceAC, previousDC: previousDC.red, vectors: vectors)
        }
    }

    /// The file so far, the scan's last byte padded.
    mutating func finish() -> [UInt8] {
        writer.finish()
    }

    /// Codes the block whose top-left sample is (`x`, `y`) of `plane`; returns its quantized DC.
    private mutating func encodeBlock(
        _ plane: [Float], width: Int, x: Int, y: Int, reciprocals: [SIMD8<Float>], dc: JPEGHuffmanCode,
        ac: JPEGHuffmanCode, previousDC: Int, vectors: UnsafeMutablePointer<SIMD8<Float>>
    ) -> Int {
        precondition(x + 8 <= width && (y + 8) * width <= plane.count, "the block lies inside its plane")
        plane.withUnsafeBytes { samples in
            for row in 0..<8 {
                // In bounds: the precondition above.
                vectors[row] = samples.loadUnaligned(
                    fromByteOffset: ((y + row) * width + x) * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
            }
        }
        transform.transform(vectors, scratch: vectors + 8)
        for row in 0..<8 {
            let scaled = (vectors[row] * reciprocals[row]).rounded(.toNearestOrAwayFromZero)
            // Baseline codes AC magnitudes up to 1023; only quality 100 could exceed it.
            let clamped = scaled.clamped(lowerBound: SIMD8(repeating: -1023), upperBound: SIMD8(repeating: 1023))
            let integers = SIMD8<Int32>(clamped, rounding: .towardZero)
            for lane in 0..<8 { quantized[row * 8 + lane] = integers[lane] }
        }
        // The DC coefficient (−1024...1016 before quantizing) needs no clamp.
        quantized[0] = Int32((vectors[0][0] * reciprocals[0][0]).rounded(.toNearestOrAwayFromZero))

        let dcValue = Int(quantized[0])
        writeCoefficient(dcValue - previousDC, run: 0, code: dc)
        var run = 0
        for index in 1..<64 {
            let value = Int(quantized[zigzagTransposed[index]])
            if value == 0 {
                run += 1
                continue
            }
            while run > 15 {
                writeSymbol(0xF0, code: ac)  // ZRL: 16 zeros
                run -= 16
            }
            writeCoefficient(value, run: run, code: ac)
            run = 0
        }
        if run > 0 { writeSymbol(0x00, code: ac) }  // EOB
        return dcValue
    }

    /// Writes the symbol `run << 4 | size` and then `value`'s `size` extra bits (T.81 F.1.2.1:
    /// a negative value is written as `value - 1` in two's complement, truncated).
    @inline(__always)
    private mutating func writeCoefficient(_ value: Int, run: Int, code: JPEGHuffmanCode) {
        let size = value == 0 ? 0 : Int.bitWidth - value.magnitude.leadingZeroBitCount
        writeSymbol(UInt8(run << 4 | size), code: code)
        if size > 0 {
            writer.write(UInt32(truncatingIfNeeded: value < 0 ? value - 1 : value), bitCount: size)
        }
    }

    @inline(__always)
    private mutating func writeSymbol(_ symbol: UInt8, code: JPEGHuffmanCode) {
        writer.write(UInt32(code.codes[Int(symbol)]), bitCount: Int(code.lengths[Int(symbol)]))
    }

    /// `1 / step` for each coefficient, laid out as the transform leaves its output
    /// (row = horizontal frequency).
    private static func reciprocals(_ table: JPEGQuantizationTable) -> [SIMD8<Float>] {
        (0..<8).map { horizontal in
            var row = SIMD8<Float>()
            for vertical in 0..<8 { row[vertical] = 1 / Float(table.steps[vertical * 8 + horizontal]) }
            return row
        }
    }
}
