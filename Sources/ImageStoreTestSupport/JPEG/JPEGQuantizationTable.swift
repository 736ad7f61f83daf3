/// A quantization table for the encoder: the example tables of ITU T.81 Annex K.1, scaled by a
/// quality factor the way the IJG's `cjpeg -quality` does, so quality 85 here gives the same
/// tables as libjpeg-turbo's quality 85.
struct JPEGQuantizationTable {
    /// Annex K, table K.1: luminance, in natural (row-major) order.
    static let luminanceBase: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61,
        12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77,
        24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101,
        72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// Annex K, table K.2: chrominance, in natural order.
    static let chrominanceBase: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99,
        18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99,
        47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
    ]

    /// The 64 step sizes in natural order, each 1...255 (8-bit precision, as baseline requires).
    let steps: [Int]

    /// `base` scaled for `quality` (1...100): below 50 the steps grow as 50 / quality, above it
    /// they shrink linearly to 1 at 100, rounded to the nearest integer.
    init(base: [Int], quality: Int) {
        precondition((1...100).contains(quality), "JPEG quality must be 1...100")
        let percent = quality < 50 ? 5000 / quality : 200 - 2 * quality
        steps = base.map { min(255, max(1, ($0 * percent + 50) / 100)) }
    }

    /// The steps in zigzag order, as a DQT segment stores them.
    var zigzagSteps: [UInt8] {
        JPEGZigzag.naturalIndex.map { UInt8(steps[$0]) }
    }
}

/// The zigzag order of T.81 figure 5: coefficient `k` of a scan is natural index
/// `naturalIndex[k]` (row * 8 + column) of its block.
enum JPEGZigzag {
    static let naturalIndex: [Int] = {
        var order: [Int] = []
        order.reserveCapacity(64)
        // Anti-diagonals from the top-left; even ones run up and to the right, odd ones down and left.
        for diagonal in 0...14 {
            let rows = max(0, diagonal - 7)...min(diagonal, 7)
            let ordered = diagonal.isMultiple(of: 2) ? Array(rows.reversed()) : Array(rows)
            for row in ordered {
                order.append(row * 8 + diagonal - row)
            }
        }
        return order
    }()
}
