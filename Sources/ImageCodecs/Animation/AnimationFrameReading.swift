/// One format's frame decoder under an ``AnimationFrameCursor``: it decodes a frame's pixels and
/// draws them on the canvas; the cursor keeps the canvas, the order and the disposal.
package protocol AnimationFrameReading: Sendable {
    /// Decodes frame `index` of `info` and draws its rows on `canvas` with
    /// ``AnimationCanvas/composeRow(_:at:of:)``; the canvas is prepared for the frame already.
    ///
    /// - Returns: Whether the frame was damaged (a file cut short inside it: the rows decoded are
    ///   drawn). A reader asked to be strict throws instead.
    mutating func composeFrame(
        _ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas
    ) throws(BitmapDecoderError) -> Bool
}
