/// libwebp's default "fancy" upsampling of 4:2:0 chroma and its fixed-point YUV → RGB
/// conversion (14-bit constants, `dsp/yuv.h` in 1.2.4), fused into one pass per output row.
///
/// Each output pixel takes its chroma from the four nearest chroma samples weighted 9:3:3:1; the
/// chroma row nearer to the luma row is `near`, the other `far` (the same row at the top and
/// bottom of the image).
enum VP8Upsampler {
    @inline(__always)
    private static func clip(_ value: Int32) -> UInt8 {
        value & ~16383 == 0 ? UInt8(truncatingIfNeeded: value &>> 6) : (value < 0 ? 0 : 255)
    }

    /// Writes one RGBA pixel (alpha 255).
    @inline(__always)
    static func store(y: Int32, u: Int32, v: Int32, to pixel: UnsafeMutablePointer<UInt8>) {
        let luma = (y &* 19077) &>> 8
        let red = clip(luma &+ ((v &* 26149) &>> 8) &- 14234)
        let green = clip(luma &- ((u &* 6419) &>> 8) &- ((v &* 13320) &>> 8) &+ 8708)
        let blue = clip(luma &+ ((u &* 33050) &>> 8) &- 17685)
        let word = UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000
        UnsafeMutableRawPointer(pixel).storeBytes(of: word.littleEndian, as: UInt32.self)
    }

    /// Converts one row of `width` luma samples to RGBA at `output`.
    static func convertRow(
        luma: UnsafePointer<UInt8>, nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
        farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>, width: Int, output: UnsafeMutablePointer<UInt8>
    ) {
        var nearLeftU = Int32(nearU[0])
        var nearLeftV = Int32(nearV[0])
        var farLeftU = Int32(farU[0])
        var farLeftV = Int32(farV[0])
        store(
            y: Int32(luma[0]), u: (3 &* nearLeftU &+ farLeftU &+ 2) &>> 2, v: (3 &* nearLeftV &+ farLeftV &+ 2) &>> 2,
            to: output)
        let lastPair = (width - 1) >> 1
        var x = 1
        while x <= lastPair {
            let nearRightU = Int32(nearU[x])
            let nearRightV = Int32(nearV[x])
            let farRightU = Int32(farU[x])
            let farRightV = Int32(farV[x])
            let sumU = nearLeftU &+ nearRightU &+ farLeftU &+ farRightU &+ 8
            let sumV = nearLeftV &+ nearRightV &+ farLeftV &+ farRightV &+ 8
            let leftDiagonalU = (sumU &+ 2 &* (nearRightU &+ farLeftU)) &>> 3
            let leftDiagonalV = (sumV &+ 2 &* (nearRightV &+ farLeftV)) &>> 3
            let rightDiagonalU = (sumU &+ 2 &* (nearLeftU &+ farRightU)) &>> 3
            let rightDiagonalV = (sumV &+ 2 &* (nearLeftV &+ farRightV)) &>> 3
            store(
                y: Int32(luma[2 * x - 1]), u: (leftDiagonalU &+ nearLeftU) &>> 1,
                v: (leftDiagonalV &+ nearLeftV) &>> 1, to: output + 4 * (2 * x - 1))
            store(
                y: Int32(luma[2 * x]), u: (rightDiagonalU &+ nearRightU) &>> 1,
                v: (rightDiagonalV &+ nearRightV) &>> 1, to: output + 4 * (2 * x))
            nearLeftU = nearRightU
            nearLeftV = nearRightV
            farLeftU = farRightU
            farLeftV = farRightV
            x += 1
        }
        if width & 1 == 0 {
            store(
                y: Int32(luma[width - 1]), u: (3 &* nearLeftU &+ farLeftU &+ 2) &>> 2,
                v: (3 &* nearLeftV &+ farLeftV &+ 2) &>> 2, to: output + 4 * (width - 1))
        }
    }
}
