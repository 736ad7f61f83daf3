import Foundation

/// Draws the frames of an animated WebP file on the canvas as libwebp's `WebPAnimDecoder` does,
/// byte for byte.
///
/// A *key frame* (the first; a frame covering the canvas without alpha or without blending; a
/// frame after one disposed to background that covered the canvas or was itself a key frame)
/// starts from a transparent canvas and is drawn as decoded. Any other frame is drawn over the
/// canvas left by the previous frame's disposal, blended with libwebp's integer arithmetic where
/// it blends — except inside the previous frame's rectangle when that was disposed to
/// background, where the frame's pixels are kept as decoded.
struct WebPFrameReader: AnimationFrameReading {
    let data: Data
    let animation: WebPAnimationChunks
    let decoder: WebPDecoder
    let width: Int
    let height: Int
    /// Whether each frame is a key frame, in libwebp's sense.
    let isKeyFrame: [Bool]

    init(data: Data, container: WebPContainer, animation: WebPAnimationChunks, decoder: WebPDecoder) {
        self.data = data
        self.animation = animation
        self.decoder = decoder
        width = container.width
        height = container.height
        var keys: [Bool] = []
        for (index, frame) in animation.frames.enumerated() {
            let covers = { (frame: WebPFrameRecord) in
                frame.width == container.width && frame.height == container.height
            }
            if index == 0 || ((!frame.image.hasAlpha || !frame.blends) && covers(frame)) {
                keys.append(true)
            } else {
                let previous = animation.frames[index - 1]
                keys.append(previous.disposesToBackground && (covers(previous) || keys[index - 1]))
            }
        }
        isKeyFrame = keys
    }

    mutating func composeFrame(
        _ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas
    ) throws(BitmapDecoderError) -> Bool {
        do throws(WebPError) {
            try compose(index, info: info, onto: &canvas)
        } catch {
            throw .webp(error)
        }
        return false
    }

    private func compose(_ index: Int, info: AnimationInfo, onto canvas: inout AnimationCanvas) throws(WebPError) {
        let frame = animation.frames[index]
        var placement = info.frames[index]
        placement.blend = .source
        let previous = index > 0 ? animation.frames[index - 1] : nil
        let blends = frame.blends && !isKeyFrame[index]
        let rowBytes = frame.width * 4
        let blended = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { blended.deallocate() }
        try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(WebPError) in
                try decoder.decodeRows(frame.image, from: bytes) { y, row throws(WebPError) in
                    guard blends else {
                        canvas.composeRow(UnsafeBufferPointer(start: row, count: rowBytes), at: y, of: placement)
                        return
                    }
                    let canvasY = frame.y + y
                    canvas.pixels.withUnsafeBufferPointer { pixels in
                        // The frame lies inside the canvas (checked with the container), so its
                        // row does too.
                        guard let base = pixels.baseAddress else { return }
                        let under = base + (canvasY * width + frame.x) * 4
                        for x in 0..<frame.width {
                            let keepsDecoded =
                                previous.map {
                                    $0.disposesToBackground && canvasY >= $0.y && canvasY < $0.y + $0.height
                                        && frame.x + x >= $0.x && frame.x + x < $0.x + $0.width
                                } ?? false
                            Self.blend(
                                row + x * 4, over: under + x * 4, into: blended + x * 4, keepsSource: keepsDecoded)
                        }
                    }
                    canvas.composeRow(UnsafeBufferPointer(start: blended, count: rowBytes), at: y, of: placement)
                }
            })
        }.typedGet()
    }

    /// libwebp's non-premultiplied "over": alpha `a + b·(256 − a) >> 8`, each channel
    /// `(c·a + d·b') · ⌊2^24 / alpha⌋ >> 24`; a source of alpha 0 leaves the canvas, of alpha 255
    /// replaces it.
    @inline(__always)
    private static func blend(
        _ source: UnsafePointer<UInt8>, over destination: UnsafePointer<UInt8>,
        into output: UnsafeMutablePointer<UInt8>,
        keepsSource: Bool
    ) {
        let sourceAlpha = UInt32(source[3])
        if keepsSource || sourceAlpha == 255 {
            output.update(from: source, count: 4)
            return
        }
        if sourceAlpha == 0 {
            output.update(from: destination, count: 4)
            return
        }
        let destinationFactor = (UInt32(destination[3]) * (256 - sourceAlpha)) >> 8
        let alpha = sourceAlpha + destinationFactor
        let scale = (UInt32(1) << 24) / alpha
        for channel in 0..<3 {
            let unscaled = UInt32(source[channel]) * sourceAlpha + UInt32(destination[channel]) * destinationFactor
            output[channel] = UInt8(truncatingIfNeeded: (unscaled &* scale) >> 24)
        }
        output[3] = UInt8(truncatingIfNeeded: alpha)
    }
}
