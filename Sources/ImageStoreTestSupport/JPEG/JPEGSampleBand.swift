import WeakImageStore

/// One MCU row of a bitmap as the encoder's component planes: level-shifted samples (value − 128)
/// in `Float`, padded to whole MCUs by repeating the last column and row (T.81 A.2.4 leaves the
/// padding to the encoder; repeating edges keeps it from adding ringing), chroma box-averaged
/// over 2×2 pixels when subsampled.
///
/// Colour conversion is JFIF's (full-range BT.601). Alpha is composited over white, so a
/// translucent pixel looks as it would on a white page; opaque pixels are unchanged.
struct JPEGSampleBand {
    let isColor: Bool
    let isSubsampled: Bool
    /// Padded width and MCU row height of the luma plane.
    let lumaWidth: Int
    let lumaHeight: Int
    /// Padded width and height of each chroma plane (the luma's, halved when subsampled).
    let chromaWidth: Int
    let chromaHeight: Int
    private(set) var luma: [Float]
    private(set) var blueDifference: [Float]
    private(set) var redDifference: [Float]
    /// Full-resolution chroma before averaging, kept to avoid allocating per band.
    private var fullBlueDifference: [Float]
    private var fullRedDifference: [Float]

    init(isColor: Bool, isSubsampled: Bool, mcuColumns: Int) {
        self.isColor = isColor
        self.isSubsampled = isColor && isSubsampled
        let factor = self.isSubsampled ? 2 : 1
        lumaWidth = mcuColumns * 8 * factor
        lumaHeight = 8 * factor
        chromaWidth = isColor ? mcuColumns * 8 : 0
        chromaHeight = isColor ? 8 : 0
        luma = [Float](repeating: 0, count: lumaWidth * lumaHeight)
        blueDifference = [Float](repeating: 0, count: chromaWidth * chromaHeight)
        redDifference = blueDifference
        let fullCount = self.isSubsampled ? lumaWidth * lumaHeight : 0
        fullBlueDifference = [Float](repeating: 0, count: fullCount)
        fullRedDifference = fullBlueDifference
    }

    /// Fills the planes with MCU row `mcuRow` of `bitmap`.
    mutating func load(mcuRow: Int, of bitmap: Bitmap) {
        let channels = bitmap.format.bytesPerPixel
        let width = bitmap.width
        let height = bitmap.height
        let firstRow = mcuRow * lumaHeight
        let subsampled = isSubsampled
        let isColor = isColor
        let lumaWidth = lumaWidth
        let lumaHeight = lumaHeight
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            luma.withUnsafeMutableBufferPointer { luma in
                blueDifference.withUnsafeMutableBufferPointer { blueOut in
                    redDifference.withUnsafeMutableBufferPointer { redOut in
                        fullBlueDifference.withUnsafeMutableBufferPointer { fullBlue in
                            fullRedDifference.withUnsafeMutableBufferPointer { fullRed in
                                // Without subsampling chroma is written straight into its plane.
                                let blue = subsampled ? fullBlue : blueOut
                                let red = subsampled ? fullRed : redOut
                                for bandRow in 0..<lumaHeight {
                                    let sourceRow = min(firstRow + bandRow, height - 1)
                                    let rowStart = sourceRow * width * channels
                                    for column in 0..<lumaWidth {
                                        let pixel = rowStart + min(column, width - 1) * channels
                                        let index = bandRow * lumaWidth + column
                                        Self.convert(
                                            pixels, at: pixel, channels: channels, isColor: isColor, into: index,
                                            luma, blue, red)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if subsampled { averageChroma() }
    }

    /// Converts the pixel at byte `pixel` into sample `index` of the planes.
    @inline(__always)
    private static func convert(
        _ pixels: UnsafeBufferPointer<UInt8>, at pixel: Int, channels: Int, isColor: Bool, into index: Int,
        _ luma: UnsafeMutableBufferPointer<Float>, _ blue: UnsafeMutableBufferPointer<Float>,
        _ red: UnsafeMutableBufferPointer<Float>
    ) {
        switch channels {
        case 1:
            luma[index] = Float(pixels[pixel]) - 128
        case 2:
            luma[index] = overWhite(Float(pixels[pixel]), alpha: Float(pixels[pixel + 1])) - 128
        default:
            let alpha = Float(pixels[pixel + 3])
            let r = overWhite(Float(pixels[pixel]), alpha: alpha)
            let g = overWhite(Float(pixels[pixel + 1]), alpha: alpha)
            let b = overWhite(Float(pixels[pixel + 2]), alpha: alpha)
            luma[index] = 0.299 * r + 0.587 * g + 0.114 * b - 128
            guard isColor else { return }
            blue[index] = -0.168_736 * r - 0.331_264 * g + 0.5 * b
            red[index] = 0.5 * r - 0.418_688 * g - 0.081_312 * b
        }
    }

    @inline(__always)
    private static func overWhite(_ value: Float, alpha: Float) -> Float {
        alpha == 255 ? value : (value * alpha + 255 * (255 - alpha)) / 255
    }

    /// Box-averages the full-resolution chroma over 2×2 pixels into the chroma planes.
    private mutating func averageChroma() {
        let fullWidth = lumaWidth
        for row in 0..<chromaHeight {
            for column in 0..<chromaWidth {
                let topLeft = 2 * row * fullWidth + 2 * column
                let bottomLeft = topLeft + fullWidth
                blueDifference[row * chromaWidth + column] =
                    (fullBlueDifference[topLeft] + fullBlueDifference[topLeft + 1]
                        + fullBlueDifference[bottomLeft] + fullBlueDifference[bottomLeft + 1]) * 0.25
                redDifference[row * chromaWidth + column] =
                    (fullRedDifference[topLeft] + fullRedDifference[topLeft + 1]
                        + fullRedDifference[bottomLeft] + fullRedDifference[bottomLeft + 1]) * 0.25
            }
        }
    }
}
