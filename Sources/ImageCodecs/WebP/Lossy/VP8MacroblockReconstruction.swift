/// Rebuilds macroblocks from their predictions and residuals in a small buffer laid out as
/// libwebp lays out its own: 32-byte rows, the luma block at row 1, column 8 (column 7 holds the
/// left edge, row 0 the edge above and its four above-right pixels), U and V side by side below.
///
/// Prediction reads pixels before the loop filter: the edge above comes from ``aboveSamples``
/// (each macroblock's unfiltered bottom rows), the left edge from the previous macroblock still
/// in the buffer.
struct VP8MacroblockReconstruction {
    static let bufferSize = 32 * 27
    private static let stride = VP8Prediction.stride
    /// The buffer, `bufferSize` bytes.
    let buffer: UnsafeMutablePointer<UInt8>
    /// 32 bytes per macroblock column: 16 luma, 8 U, 8 V.
    let aboveSamples: UnsafeMutablePointer<UInt8>
    var luma: UnsafeMutablePointer<UInt8> { buffer + Self.stride + 8 }
    var chromaU: UnsafeMutablePointer<UInt8> { buffer + 18 * Self.stride + 8 }
    var chromaV: UnsafeMutablePointer<UInt8> { buffer + 18 * Self.stride + 24 }

    /// Sets the edges for the first macroblock of row `row`: 129 on the left; 127 above the
    /// frame, corner included.
    func startRow(_ row: Int) {
        for y in 0..<16 { luma[y * Self.stride - 1] = 129 }
        for y in 0..<8 {
            chromaU[y * Self.stride - 1] = 129
            chromaV[y * Self.stride - 1] = 129
        }
        if row > 0 {
            luma[-Self.stride - 1] = 129
            chromaU[-Self.stride - 1] = 129
            chromaV[-Self.stride - 1] = 129
        } else {
            (luma - Self.stride - 1).update(repeating: 127, count: 21)
            (chromaU - Self.stride - 1).update(repeating: 127, count: 9)
            (chromaV - Self.stride - 1).update(repeating: 127, count: 9)
        }
    }

    /// Predicts and reconstructs the macroblock at `column`, `row`, then saves its bottom rows
    /// for the row below (unless it is the last row).
    func reconstruct(
        column: Int, row: Int, columns: Int, rows: Int, modes: VP8MacroblockModes,
        masks: VP8Residuals.BlockMasks, coefficients: UnsafePointer<Int16>
    ) {
        let stride = Self.stride
        let (y, u, v) = (luma, chromaU, chromaV)
        if column > 0 {
            for line in -1..<16 { y[line * stride - 1] = y[line * stride + 15] }
            for line in -1..<8 {
                u[line * stride - 1] = u[line * stride + 7]
                v[line * stride - 1] = v[line * stride + 7]
            }
        }
        let above = aboveSamples + 32 * column
        if row > 0 {
            (y - stride).update(from: above, count: 16)
            (u - stride).update(from: above + 16, count: 8)
            (v - stride).update(from: above + 24, count: 8)
        }
        if modes.usesSubblocks {
            let aboveRight = y - stride + 16
            if row > 0 {
                if column == columns - 1 {
                    aboveRight.update(repeating: above[15], count: 4)
                } else {
                    aboveRight.update(from: above + 32, count: 4)
                }
            }
            // Blocks on the right column take the same above-right pixels as the top one.
            // Strides, not array literals: those allocated on every macroblock.
            for line in Swift.stride(from: 3, through: 11, by: 4) {
                (y + line * stride + 16).update(from: aboveRight, count: 4)
            }
            for block in 0..<16 {
                let pixels = y + (block & 3) * 4 + (block >> 2) * 4 * stride
                VP8Prediction.predictSubblock(pixels, mode: modes.subblockMode(block))
                addResidual(block: block, masks: masks, coefficients: coefficients, to: pixels)
            }
        } else {
            VP8Prediction.predictBlock(y, size: 16, mode: modes.lumaMode, hasAbove: row > 0, hasLeft: column > 0)
            if masks.nonZero & 0xFFFF != 0 {
                for block in 0..<16 {
                    let pixels = y + (block & 3) * 4 + (block >> 2) * 4 * stride
                    addResidual(block: block, masks: masks, coefficients: coefficients, to: pixels)
                }
            }
        }
        for plane in 0..<2 {
            let pixels = plane == 0 ? u : v
            VP8Prediction.predictBlock(
                pixels, size: 8, mode: modes.chromaMode, hasAbove: row > 0, hasLeft: column > 0)
            // libwebp transforms a chroma plane with any AC coefficient block by block with its
            // SSE2 code, else each DC alone with its C code.
            let first = 16 + 4 * plane
            let planeHasAC = masks.hasAC & (0xF << UInt32(first)) != 0
            for index in 0..<4 where masks.nonZero & (1 << UInt32(first + index)) != 0 {
                let block = coefficients + 16 * (first + index)
                let target = pixels + (index & 1) * 4 + (index >> 1) * 4 * stride
                if planeHasAC {
                    VP8Transform.addInverseDCT(block, to: target, stride: stride, wrapsTo16Bits: true)
                } else {
                    VP8Transform.addInverseDC(block[0], to: target, stride: stride)
                }
            }
        }
        if row < rows - 1 {
            above.update(from: y + 15 * stride, count: 16)
            (above + 16).update(from: u + 7 * stride, count: 8)
            (above + 24).update(from: v + 7 * stride, count: 8)
        }
    }

    @inline(__always)
    private func addResidual(
        block: Int, masks: VP8Residuals.BlockMasks, coefficients: UnsafePointer<Int16>,
        to pixels: UnsafeMutablePointer<UInt8>
    ) {
        let bit = UInt32(1) << UInt32(block)
        guard masks.nonZero & bit != 0 else { return }
        if masks.hasAC & bit != 0 {
            VP8Transform.addInverseDCT(
                coefficients + 16 * block, to: pixels, stride: Self.stride, wrapsTo16Bits: masks.hasLateAC & bit != 0)
        } else {
            VP8Transform.addInverseDC(coefficients[16 * block], to: pixels, stride: Self.stride)
        }
    }

    /// Copies the reconstructed macroblock to the row caches.
    func copy(
        column: Int, luma lumaCache: UnsafeMutablePointer<UInt8>, lumaStride: Int,
        u uCache: UnsafeMutablePointer<UInt8>, v vCache: UnsafeMutablePointer<UInt8>, chromaStride: Int
    ) {
        // Whole rows as one load and store each: `update(from:count:)` became a memmove call.
        for line in 0..<16 {
            let row = UnsafeRawPointer(luma + line * Self.stride).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(lumaCache + line * lumaStride + 16 * column).storeBytes(
                of: row, as: SIMD16<UInt8>.self)
        }
        for line in 0..<8 {
            let u = UnsafeRawPointer(chromaU + line * Self.stride).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(uCache + line * chromaStride + 8 * column).storeBytes(of: u, as: UInt64.self)
            let v = UnsafeRawPointer(chromaV + line * Self.stride).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(vCache + line * chromaStride + 8 * column).storeBytes(of: v, as: UInt64.self)
        }
    }
}
