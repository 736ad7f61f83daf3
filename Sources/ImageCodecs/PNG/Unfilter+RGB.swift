/// 8-bit RGB without a key color, the format of most photos: reconstructed and widened to opaque
/// RGBA in one pass, straight into the output.
extension Unfilter {
    /// Reconstructs one row of 8-bit RGB and writes it as RGBA with alpha 255.
    ///
    /// The row above is read from the output, 4 bytes a pixel (its alpha lane takes part in the
    /// arithmetic, but every lane is independent and the alpha result is replaced by 255). Each
    /// pixel's 3 filtered bytes are read with a 4-byte load (the byte after a row is the next
    /// row's filter type byte or the data's slack) before its 4 output bytes are written.
    ///
    /// - Parameters:
    ///   - filterType: The row's filter type, already checked to be 0...4.
    ///   - row: The filtered bytes, without the filter type byte: 3 a pixel.
    ///   - prior: The reconstructed RGBA row above, or zeros for the first row.
    ///   - destination: Room for `pixelCount` RGBA pixels.
    ///   - pixelCount: The pixels in the row.
    /// - Complexity: O(`pixelCount`).
    static func unfilterRGBRowToRGBA(
        filterType: UInt8,
        row: UnsafePointer<UInt8>,
        prior: UnsafePointer<UInt8>,
        into destination: UnsafeMutablePointer<UInt8>,
        pixelCount: Int
    ) {
        switch filterType {
        case 0:
            for x in 0..<pixelCount {
                storeOpaque(loadBytes(row + 3 &* x), to: destination + 4 &* x)
            }
        case 1:
            // Sums in byte lanes wrap modulo 256 as the filter does, so the chain from one
            // pixel to the next is a single byte-wise add.
            var left = SIMD4<UInt8>()
            for x in 0..<pixelCount {
                left = loadBytes(row + 3 &* x) &+ left
                storeOpaque(left, to: destination + 4 &* x)
            }
        case 2:
            for x in 0..<pixelCount {
                storeOpaque(loadBytes(row + 3 &* x) &+ loadBytes(prior + 4 &* x), to: destination + 4 &* x)
            }
        case 3:
            // See unfilterPixels: the loop carries `~left`.
            var invertedLeft = SIMD4<UInt8>(repeating: 255)
            for x in 0..<pixelCount {
                let invertedAbove = ~loadBytes(prior + 4 &* x)
                invertedLeft = roundedUpAverage(invertedLeft, invertedAbove) &- loadBytes(row + 3 &* x)
                storeOpaque(~invertedLeft, to: destination + 4 &* x)
            }
        default:
            var left = SIMD4<Int16>()
            var aboveLeft = SIMD4<Int16>()
            for x in 0..<pixelCount {
                let above = load(prior + 4 &* x)
                let pixel = (load(row + 3 &* x) &+ paethPredictor(left, above, aboveLeft)) & 0xFF
                storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: pixel), to: destination + 4 &* x)
                left = pixel
                aboveLeft = above
            }
        }
    }

    /// Stores the first three lanes and an alpha of 255, in vector registers (a lane insert
    /// compiles to scalar code, and a detour through a general register costs two moves).
    @inline(__always)
    static func storeOpaque(_ pixel: SIMD4<UInt8>, to bytes: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(bytes).storeBytes(of: pixel | opaqueAlpha, as: SIMD4<UInt8>.self)
    }

    private static let opaqueAlpha = SIMD4<UInt8>(0, 0, 0, 255)
}
