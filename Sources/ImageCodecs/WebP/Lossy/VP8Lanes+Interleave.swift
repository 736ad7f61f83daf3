/// Interleaving the low or high halves of two vectors, in bytes, 16-bit words, 32-bit words and
/// 64-bit words: the four rounds of a byte matrix transpose. Written lane by lane so that LLVM
/// sees one shuffle and emits `punpckl*`/`punpckh*` (the 64-bit shifts and masks of a transpose in
/// general registers cost four times as many instructions).
extension VP8Lanes {
    @inline(__always)
    static func lowBytes(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    @inline(__always)
    static func highBytes(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(
            a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
    }

    @inline(__always)
    static func lowWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        let (x, y) = (unsafeBitCast(a, to: SIMD8<UInt16>.self), unsafeBitCast(b, to: SIMD8<UInt16>.self))
        return unsafeBitCast(SIMD8(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3]), to: Bytes.self)
    }

    @inline(__always)
    static func highWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        let (x, y) = (unsafeBitCast(a, to: SIMD8<UInt16>.self), unsafeBitCast(b, to: SIMD8<UInt16>.self))
        return unsafeBitCast(SIMD8(x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7]), to: Bytes.self)
    }

    @inline(__always)
    static func lowDoubleWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        let (x, y) = (unsafeBitCast(a, to: SIMD4<UInt32>.self), unsafeBitCast(b, to: SIMD4<UInt32>.self))
        return unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: Bytes.self)
    }

    @inline(__always)
    static func highDoubleWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        let (x, y) = (unsafeBitCast(a, to: SIMD4<UInt32>.self), unsafeBitCast(b, to: SIMD4<UInt32>.self))
        return unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: Bytes.self)
    }

    @inline(__always)
    static func lowQuadWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(lowHalf: a.lowHalf, highHalf: b.lowHalf)
    }

    @inline(__always)
    static func highQuadWords(_ a: Bytes, _ b: Bytes) -> Bytes {
        Bytes(lowHalf: a.highHalf, highHalf: b.highHalf)
    }
}
