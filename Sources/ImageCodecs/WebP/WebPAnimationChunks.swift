/// The animation of an extended WebP file: the `ANIM` chunk and every `ANMF` frame, read without
/// decoding a pixel (RFC 9649 §2.7.1.1).
package struct WebPAnimationChunks: Sendable {
    /// The canvas background, `0xAARRGGBB` (stored as blue, green, red, alpha).
    package var backgroundColor: UInt32
    /// How many times the animation plays; 0 forever.
    package var loopCount: Int
    package var frames: [WebPFrameRecord]

    /// Reads `ANIM` and the `ANMF` chunks after the `VP8X` chunk.
    ///
    /// - Throws: ``WebPError/missingAnimationHeader`` without an `ANIM` before the first frame,
    ///   ``WebPError/missingImageData`` without a frame, ``WebPError/tooManyFrames(limit:)`` as
    ///   soon as the count passes `maximumFrameCount` (before the rest is read), a frame's own
    ///   error.
    init(
        reading chunks: inout WebPChunkReader, in bytes: UnsafeRawBufferPointer, maximumFrameCount: Int
    ) throws(WebPError) {
        var header: (UInt32, Int)?
        var frames: [WebPFrameRecord] = []
        while let chunk = try chunks.next() {
            switch chunk.fourCC {
            case "ANIM":
                guard chunk.payload.count >= 6 else { throw .badAnimationChunk(chunk: "ANIM", offset: chunk.offset) }
                let start = chunk.payload.lowerBound
                let color =
                    UInt32(bytes[start + 3]) << 24 | UInt32(bytes[start + 2]) << 16 | UInt32(bytes[start + 1]) << 8
                    | UInt32(bytes[start])
                header = (color, Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8)
            case "ANMF":
                guard header != nil else { throw .missingAnimationHeader }
                guard frames.count < maximumFrameCount else { throw .tooManyFrames(limit: maximumFrameCount) }
                frames.append(try WebPFrameRecord(chunk: chunk, in: bytes))
            default:
                continue
            }
        }
        guard let header else { throw .missingAnimationHeader }
        guard !frames.isEmpty else { throw .missingImageData }
        (backgroundColor, loopCount) = header
        self.frames = frames
    }
}

/// One `ANMF` frame: its rectangle on the canvas, duration, blending and disposal, and image.
package struct WebPFrameRecord: Sendable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    /// Milliseconds, as stored.
    package var duration: Int
    /// Whether the frame's rectangle is cleared to transparent after it is shown.
    package var disposesToBackground: Bool
    /// Whether the frame is alpha-blended over the canvas (else it replaces its rectangle).
    package var blends: Bool
    package var image: WebPImageChunk

    init(chunk: WebPChunk, in bytes: UnsafeRawBufferPointer) throws(WebPError) {
        guard chunk.payload.count >= 16 else { throw .badAnimationChunk(chunk: "ANMF", offset: chunk.offset) }
        let start = chunk.payload.lowerBound
        x = WebPContainer.uint24(bytes, at: start) * 2
        y = WebPContainer.uint24(bytes, at: start + 3) * 2
        width = WebPContainer.uint24(bytes, at: start + 6) + 1
        height = WebPContainer.uint24(bytes, at: start + 9) + 1
        duration = WebPContainer.uint24(bytes, at: start + 12)
        let flags = bytes[start + 15]
        disposesToBackground = flags & 0x01 != 0
        blends = flags & 0x02 == 0
        var chunks = WebPChunkReader(bytes, within: start + 16..<chunk.payload.upperBound)
        var alpha: Range<Int>?
        var image: WebPImageChunk?
        while image == nil, let inner = try chunks.next() {
            switch inner.fourCC {
            // The first ALPH chunk, as libwebp's demuxer takes it.
            case "ALPH": alpha = alpha ?? inner.payload
            case "VP8 ", "VP8L":
                // A frame's stream ends with its chunk: libwebp's demuxer hands over just that.
                image = try WebPImageChunk(bitstream: inner, alpha: alpha, streamEnd: 0, in: bytes)
            default: continue
            }
        }
        guard let image else { throw .missingImageData }
        guard image.width == width, image.height == height else {
            throw .canvasMismatch(canvasWidth: width, canvasHeight: height, width: image.width, height: image.height)
        }
        self.image = image
    }
}
