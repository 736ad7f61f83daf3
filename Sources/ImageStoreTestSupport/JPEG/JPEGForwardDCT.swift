import Foundation

/// The 8×8 forward DCT of ITU T.81 A.3.3 in floating point, applied as two matrix products:
/// `F = C · B · Cᵀ` with the orthonormal DCT-II basis `C`, which is exactly T.81's
/// `¼·C(u)·C(v)·ΣΣ` scaling.
///
/// A block is 8 rows of `SIMD8<Float>`, so each product is 64 vector multiply-adds: plenty for
/// writing a corpus (the encoder is not what the benchmark measures).
struct JPEGForwardDCT {
    /// `basis[u * 8 + x] = α(u)·cos((2x + 1)uπ / 16)`, α(0) = √(1/8), α(u > 0) = √(2/8).
    private let basis: [Float] = (0..<64).map { index in
        let frequency = Double(index / 8)
        let position = Double(index % 8)
        let alpha = frequency == 0 ? (1.0 / 8).squareRoot() : (2.0 / 8).squareRoot()
        return Float(alpha * cos((2 * position + 1) * frequency * Double.pi / 16))
    }

    /// Transforms the 8 rows at `block` (level-shifted samples, top to bottom) in place, using the
    /// 8 rows at `scratch` as working space.
    ///
    /// On return `block[v][u]` holds the coefficient of horizontal frequency `v` and vertical
    /// frequency `u`: the transpose of T.81's layout, which the quantizer reads accordingly,
    /// saving a transposition.
    func transform(_ block: UnsafeMutablePointer<SIMD8<Float>>, scratch: UnsafeMutablePointer<SIMD8<Float>>) {
        basis.withUnsafeBufferPointer { basis in
            multiply(basis, block, into: scratch)
            transpose(scratch, into: block)
            multiply(basis, block, into: scratch)
            block.update(from: scratch, count: 8)
        }
    }

    /// `output = C · input`: output row `u` is `Σₓ C[u][x] · input[x]`.
    @inline(__always)
    private func multiply(
        _ basis: UnsafeBufferPointer<Float>, _ input: UnsafeMutablePointer<SIMD8<Float>>,
        into output: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        for frequency in 0..<8 {
            var sum = SIMD8<Float>.zero
            for position in 0..<8 {
                sum += basis[frequency &* 8 &+ position] * input[position]
            }
            output[frequency] = sum
        }
    }

    @inline(__always)
    private func transpose(_ rows: UnsafeMutablePointer<SIMD8<Float>>, into columns: UnsafeMutablePointer<SIMD8<Float>>)
    {
        for column in 0..<8 {
            columns[column] = SIMD8(
                rows[0][column], rows[1][column], rows[2][column], rows[3][column],
                rows[4][column], rows[5][column], rows[6][column], rows[7][column])
        }
    }
}
