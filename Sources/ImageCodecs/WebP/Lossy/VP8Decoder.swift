/// Decodes the payload of a WebP `VP8 ` chunk (a VP8 key frame, RFC 6386) to RGBA, pixel for
/// pixel as libwebp 1.2.4 does with its default options (fancy upsampling, no dithering).
///
/// This is the seam the WebP container calls: it finds the chunk, checks it with
/// ``header(of:)``, then streams rows with ``decode(_:maximumPixelCount:rows:)`` and writes the
/// alpha from an `ALPH` chunk over the 255 this decoder puts there.
package struct VP8Decoder {
    /// Reads the frame's size from the 10-byte key frame header.
    ///
    /// - Parameter chunk: The chunk's payload (at least its first 10 bytes, and the whole first
    ///   partition for the partition-size check).
    /// - Returns: The width and height in pixels, each 1...16383.
    /// - Throws: ``VP8Error`` when the header is short, not a shown key frame, or inconsistent.
    package static func header(of chunk: UnsafeRawBufferPointer) throws(VP8Error) -> (width: Int, height: Int) {
        let header = try VP8FrameHeader(tagOf: chunk)
        return (header.width, header.height)
    }

    /// Decodes the frame and hands each RGBA row (alpha 255) to `sink`, top to bottom, as soon
    /// as the loop filter can no longer change it.
    ///
    /// - Parameters:
    ///   - chunk: The chunk's payload; libwebp reads the last token partition up to the end of
    ///     the data it was given, so passing the bytes to the end of the file matches it exactly.
    ///   - maximumPixelCount: The largest width × height accepted; checked before allocating.
    ///   - sink: Receives the row index and `4 × width` bytes, valid only during the call.
    /// - Throws: ``VP8Error`` for a malformed or truncated frame; rows already handed out stay.
    /// - Complexity: O(width × height) time; memory O(width), about 40 bytes per column.
    package static func decode(
        _ chunk: UnsafeRawBufferPointer, maximumPixelCount: Int = 1 << 28,
        rows sink: (_ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void
    ) throws(VP8Error) {
        let header = try VP8FrameHeader(tagOf: chunk)
        guard header.width * header.height <= maximumPixelCount else {
            throw .imageTooLarge(width: header.width, height: header.height, limit: maximumPixelCount)
        }
        try VP8FrameDecoder.decode(chunk, header: header, rows: sink)
    }

    /// Decodes the frame into one RGBA buffer (alpha 255), rows top to bottom without padding.
    ///
    /// - Throws: ``VP8Error`` as ``decode(_:maximumPixelCount:rows:)`` does.
    package static func decodeRGBA(
        _ chunk: UnsafeRawBufferPointer, maximumPixelCount: Int = 1 << 28
    ) throws(VP8Error) -> (width: Int, height: Int, pixels: [UInt8]) {
        let (width, height) = try header(of: chunk)
        guard width * height <= maximumPixelCount else {
            throw .imageTooLarge(width: width, height: height, limit: maximumPixelCount)
        }
        var failure: VP8Error?
        // Uninitialised: every row is written before the array is returned, or the decode failed
        // and the array is dropped with its count at zero.
        let pixels = [UInt8](unsafeUninitializedCapacity: 4 * width * height) { buffer, initializedCount in
            do throws(VP8Error) {
                // Rows are converted in place, so the sink has nothing to copy.
                try VP8FrameDecoder.decode(
                    chunk, header: VP8FrameHeader(tagOf: chunk), destination: buffer.baseAddress!
                ) { _, _ in }
                initializedCount = 4 * width * height
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return (width, height, pixels)
    }
}
