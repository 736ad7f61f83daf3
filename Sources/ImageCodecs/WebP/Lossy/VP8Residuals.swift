/// Reads the quantised DCT/WHT coefficients of a macroblock from a token partition (RFC 6386
/// §13) and dequantises them, in the order and with the contexts libwebp uses.
///
/// Non-zero contexts are bytes: 0...3 the luma blocks along the edge, 4...5 U, 6...7 V, 8 Y2.
struct VP8Residuals {
    /// Raster position of each coefficient in zigzag order.
    private static let zigzagTable = ConstantTable<Int>([0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15])
    /// The offset of each position's band in a type's probabilities (the 17th is a sentinel).
    private static let bandOffsetTable = ConstantTable<Int>(
        [0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0].map { $0 * 33 })
    /// Extra-bit probabilities of the categories 3 to 6 (§13.2), each ended by 0.
    private static let categoryTable = ConstantTable<UInt8>([
        173, 148, 140, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        176, 155, 140, 135, 0, 0, 0, 0, 0, 0, 0, 0,
        180, 157, 141, 134, 130, 0, 0, 0, 0, 0, 0, 0,
        254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129, 0,
    ])

    // The tables' pointers, read once per frame: a global's lazy initialisation check costs a
    // call on every access in the token loop.
    private let zigzag = zigzagTable.pointer
    private let bandOffsets = bandOffsetTable.pointer
    private let categoryProbabilities = categoryTable.pointer
    /// The frame's coefficient probabilities.
    let probabilities: UnsafePointer<UInt8>

    init(probabilities: UnsafePointer<UInt8>) {
        self.probabilities = probabilities
    }

    /// Which blocks hold coefficients: bit `n` for luma block `n`, 16...19 U, 20...23 V.
    struct BlockMasks {
        /// Blocks with any non-zero coefficient.
        var nonZero: UInt32 = 0
        /// Blocks with a coefficient after the DC one (they need the full inverse DCT).
        var hasAC: UInt32 = 0
        /// Blocks with a coefficient after the third in zigzag order, which libwebp transforms
        /// with its SSE2 code (the others with its C code).
        var hasLateAC: UInt32 = 0
    }

    /// Reads one macroblock's coefficients into `coefficients` (384 values, zero on entry, then
    /// 16 of scratch space, also zero and left zero).
    func read(
        _ reader: inout VP8BoolDecoder, modes: VP8MacroblockModes, quantizer: VP8Quantizer,
        above: UnsafeMutablePointer<UInt8>,
        left: UnsafeMutablePointer<UInt8>, coefficients: UnsafeMutablePointer<Int16>
    ) -> BlockMasks {
        var masks = BlockMasks()
        var first = 0
        var lumaProbabilities = probabilities + 3 * 264
        if !modes.usesSubblocks {
            let scratch = coefficients + 384
            let context = Int(above[8] &+ left[8])
            let count = readBlock(
                &reader, probabilities + 264, context: context, dc: quantizer.y2DC, ac: quantizer.y2AC,
                first: 0, into: scratch)
            above[8] = count > 0 ? 1 : 0
            left[8] = above[8]
            if count > 1 {
                VP8Transform.inverseWHT(scratch, into: coefficients)
            } else {
                let dc = Int16(truncatingIfNeeded: (Int32(scratch[0]) &+ 3) >> 3)
                for block in 0..<16 { coefficients[16 * block] = dc }
            }
            for index in 0..<16 { scratch[index] = 0 }
            first = 1
            lumaProbabilities = probabilities
        }
        for row in 0..<4 {
            var leftFlag = left[row]
            for column in 0..<4 {
                let block = row * 4 + column
                let output = coefficients + 16 * block
                let count = readBlock(
                    &reader, lumaProbabilities, context: Int(leftFlag &+ above[column]), dc: quantizer.y1DC,
                    ac: quantizer.y1AC, first: first, into: output)
                leftFlag = count > first ? 1 : 0
                above[column] = leftFlag
                mark(block, count: count, dc: output[0], in: &masks)
            }
            left[row] = leftFlag
        }
        for plane in 0..<2 {
            let edge = 4 + 2 * plane
            for row in 0..<2 {
                var leftFlag = left[edge + row]
                for column in 0..<2 {
                    let block = 16 + 4 * plane + 2 * row + column
                    let output = coefficients + 16 * block
                    let count = readBlock(
                        &reader, probabilities + 2 * 264, context: Int(leftFlag &+ above[edge + column]),
                        dc: quantizer.uvDC, ac: quantizer.uvAC, first: 0, into: output)
                    leftFlag = count > 0 ? 1 : 0
                    above[edge + column] = leftFlag
                    mark(block, count: count, dc: output[0], in: &masks)
                }
                left[edge + row] = leftFlag
            }
        }
        return masks
    }

    @inline(__always)
    private func mark(_ block: Int, count: Int, dc: Int16, in masks: inout BlockMasks) {
        let bit = UInt32(1) << UInt32(block)
        if count > 1 {
            masks.nonZero |= bit
            masks.hasAC |= bit
            if count > 3 { masks.hasLateAC |= bit }
        } else if dc != 0 {
            masks.nonZero |= bit
        }
    }

    /// Reads the tokens of one block from position `first`; returns the position after the last
    /// token that was not end-of-block (16 when the block runs to its end).
    @inline(__always)
    private func readBlock(
        _ reader: inout VP8BoolDecoder, _ probabilities: UnsafePointer<UInt8>, context: Int, dc: Int32,
        ac: Int32, first: Int, into output: UnsafeMutablePointer<Int16>
    ) -> Int {
        let bands = bandOffsets
        var position = first
        var node = probabilities + bands[position] + context * 11
        while position < 16 {
            if !reader.bit(node[0]) { return position }
            while !reader.bit(node[1]) {
                position &+= 1
                if position == 16 { return 16 }
                node = probabilities + bands[position]
            }
            let next = probabilities + bands[position + 1]
            let magnitude: Int32
            if !reader.bit(node[2]) {
                magnitude = 1
                node = next + 11
            } else {
                magnitude = readLargeMagnitude(&reader, node)
                node = next + 22
            }
            let value = reader.signed(magnitude) &* (position > 0 ? ac : dc)
            output[zigzag[position]] = Int16(truncatingIfNeeded: value)
            position &+= 1
        }
        return 16
    }

    /// Reads a token above 1 (§13.2): the literals 2, 3, 4 or a category with extra bits.
    private func readLargeMagnitude(_ reader: inout VP8BoolDecoder, _ node: UnsafePointer<UInt8>) -> Int32 {
        if !reader.bit(node[3]) {
            if !reader.bit(node[4]) { return 2 }
            return reader.bit(node[5]) ? 4 : 3
        }
        if !reader.bit(node[6]) {
            if !reader.bit(node[7]) { return reader.bit(159) ? 6 : 5 }
            return 7 + (reader.bit(165) ? 2 : 0) + (reader.bit(145) ? 1 : 0)
        }
        let high = reader.bit(node[8]) ? 1 : 0
        let low = reader.bit(node[9 + high]) ? 1 : 0
        let category = 2 * high + low
        var extra = categoryProbabilities + 12 * category
        var value: Int32 = 0
        while extra.pointee != 0 {
            value = value &+ value &+ (reader.bit(extra.pointee) ? 1 : 0)
            extra += 1
        }
        return value &+ 3 &+ (8 << Int32(category))
    }
}
