/// One VP8L transform (RFC 9649 §4), undone in place on ARGB pixels.
struct VP8LTransform {
    enum Kind {
        case predictor
        case crossColor
        case subtractGreen
        case colorIndexing
    }

    let kind: Kind
    /// The width of the image the transform outputs.
    let width: Int
    /// The block size (predictor, cross-colour) or the pixel-bundling (colour indexing) bits.
    let bits: Int
    /// The transform's sub-image, or the colour table padded to 2^(8 >> bits) entries.
    let data: [UInt32]

    /// The width of the image the transform is undone from: narrower for bundled indices.
    var codedWidth: Int {
        kind == .colorIndexing ? VP8LDecoder.subsampled(width, bits: bits) : width
    }

    /// Undoes the transform on `height` rows of `pixels`, coded at ``codedWidth``, leaving them
    /// at ``width``; the buffer holds `width * height` values.
    func undo(_ pixels: UnsafeMutablePointer<UInt32>, height: Int) {
        switch kind {
        case .predictor: undoPredictor(pixels, height: height)
        case .crossColor: undoCrossColor(pixels, height: height)
        case .subtractGreen: undoSubtractGreen(pixels, count: width * height)
        case .colorIndexing: undoColorIndexing(pixels, height: height)
        }
    }

    private func undoSubtractGreen(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for index in 0..<count {
            let pixel = pixels[index]
            let green = (pixel >> 8) & 0xFF
            let redBlue = ((pixel & 0x00FF_00FF) &+ (green << 16 | green)) & 0x00FF_00FF
            pixels[index] = (pixel & 0xFF00_FF00) | redBlue
        }
    }

    private func undoCrossColor(_ pixels: UnsafeMutablePointer<UInt32>, height: Int) {
        let blocksPerRow = VP8LDecoder.subsampled(width, bits: bits)
        data.withUnsafeBufferPointer { data in
            for y in 0..<height {
                let row = pixels + y * width
                let blockRow = (y >> bits) * blocksPerRow
                var x = 0
                while x < width {
                    // One block's multipliers for its whole run of the row.
                    let element = data[blockRow + (x >> bits)]
                    let greenToRed = Int32(Int8(truncatingIfNeeded: element))
                    let greenToBlue = Int32(Int8(truncatingIfNeeded: element >> 8))
                    let redToBlue = Int32(Int8(truncatingIfNeeded: element >> 16))
                    let end = min(width, (x >> bits + 1) << bits)
                    for index in x..<end {
                        let pixel = row[index]
                        let green = Int32(Int8(truncatingIfNeeded: pixel >> 8))
                        let red = (Int32(pixel >> 16 & 0xFF) &+ ((greenToRed &* green) >> 5)) & 0xFF
                        var blue = Int32(pixel & 0xFF) &+ ((greenToBlue &* green) >> 5)
                        blue = (blue &+ ((redToBlue &* Int32(Int8(truncatingIfNeeded: red))) >> 5)) & 0xFF
                        row[index] = (pixel & 0xFF00_FF00) | UInt32(red) << 16 | UInt32(blue)
                    }
                    x = end
                }
            }
        }
    }

    private func undoColorIndexing(_ pixels: UnsafeMutablePointer<UInt32>, height: Int) {
        let packedWidth = codedWidth
        let bitsPerIndex = 8 >> bits
        let indexMask = (1 << bitsPerIndex) - 1
        let perPackedMask = (1 << bits) - 1
        data.withUnsafeBufferPointer { palette in
            // Rows from the last, pixels from the right: every write lands at or after every read
            // still to come, as the packed rows are no wider than the output rows.
            for y in stride(from: height - 1, through: 0, by: -1) {
                let packed = pixels + y * packedWidth
                let row = pixels + y * width
                for x in stride(from: width - 1, through: 0, by: -1) {
                    let green = Int(packed[x >> bits] >> 8) & 0xFF
                    let index = (green >> (bitsPerIndex * (x & perPackedMask))) & indexMask
                    row[x] = palette[index]
                }
            }
        }
    }
}
