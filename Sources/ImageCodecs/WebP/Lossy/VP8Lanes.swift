/// Lane operations of the VP8 hot loops written with the operators that compile to vector
/// instructions: the standard library's generic `pointwiseMax`, `clamped` and integer lane
/// conversions were left as calls in the loop filter, so these go lane by lane or through
/// masks, which LLVM turns into `punpcklbw`, `packuswb`, `pcmpgtw` and friends.
enum VP8Lanes {
    typealias Bytes = SIMD16<UInt8>
    typealias Wide = SIMD16<Int16>

    @inline(__always)
    static func widened(_ bytes: Bytes) -> Wide {
        Wide(
            Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]), Int16(bytes[4]), Int16(bytes[5]),
            Int16(bytes[6]), Int16(bytes[7]), Int16(bytes[8]), Int16(bytes[9]), Int16(bytes[10]), Int16(bytes[11]),
            Int16(bytes[12]), Int16(bytes[13]), Int16(bytes[14]), Int16(bytes[15]))
    }

    /// Each lane clamped to 0...255 and narrowed to a byte.
    @inline(__always)
    static func narrowed(_ value: Wide) -> Bytes {
        let nonNegative = value & ~(value &>> 15)
        let excess = nonNegative &- 255
        let v = 255 &+ (excess & (excess &>> 15))
        return Bytes(
            UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
            UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
            UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]), UInt8(truncatingIfNeeded: v[8]),
            UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
            UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]),
            UInt8(truncatingIfNeeded: v[15]))
    }

    @inline(__always)
    static func absolute(_ value: Wide) -> Wide {
        let sign = value &>> 15
        return (value ^ sign) &- sign
    }

    @inline(__always)
    static func maximum(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: a .< b) }

    @inline(__always)
    static func clamped(_ value: Wide, _ low: Int16, _ high: Int16) -> Wide {
        let raised = value.replacing(with: low, where: value .< Wide(repeating: low))
        return raised.replacing(with: high, where: raised .> Wide(repeating: high))
    }

    /// Whether every lane of `mask` is clear, in 64-bit tests (`any(_:)` is a loop).
    @inline(__always)
    static func isEmpty(_ mask: SIMDMask<Wide.MaskStorage>) -> Bool {
        let lanes = unsafeBitCast(Wide().replacing(with: -1, where: mask), to: (UInt64, UInt64, UInt64, UInt64).self)
        return lanes.0 | lanes.1 | lanes.2 | lanes.3 == 0
    }
}
