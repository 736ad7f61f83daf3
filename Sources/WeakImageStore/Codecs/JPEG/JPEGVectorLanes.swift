/// Lane operations of the JPEG hot loops written with the vector operators that compile to
/// vector instructions. The standard library's `clamped(lowerBound:upperBound:)` and its
/// lane-type conversions (`init(truncatingIfNeeded:)`) are generic loops over the lanes that
/// the optimizer leaves as calls: measured at a fifth of a full-size decode.
enum JPEGVectorLanes {
    /// Each lane clamped to 0...255, branch-free.
    @inline(__always)
    static func clampedToByte(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
        // max(v, 0): subtract v where its sign mask is set.
        let nonNegative = value &- (value & (value &>> 31))
        // min(v, 255): add the (negative) excess over 255 where there is one.
        let excess = nonNegative &- 255
        return 255 &+ (excess & (excess &>> 31))
    }

    /// Eight bytes widened to 32-bit lanes.
    @inline(__always)
    static func widened(bytes: UnsafePointer<UInt8>) -> SIMD8<Int32> {
        SIMD8(
            Int32(bytes[0]), Int32(bytes[1]), Int32(bytes[2]), Int32(bytes[3]),
            Int32(bytes[4]), Int32(bytes[5]), Int32(bytes[6]), Int32(bytes[7]))
    }

    /// Eight 16-bit values widened to 32-bit lanes, sign-extended.
    @inline(__always)
    static func widened(int16s values: UnsafeRawPointer) -> SIMD8<Int32> {
        let packed = values.loadUnaligned(as: SIMD4<Int32>.self)
        // Each 32-bit lane holds two 16-bit values, the first in its low half (little-endian).
        let low = (packed &<< 16) &>> 16
        let high = packed &>> 16
        return SIMD8(
            lowHalf: SIMD4(low[0], high[0], low[1], high[1]), highHalf: SIMD4(low[2], high[2], low[3], high[3]))
    }

    /// The low bytes of eight lanes, lane 0 first in memory (little-endian).
    @inline(__always)
    static func lowBytes(_ value: SIMD8<Int32>) -> UInt64 {
        let pairs = value.evenHalf | (value.oddHalf &<< 8)
        let quads = pairs.evenHalf | (pairs.oddHalf &<< 16)
        // Reinterpreted, not taken lane by lane: extracting the lanes makes LLVM compute every
        // step before it one lane at a time in general-purpose registers.
        return unsafeBitCast(quads, to: UInt64.self)
    }
}
