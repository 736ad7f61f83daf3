/// The seam a lossy (`VP8 `) decoder plugs into: ``WebPDecoder`` finds the bitstream, checks the
/// limits, decodes the `ALPH` plane and streams rows; the lossy decoder only turns the VP8
/// bitstream into RGB rows.
///
/// The decoder hands rows top first, each `3 * width` bytes (red, green, blue), and throws
/// ``WebPError/lossyBitstream(_:)`` (or ``WebPError/cancelled``) for what it refuses; what the row
/// handler throws it rethrows unchanged.
package protocol WebPLossyDecoding: Sendable {
    /// Decodes the VP8 bitstream `bitstream` of `width` × `height` (its frame header says so,
    /// checked by the caller), handing each RGB row to `row` with its index.
    func decodeRows(
        _ bitstream: UnsafeRawBufferPointer, width: Int, height: Int,
        row: (_ y: Int, _ rgb: UnsafePointer<UInt8>) throws(WebPError) -> Void
    ) throws(WebPError)

    /// The most bytes the lossy decoder itself holds while decoding an image of `width` ×
    /// `height` (its scratch rows, not the output).
    func scratchBytes(width: Int, height: Int) -> Int
}
