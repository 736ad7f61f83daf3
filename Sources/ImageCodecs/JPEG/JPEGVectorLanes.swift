/// Lane operations of the JPEG hot loops written with the vector operators that compile to
/// vector instructions. The standard library's `clamped(lowerBound:upperBound:)` is a generic
/// loop over the lanes that the optimizer leaves as calls (see BENCHMARKS.md, "Why the code is
/// the way it is"). The standard library's conversions between
/// integer lane types, `init(truncatingIfNeeded:)`, compile to vector instructions when inlined,
/// but are generic: once more functions used the same specializations, the optimizer left them
/// as calls in the 8×8 inverse DCT, so the conversions here are
/// written lane by lane, which LLVM turns into the same instructions (`punpcklwd`/`psrad`).
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

    /// Each 16-bit lane clamped to 0...255, branch-free, in forms LLVM turns into `pmaxsw` and
    /// `pminsw` on x86 (and, truncated to bytes after it, `packuswb`): `v & ~(v >> 15)` for
    /// max(v, 0), where the 32-bit version's `v - (v & (v >> 15))` compiled to three times the
    /// instructions. The standard library's `pointwiseMax(_:_:)` is generic and was left as a
    /// call.
    @inline(__always)
    static func clampedToByte(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
        let nonNegative = value & ~(value &>> 15)
        let excess = nonNegative &- 255
        return 255 &+ (excess & (excess &>> 15))
    }

    /// The bytes of `low` then `high`, each lane clamped to 0...255 (`packuswb` on x86).
    @inline(__always)
    static func packedToBytes(_ low: SIMD8<Int16>, _ high: SIMD8<Int16>) -> SIMD16<UInt8> {
        // Lane by lane, as the conversions below: the generic `init(truncatingIfNeeded:)` was
        // left as a call in the 4×4 inverse DCT.
        let (a, b) = (clampedToByte(low), clampedToByte(high))
        return SIMD16(
            UInt8(truncatingIfNeeded: a[0]), UInt8(truncatingIfNeeded: a[1]), UInt8(truncatingIfNeeded: a[2]),
            UInt8(truncatingIfNeeded: a[3]), UInt8(truncatingIfNeeded: a[4]), UInt8(truncatingIfNeeded: a[5]),
            UInt8(truncatingIfNeeded: a[6]), UInt8(truncatingIfNeeded: a[7]), UInt8(truncatingIfNeeded: b[0]),
            UInt8(truncatingIfNeeded: b[1]), UInt8(truncatingIfNeeded: b[2]), UInt8(truncatingIfNeeded: b[3]),
            UInt8(truncatingIfNeeded: b[4]), UInt8(truncatingIfNeeded: b[5]), UInt8(truncatingIfNeeded: b[6]),
            UInt8(truncatingIfNeeded: b[7]))
    }

    /// Eight bytes widened to 16-bit lanes.
    @inline(__always)
    static func widened(bytes: UnsafePointer<UInt8>) -> SIMD8<Int16> {
        SIMD8(
            Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]),
            Int16(bytes[4]), Int16(bytes[5]), Int16(bytes[6]), Int16(bytes[7]))
    }

    /// Eight 16-bit lanes widened to 32-bit lanes, sign-extended.
    @inline(__always)
    static func widened(_ value: SIMD8<Int16>) -> SIMD8<Int32> {
        SIMD8(
            Int32(value[0]), Int32(value[1]), Int32(value[2]), Int32(value[3]),
            Int32(value[4]), Int32(value[5]), Int32(value[6]), Int32(value[7]))
    }

    /// Eight 16-bit values widened to 32-bit lanes, sign-extended.
    @inline(__always)
    static func widened(int16s values: UnsafeRawPointer) -> SIMD8<Int32> {
        widened(values.loadUnaligned(as: SIMD8<Int16>.self))
    }

    /// Eight 32-bit lanes truncated to 16 bits.
    @inline(__always)
    static func narrowed(_ value: SIMD8<Int32>) -> SIMD8<Int16> {
        SIMD8(
            Int16(truncatingIfNeeded: value[0]), Int16(truncatingIfNeeded: value[1]),
            Int16(truncatingIfNeeded: value[2]), Int16(truncatingIfNeeded: value[3]),
            Int16(truncatingIfNeeded: value[4]), Int16(truncatingIfNeeded: value[5]),
            Int16(truncatingIfNeeded: value[6]), Int16(truncatingIfNeeded: value[7]))
    }

    /// Whether every lane is zero, in two 64-bit tests (a vector `==` is a loop over the lanes).
    @inline(__always)
    static func isZero(_ value: SIMD8<Int16>) -> Bool {
        let words = unsafeBitCast(value, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }
}
