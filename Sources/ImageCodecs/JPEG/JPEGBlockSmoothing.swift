/// libjpeg-turbo 2.1.5's inter-block smoothing of a progressive image whose low-frequency
/// coefficients are not all final (`jdcoefct.c`: `smoothing_ok`, `decompress_smooth_data`), on
/// by default (`do_block_smoothing`), so djpeg's pixels for such files include it.
///
/// Before the inverse DCT, each block's first nine AC coefficients (zigzag 1...9) that are still
/// zero and not known to be final are estimated from the DC values of the 5×5 blocks around it;
/// for a component whose scans sent no AC coefficient at all, its DC is replaced by a smoothed
/// one too. An estimate never exceeds what the unknown low bits of a coefficient sent with point
/// transform `Al` could hold. The DC values are read from the coefficients as decoded, so
/// smoothing one block does not change its neighbours' estimates.
///
/// djpeg reads the whole file before its output pass, so the coefficient-bit state it sees is
/// the final one, except that the image rows after the point where the last scan ran out of data
/// use the state from before that scan.
struct JPEGBlockSmoothing {
    /// What one component's scans left known, for one range of iMCU rows (libjpeg's latch).
    private struct Latch {
        /// The coefficient bits at zigzag positions 0...9 (position 0 is unused).
        var bits: [Int]
        /// No AC coefficient was ever sent: estimate all nine, and the DC too.
        var interpolatesDC: Bool

        init(bits: [Int]) {
            self.bits = bits
            interpolatesDC = bits[1...].allSatisfy { $0 == -1 }
        }
    }

    private let frame: JPEGFrame
    /// Per component, the latch for iMCU rows up to ``lastGoodIMCURow``.
    private let latches: [Latch]
    /// Per component, the latch for the iMCU rows after it.
    private let latchesAfterLastGoodRow: [Latch]
    private let lastGoodIMCURow: Int
    /// Per component, the quantizer (an unsigned 16-bit value) at zigzag positions 0...9.
    private let quantizers: [[Int]]

    /// The smoothing libjpeg-turbo would apply, or `nil` when it would not (`smoothing_ok`): it
    /// needs a progressive frame, a quantization table for every component with no zero among
    /// its first ten quantizers, a DC scan of every component, and one of the first nine AC
    /// coefficients of some component not yet final.
    ///
    /// - Parameters:
    ///   - bits: The coefficient bits after the file's last scan.
    ///   - scanCount: The number of scans read.
    ///   - quantization: Each component's latched table as 16-bit multipliers, natural order;
    ///     `nil` for a component never scanned.
    ///   - lastGoodIMCURow: libjpeg's `last_good_iMCU_row` after the last scan: the iMCU row in
    ///     which it ran out of data, or its last row.
    init?(
        frame: JPEGFrame, bits: JPEGCoefficientBits, scanCount: Int, quantization: [[Int32]?],
        lastGoodIMCURow: Int
    ) {
        guard frame.process == .progressive else { return nil }
        let tracked = JPEGCoefficientBits.trackedPositions
        var useful = false
        var quantizers: [[Int]] = []
        var latches: [Latch] = []
        var latchesAfter: [Latch] = []
        for component in frame.components.indices {
            guard let table = quantization[component] else { return nil }
            // The multipliers hold the 16-bit quantizers sign-extended; estimates divide by them.
            let values = jpegNaturalOrder[0..<tracked].map { Int(UInt16(truncatingIfNeeded: table[$0])) }
            guard !values.contains(0), bits.current(component: component, position: 0) >= 0 else { return nil }
            let current = (0..<tracked).map { bits.current(component: component, position: $0) }
            // The state before the last scan: libjpeg leaves it at -1 when there was one scan only.
            let before = (0..<tracked).map { scanCount > 1 ? bits.previous(component: component, position: $0) : -1 }
            if current[1...].contains(where: { $0 != 0 }) { useful = true }
            quantizers.append(values)
            latches.append(Latch(bits: current))
            latchesAfter.append(Latch(bits: before))
        }
        guard useful else { return nil }
        self.frame = frame
        self.quantizers = quantizers
        self.latches = latches
        latchesAfterLastGoodRow = latchesAfter
        self.lastGoodIMCURow = lastGoodIMCURow
    }

    /// Writes one block row of a component, smoothed, to `row`.
    ///
    /// - Parameters:
    ///   - component: The component's index.
    ///   - blockRow: The block row, in `0..<heightInBlocks`.
    ///   - coefficients: The whole image's coefficients, which are only read.
    ///   - row: Room for `widthInBlocks` blocks of 64 coefficients.
    func smooth(
        component: Int, blockRow: Int, from coefficients: JPEGCoefficientBuffer, into row: UnsafeMutablePointer<Int16>
    ) {
        let geometry = frame.components[component]
        let plane = UnsafePointer(coefficients.planes[component])
        let rowSize = geometry.blocksPerLine * 64
        let sourceRows = neighbourRows(of: blockRow, component: geometry).map { plane + $0 * rowSize }
        let latch =
            blockRow / geometry.verticalSampling > lastGoodIMCURow
            ? latchesAfterLastGoodRow[component] : latches[component]
        let quantizer = quantizers[component]
        let kernels = latch.interpolatesDC ? Self.interpolatingKernels : Self.neighbourKernels
        let lastColumn = geometry.widthInBlocks - 1
        // The 5×5 DC values around the block, row-major, as libjpeg slides them along the row:
        // at first all columns repeat column 0, then each step brings in the column two ahead
        // while there is one before the last. (For a row two blocks wide this leaves column 0
        // to the right of column 1, as libjpeg does.)
        var window = [Int](repeating: 0, count: 25)
        for (index, source) in sourceRows.enumerated() {
            for column in 0..<5 { window[5 * index + column] = Int(source[0]) }
        }
        for column in 0...lastColumn {
            if column == 0 && column < lastColumn {
                for (index, source) in sourceRows.enumerated() { window[5 * index + 3] = Int(source[64]) }
            }
            if column + 1 < lastColumn {
                for (index, source) in sourceRows.enumerated() {
                    window[5 * index + 4] = Int(source[(column + 2) * 64])
                }
            }
            let block = row + column * 64
            block.update(from: sourceRows[2] + column * 64, count: 64)
            for (zigzag, weights) in kernels {
                let pointTransform = latch.bits[zigzag]
                let position = jpegNaturalOrder[zigzag]
                // Position 0 is the DC: always replaced when interpolating, never clamped.
                guard zigzag == 0 || (pointTransform != 0 && block[position] == 0) else { continue }
                var sum = 0
                for index in 0..<25 where weights[index] != 0 { sum += weights[index] * window[index] }
                block[position] = Self.estimate(
                    quantizer[0] * sum, quantizer: quantizer[zigzag], pointTransform: zigzag == 0 ? 0 : pointTransform)
            }
            for index in 0..<5 {
                for step in 0..<4 { window[5 * index + step] = window[5 * index + step + 1] }
            }
        }
    }

    /// The block rows two above to two below `blockRow`, as libjpeg picks them: a row outside the
    /// image repeats the nearest one, and (because it keeps only two iMCU rows either side in
    /// view) a row two away is also replaced by the adjacent one when it lies in the first iMCU
    /// row seen from the second, or in the last seen from the one before.
    private func neighbourRows(of blockRow: Int, component: JPEGComponent) -> [Int] {
        let rowsPerIMCURow = component.verticalSampling
        let iMCURow = blockRow / rowsPerIMCURow
        let inIMCURow = blockRow % rowsPerIMCURow
        let lastIMCURow = frame.mcuRows - 1
        let rowsHere = iMCURow < lastIMCURow ? rowsPerIMCURow : component.heightInBlocks - lastIMCURow * rowsPerIMCURow
        let above = inIMCURow > 0 || iMCURow > 0 ? blockRow - 1 : blockRow
        let twoAbove = inIMCURow > 1 || iMCURow > 1 ? blockRow - 2 : above
        let below = inIMCURow < rowsHere - 1 || iMCURow < lastIMCURow ? blockRow + 1 : blockRow
        let twoBelow = inIMCURow < rowsHere - 2 || iMCURow + 1 < lastIMCURow ? blockRow + 2 : below
        return [twoAbove, above, blockRow, below, twoBelow]
    }

    /// `numerator / (quantizer * 256)` rounded half away from zero, held below `2^Al` when the
    /// coefficient was sent with point transform `Al > 0` (it can only hide in the unknown bits),
    /// with libjpeg's `int` and 16-bit coefficient conversions.
    private static func estimate(_ numerator: Int, quantizer: Int, pointTransform: Int) -> Int16 {
        var magnitude = Int32(truncatingIfNeeded: ((quantizer << 7) + abs(numerator)) / (quantizer << 8))
        if pointTransform > 0 && magnitude >= 1 << pointTransform { magnitude = (1 << pointTransform) - 1 }
        return Int16(truncatingIfNeeded: numerator >= 0 ? magnitude : 0 &- magnitude)
    }

    /// The DC weights (5×5, row-major: rows two above to two below, columns two left to two
    /// right) of each estimate, by zigzag position, when some AC data was sent: a 5×5 version of
    /// T.81 K.8's prediction, for the first five AC coefficients only.
    private static let neighbourKernels: [(Int, [Int])] = [
        (1, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 50, 0, -50, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        (2, [0, 0, -7, 0, 0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, -50, 0, 0, 0, 0, 7, 0, 0]),
        (3, [0, 0, -1, 0, 0, 0, 0, 13, 0, 0, 0, 0, -24, 0, 0, 0, 0, 13, 0, 0, 0, 0, -1, 0, 0]),
        (4, [0, -1, 0, 1, 0, -1, 10, 0, -10, 1, 0, 0, 0, 0, 0, 1, -10, 0, 10, -1, 0, 1, 0, -1, 0]),
        (5, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 13, -24, 13, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ]

    /// The weights when no AC data was sent: a Gaussian-like interpolation of the DC field for
    /// all nine AC coefficients and the DC itself (position 0, last).
    private static let interpolatingKernels: [(Int, [Int])] = [
        (1, [-1, -1, 0, 1, 1, -3, 13, 0, -13, 3, -3, 38, 0, -38, 3, -3, 13, 0, -13, 3, -1, -1, 0, 1, 1]),
        (2, [-1, -3, -3, -3, -1, -1, 13, 38, 13, -1, 0, 0, 0, 0, 0, 1, -13, -38, -13, 1, 1, 3, 3, 3, 1]),
        (3, [0, 0, 1, 0, 0, 0, 2, 7, 2, 0, 0, -5, -14, -5, 0, 0, 2, 7, 2, 0, 0, 0, 1, 0, 0]),
        (4, [-1, 0, 0, 0, 1, 0, 9, 0, -9, 0, 0, 0, 0, 0, 0, 0, -9, 0, 9, 0, 1, 0, 0, 0, -1]),
        (5, [0, 0, 0, 0, 0, 0, 2, -5, 2, 0, 1, 7, -14, 7, 1, 0, 2, -5, 2, 0, 0, 0, 0, 0, 0]),
        (6, [0, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 2, 0, -2, 0, 0, 1, 0, -1, 0, 0, 0, 0, 0, 0]),
        (7, [0, 0, 0, 0, 0, 0, 1, -3, 1, 0, 0, 0, 0, 0, 0, 0, -1, 3, -1, 0, 0, 0, 0, 0, 0]),
        (8, [0, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, -3, 0, 3, 0, 0, 1, 0, -1, 0, 0, 0, 0, 0, 0]),
        (9, [0, 0, 0, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0, -1, -2, -1, 0, 0, 0, 0, 0, 0]),
        (
            0,
            [
                -2, -6, -8, -6, -2, -6, 6, 42, 6, -6, -8, 42, 152, 42, -8, -6, 6, 42, 6, -6, -2, -6, -8, -6, -2,
            ]
        ),
    ]
}
