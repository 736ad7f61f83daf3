/// The chunks of a WebP file (RFC 9649 §2): where the image's bitstream and its alpha lie, and
/// the sizes, read without decoding a pixel.
///
/// | first chunk | file                                                                  |
/// |-------------|-----------------------------------------------------------------------|
/// | `VP8 `      | simple lossy                                                          |
/// | `VP8L`      | simple lossless                                                       |
/// | `VP8X`      | extended: `ICCP`, `EXIF`, `XMP ` and unknown chunks skipped, an `ALPH` before a `VP8 ` used (the last one, as libwebp), animation in `ANIM`/`ANMF` |
///
/// Every chunk must end inside the RIFF payload, and the RIFF payload inside the file; bytes
/// after the RIFF payload are ignored.
package struct WebPContainer: Sendable {
    /// How the image's bitstream is coded.
    package enum Coding: Sendable, Equatable {
        /// `VP8 `: lossy, with an optional `ALPH` chunk.
        case lossy
        /// `VP8L`: lossless, alpha inside.
        case lossless
    }

    /// The canvas: the `VP8X` size, else the image's.
    package var width: Int
    package var height: Int
    /// The still image's bitstream (the first frame's for an animation).
    package var image: WebPImageChunk
    /// Whether the file is animated (a `VP8X` with the animation flag), and its frames.
    package var animation: WebPAnimationChunks?

    /// The frames the file shows: 1 for a still.
    package var frameCount: Int { animation?.frames.count ?? 1 }

    /// Reads the chunks of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - maximumFrameCount: The most `ANMF` frames an animation may have.
    ///   - checkSize: Checks the canvas against the decoder's limits as soon as it is known,
    ///     before anything else is read.
    /// - Throws: ``WebPError`` for a file that is not WebP, is truncated, or whose sizes lie, or
    ///   what `checkSize` throws.
    init(
        reading bytes: UnsafeRawBufferPointer, maximumFrameCount: Int = .max,
        checkSize: (_ width: Int, _ height: Int) throws(WebPError) -> Void
    ) throws(WebPError) {
        var chunks = try WebPChunkReader(bytes)
        guard let first = try chunks.next() else { throw .missingImageData }
        switch first.fourCC {
        case "VP8 ", "VP8L":
            image = try WebPImageChunk(bitstream: first, alpha: nil, streamEnd: bytes.count, in: bytes)
            (width, height) = (image.width, image.height)
            try checkSize(width, height)
        case "VP8X":
            guard first.payload.count == 10 else { throw .badVP8XSize(size: first.payload.count) }
            let flags = bytes[first.payload.lowerBound]
            width = Self.uint24(bytes, at: first.payload.lowerBound + 4) + 1
            height = Self.uint24(bytes, at: first.payload.lowerBound + 7) + 1
            try checkSize(width, height)
            if flags & 0x02 != 0 {
                let animation = try WebPAnimationChunks(
                    reading: &chunks, in: bytes, maximumFrameCount: maximumFrameCount)
                self.animation = animation
                image = animation.frames[0].image
            } else {
                image = try Self.stillImage(after: &chunks, in: bytes)
                guard image.width == width, image.height == height else {
                    throw .canvasMismatch(
                        canvasWidth: width, canvasHeight: height, width: image.width, height: image.height)
                }
            }
        default:
            throw .unexpectedFirstChunk(chunk: first.fourCC)
        }
    }

    /// The image of an extended still file: the first `VP8 ` or `VP8L` chunk, with the last
    /// `ALPH` chunk before it.
    private static func stillImage(
        after chunks: inout WebPChunkReader, in bytes: UnsafeRawBufferPointer
    ) throws(WebPError) -> WebPImageChunk {
        var alpha: Range<Int>?
        while let chunk = try chunks.next() {
            switch chunk.fourCC {
            case "ALPH": alpha = chunk.payload
            case "VP8 ", "VP8L":
                return try WebPImageChunk(bitstream: chunk, alpha: alpha, streamEnd: bytes.count, in: bytes)
            default: continue
            }
        }
        throw .missingImageData
    }

    static func uint24(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }
}

/// A `VP8 ` or `VP8L` chunk and the `ALPH` chunk that goes with it, with the size its
/// bitstream's header declares.
package struct WebPImageChunk: Sendable {
    package var coding: WebPContainer.Coding
    /// The bitstream's byte range in the file. A still's VP8L stream runs to the end of the file,
    /// past its chunk: libwebp reads it so, and decodes files whose `VP8L` size is too small.
    package var bitstream: Range<Int>
    /// Where the data the bitstream's decoder may read ends: the end of the file for a still
    /// (libwebp reads a lossy frame's last partition, and a lossless stream, that far), the
    /// chunk's end for an animation frame (the demuxer cuts it there).
    package var streamEnd: Int
    /// The `ALPH` payload's byte range (lossy only).
    package var alpha: Range<Int>?
    package var width: Int
    package var height: Int
    /// Whether the image may hold alpha: an `ALPH` chunk, or a VP8L header's alpha hint.
    package var hasAlpha: Bool

    init(
        bitstream chunk: WebPChunk, alpha: Range<Int>?, streamEnd: Int, in bytes: UnsafeRawBufferPointer
    ) throws(WebPError) {
        bitstream = chunk.payload.lowerBound..<max(chunk.payload.upperBound, streamEnd)
        self.streamEnd = bitstream.upperBound
        let start = chunk.payload.lowerBound
        if chunk.fourCC == "VP8L" {
            coding = .lossless
            self.alpha = nil
            // The header is read from the stream, which may run past a chunk shorter than it.
            guard bitstream.count >= 5, bytes[start] == 0x2F else {
                throw .badLosslessHeader(signature: bitstream.isEmpty ? 0 : bytes[start])
            }
            let bits =
                UInt32(bytes[start + 1]) | UInt32(bytes[start + 2]) << 8 | UInt32(bytes[start + 3]) << 16
                | UInt32(bytes[start + 4]) << 24
            width = Int(bits & 0x3FFF) + 1
            height = Int(bits >> 14 & 0x3FFF) + 1
            hasAlpha = alpha != nil || bits >> 28 & 1 == 1
            let version = Int(bits >> 29)
            guard version == 0 else { throw .unsupportedLosslessVersion(version: version) }
        } else {
            coding = .lossy
            bitstream = chunk.payload
            self.alpha = alpha
            hasAlpha = alpha != nil
            // The frame tag (3 bytes), the start code 9D 01 2A, then the 14-bit sides.
            guard chunk.payload.count >= 10 else { throw .lossyBitstream("the VP8 frame header is truncated") }
            guard bytes[start] & 1 == 0 else { throw .lossyBitstream("the VP8 frame is not a key frame") }
            guard bytes[start + 3] == 0x9D, bytes[start + 4] == 0x01, bytes[start + 5] == 0x2A else {
                throw .lossyBitstream("the VP8 start code is missing")
            }
            width = (Int(bytes[start + 6]) | Int(bytes[start + 7]) << 8) & 0x3FFF
            height = (Int(bytes[start + 8]) | Int(bytes[start + 9]) << 8) & 0x3FFF
            guard width > 0, height > 0 else { throw .zeroSize }
        }
    }
}
