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
        unfilterRGBRow(filterType, row, prior, destination, pixelCount, addingTo: nil)
    }

    /// ``unfilterRGBRowToRGBA(filterType:row:prior:into:pixelCount:)`` that also adds each RGBA
    /// pixel it writes, alpha included, to four 32-bit sums: a thumbnail's column sums
    /// (``AreaAverager/sumsForWholeRow``). Sub, Average and Paeth rows add each pixel while it is
    /// still in a register: their unfiltering waits on the pixel to the left, so the adds mostly
    /// fill time the loop would spend waiting. None and Up rows, whose loops vectorize, are
    /// added in a second, vectorized pass.
    ///
    /// - Parameters:
    ///   - filterType: The row's filter type, already checked to be 0...4.
    ///   - row: The filtered bytes, without the filter type byte: 3 a pixel.
    ///   - prior: The reconstructed RGBA row above, or zeros for the first row.
    ///   - destination: Room for `pixelCount` RGBA pixels.
    ///   - sums: `4 * pixelCount` sums; each must stay below 2³² after the add.
    ///   - pixelCount: The pixels in the row.
    /// - Complexity: O(`pixelCount`).
    static func unfilterRGBRowToRGBA(
        filterType: UInt8,
        row: UnsafePointer<UInt8>,
        prior: UnsafePointer<UInt8>,
        into destination: UnsafeMutablePointer<UInt8>,
        addingTo sums: UnsafeMutablePointer<UInt32>,
        pixelCount: Int
    ) {
        unfilterRGBRow(filterType, row, prior, destination, pixelCount, addingTo: sums)
    }

    /// Both of the above; inlined into each, so that the one without sums has no trace of them.
    @inline(__always)
    private static func unfilterRGBRow(
        _ filterType: UInt8,
        _ row: UnsafePointer<UInt8>,
        _ prior: UnsafePointer<UInt8>,
        _ destination: UnsafeMutablePointer<UInt8>,
        _ pixelCount: Int,
        addingTo sums: UnsafeMutablePointer<UInt32>?
    ) {
        // Rows without a dependency between pixels (None, Up) vectorize across pixels, and so
        // do the adds on their own: those rows are added after they are written.
        @inline(__always)
        func storeIndependent(_ pixel: SIMD4<Int16>, _ x: Int) {
            storeOpaque(pixel, to: destination + 4 &* x)
        }
        @inline(__always)
        func addIndependentRow() {
            guard let sums else { return }
            for index in 0..<(4 &* pixelCount) {
                sums[index] &+= UInt32(destination[index])
            }
        }
        @inline(__always)
        func store(_ pixel: SIMD4<Int16>, _ x: Int) {
            let narrow = storeOpaque(pixel, to: destination + 4 &* x)
            if let sums {
                let target = UnsafeMutableRawPointer(sums + 4 &* x)
                let total = target.loadUnaligned(as: SIMD4<UInt32>.self) &+ SIMD4<UInt32>(truncatingIfNeeded: narrow)
                target.storeBytes(of: total, as: SIMD4<UInt32>.self)
            }
        }
        var left = SIMD4<Int16>()
        var aboveLeft = SIMD4<Int16>()
        switch filterType {
        case 0:
            for x in 0..<pixelCount {
                storeIndependent(load(row + 3 &* x), x)
            }
            addIndependentRow()
        case 1:
            for x in 0..<pixelCount {
                let pixel = load(row + 3 &* x) &+ left
                store(pixel, x)
                left = pixel
            }
        case 2:
            for x in 0..<pixelCount {
                storeIndependent(load(row + 3 &* x) &+ load(prior + 4 &* x), x)
            }
            addIndependentRow()
        case 3:
            for x in 0..<pixelCount {
                let pixel = (load(row + 3 &* x) &+ (left &+ load(prior + 4 &* x)) &>> 1) & 0xFF
                store(pixel, x)
                left = pixel
            }
        default:
            for x in 0..<pixelCount {
                let above = load(prior + 4 &* x)
                let pixel = (load(row + 3 &* x) &+ paethPredictor(left, above, aboveLeft)) & 0xFF
                store(pixel, x)
                left = pixel
                aboveLeft = above
            }
        }
    }

    /// Stores the low bytes of the first three lanes and an alpha of 255, and returns them.
    @inline(__always)
    @discardableResult
    private static func storeOpaque(_ pixel: SIMD4<Int16>, to bytes: UnsafeMutablePointer<UInt8>) -> SIMD4<UInt8> {
        var narrow = SIMD4<UInt8>(truncatingIfNeeded: pixel)
        narrow[3] = 255
        UnsafeMutableRawPointer(bytes).storeBytes(of: narrow, as: SIMD4<UInt8>.self)
        return narrow
    }
}
