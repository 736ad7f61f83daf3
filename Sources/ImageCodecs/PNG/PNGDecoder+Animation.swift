import Foundation

/// APNG: the animation of a PNG with an `acTL` chunk before its image data.
extension PNGDecoder {
    /// The animation of an APNG, read without decoding any frame.
    ///
    /// A still decode (``decode(_:options:)``) of an APNG returns its default image, the `IDAT`
    /// image, as viewers without APNG support and `UIImage(named:)` show it. The frames come from
    /// ``frameCursor(for:options:)``:
    ///
    /// | file                                        | frames                                        |
    /// |---------------------------------------------|-----------------------------------------------|
    /// | `fcTL` before `IDAT`                        | the default image, then each `fdAT` frame     |
    /// | no `fcTL` before `IDAT`                     | each `fdAT` frame; the default image is not one |
    /// | no valid `acTL` before `IDAT`               | none: a still PNG (`nil`)                     |
    ///
    /// Each frame is decoded as a still image of its size would be (the file's colour type, bit
    /// depth, palette, tRNS and interlacing), widened to RGBA8 (gray as R = G = B, 16-bit samples
    /// keeping their high byte), and composed on the canvas as its `fcTL` says. A frame's duration is
    /// `delay_num / delay_den` seconds (`delay_den` 0 meaning 100), except that 10 ms or less plays as
    /// 100 ms, as in browsers. `num_plays` is the loop count (0 forever).
    ///
    /// **Broken animations.** Errors in the animation chunks throw ``PNGError`` from
    /// ``animationInfo(of:)`` and ``frameCursor(for:options:)``: sequence numbers that do not run
    /// 0, 1, 2… over `fcTL` and `fdAT` in file order, a frame without data, a rectangle outside the
    /// canvas or empty, a first frame that is not the whole canvas at 0,0 (whether or not it is the
    /// default image: the stricter reading of the specification, which an early draft stated for
    /// every first frame), a misplaced chunk, a bad CRC-32 on `fcTL` or `fdAT`. Firefox rejects
    /// such an animation and shows the default image; a caller does the same with
    /// ``decode(_:options:)``, which ignores the animation chunks.
    ///
    /// | damage                                         | lenient cursor                  | strict cursor |
    /// |------------------------------------------------|---------------------------------|---------------|
    /// | the file is cut short inside a frame           | the rows decoded (none if interlaced); last frame damaged | throws `truncated` |
    /// | `acTL`'s frame count is not the file's         | the frames found (at most `num_frames`); last frame damaged | throws `frameCountMismatch` |
    /// | a frame's compressed data is invalid           | throws `frameData`              | throws `frameData` |
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The canvas, loop count and frames, or nil for a still PNG (no valid `acTL`
    ///   before `IDAT`). A file cut short, or whose `acTL` counts other frames than it has, gives
    ///   the frames found (at most `num_frames`), as a lenient cursor plays them.
    /// - Throws: ``PNGError``: the still image's errors and the animation chunks' (see above);
    ///   ``PNGError/tooManyFrames(declared:limit:)`` before anything is allocated for the frames.
    /// - Complexity: O(`data.count`): every chunk is read and its CRC-32 checked.
    public func animationInfo(of data: Data) throws(PNGError) -> AnimationInfo? {
        try animation(of: data, options: DecodeOptions()).map(\.info)
    }

    /// A cursor over an APNG's frames, composited on its canvas.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame, and the strictness (see
    ///     ``animationInfo(of:)``).
    /// - Returns: A cursor before the first frame, or nil for a still PNG.
    /// - Throws: What ``animationInfo(of:)`` throws; a strict one also
    ///   ``PNGError/truncated(offset:)`` and ``PNGError/frameCountMismatch(declared:found:)``.
    public func frameCursor(for data: Data, options: DecodeOptions) throws(PNGError) -> AnimationFrameCursor? {
        try animation(of: data, options: options).map {
            AnimationFrameCursor(info: $0.info, reader: $0.reader, options: options)
        }
    }

    /// The animation's description and the reader of its frames.
    private func animation(of data: Data, options: DecodeOptions) throws(PNGError) -> (
        info: AnimationInfo, reader: APNGFrameReader
    )? {
        try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(PNGError) -> (info: AnimationInfo, reader: APNGFrameReader)? in
                guard APNGStructure.declaredFrameCount(bytes) != nil else { return nil }
                return try animation(of: bytes, data: data, options: options)
            })
        }.typedGet()
    }

    private func animation(of bytes: UnsafeRawBufferPointer, data: Data, options: DecodeOptions) throws(PNGError) -> (
        info: AnimationInfo, reader: APNGFrameReader
    )? {
        guard let peeked = Self.peekHeader(bytes) else {
            // The still decoder's error for a broken header.
            _ = try PNGContents(reading: bytes) { _ throws(PNGError) in }
            return nil
        }
        _ = try checkLimits(peeked)
        guard let structure = try APNGStructure(reading: bytes, header: peeked, maximumFrameCount: maximumFrameCount)
        else { return nil }
        let isStrict = options.strictness == .strict
        if isStrict, let offset = structure.truncationOffset { throw .truncated(offset: offset) }
        let isCountWrong = structure.foundFrameCount != structure.declaredFrameCount
        if isStrict, isCountWrong {
            throw .frameCountMismatch(declared: structure.declaredFrameCount, found: structure.foundFrameCount)
        }
        // The chunks up to the end of the default image's data (or a cut before it), closed with
        // IEND, read as the still decoder reads a file: the frames' data after them, which the
        // structure has judged, is not read again.
        let end = structure.imageDataEnd ?? structure.truncationOffset ?? bytes.count
        let prefix = Array(bytes[0..<end]) + [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let canvasBytes = 8 * peeked.width * peeked.height
        let read = { (contentsBytes: UnsafeRawBufferPointer) throws(PNGError) -> APNGFrameReader in
            let contents = try PNGContents(reading: contentsBytes) { header throws(PNGError) in
                // The canvas and the rectangle saved for disposal, beside one frame's decode.
                try checkPeak(peakBytes(of: header, fileCount: bytes.count, thumbnail: nil) + canvasBytes)
            }
            let base = contentsBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            let offsets = { (piece: UnsafeRawBufferPointer) -> Range<Int> in
                let start = (piece.baseAddress ?? base) - base
                return start..<start + piece.count
            }
            return APNGFrameReader(
                data: data, header: contents.header,
                expansion: PixelExpansion(
                    header: contents.header, palette: contents.palette, transparency: contents.transparency),
                frames: structure.frames, defaultImageIsFirstFrame: structure.defaultImageIsFirstFrame,
                imageDataRanges: contents.imageData.map(offsets),
                imageDataChecksumRanges: contents.imageDataChecksumRanges.map(offsets),
                lastFrameIsDamaged: structure.truncationOffset != nil || isCountWrong, isStrict: isStrict,
                wholeInflationLimit: wholeInflationLimit)
        }
        let reader = try prefix.withUnsafeBytes { prefixBytes in
            Result(typedCatching: { () throws(PNGError) in try read(prefixBytes) })
        }.typedGet()
        let info = AnimationInfo(
            width: peeked.width, height: peeked.height, loopCount: structure.playCount,
            frames: structure.frames.map(\.info), format: .png)
        return (info, reader)
    }
}
