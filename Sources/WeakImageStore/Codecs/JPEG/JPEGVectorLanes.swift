/// Lane operations of the JPEG hot loops written with the vector operators that compile to
/// vector instructions. The standard library's `clamped(lowerBound:upperBound:)` is a generic
/// loop over the lanes that the optimizer leaves as calls (with its lane-type conversions it was
/// measured at a fifth of a full-size decode). The conversions between concrete integer lane
/// types, `init(truncatingIfNeeded:)`, do compile to vector instructions with Swift 6.2
/// (`punpcklwd`/`psrad` to widen, `packuswb` to narrow on x86), and are used where they fit.
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

    /// Each 16-bit lane clamped to 0...255, branch-free.
    @inline(__always)
    static func clampedToByte(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
        let nonNegative = value &- (value & (value &>> 15))
        let excess = nonNegative &- 255
        return 255 &+ (excess & (excess &>> 15))
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
        SIMD8<Int32>(truncatingIfNeeded: values.loadUnaligned(as: SIMD8<Int16>.self))
    }
}
