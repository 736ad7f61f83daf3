/// Drawing a frame without the per-row staging and the copy of the canvas a general frame needs,
/// for the frames most files are made of: whole rows of the canvas, and indexed GIF rows.
extension AnimationCanvas {
    /// Whether `frame`'s rectangle is the whole canvas.
    package func isCovered(by frame: AnimationFrameInfo) -> Bool {
        frame.x == 0 && frame.y == 0 && frame.width == width && frame.height == height
    }

    /// Starts a frame that covers the canvas (see ``isCovered(by:)``) and sets every pixel — it
    /// blends source, or has no transparent pixel — on a new buffer: the previous pixels are
    /// never read, so a canvas shared with the last frame handed out is not copied first.
    ///
    /// The buffer is not cleared: call this after ``prepare(for:)``, and only for a frame whose
    /// every pixel is drawn before the canvas is read again — a frame that stops part-way must
    /// throw, so that its caller discards this canvas (``AnimationFrameCursor`` does).
    package mutating func startAfresh(for frame: AnimationFrameInfo) {
        precondition(isCovered(by: frame), "only a frame that covers the canvas starts afresh")
        let count = width * height * 4
        pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Takes `newPixels` (straight RGBA8, `width × height × 4` bytes) as the canvas: a frame that
    /// set every pixel somewhere else first.
    package mutating func replacePixels(with newPixels: [UInt8]) {
        precondition(newPixels.count == width * height * 4, "a canvas's pixels are width × height × 4 bytes")
        pixels = newPixels
    }

    /// Calls `body` with canvas row `frame.y`'s first byte when `frame`'s rows are whole canvas rows
    /// inside it that blend ``AnimationBlend/source`` — so a decoder can write its rows there, one
    /// after another `width × 4` bytes apart — and with nil otherwise.
    package mutating func withWholeRows<Result>(
        of frame: AnimationFrameInfo, _ body: (UnsafeMutablePointer<UInt8>?) -> Result
    ) -> Result {
        guard frame.blend == .source, frame.x == 0, frame.width == width, frame.y >= 0,
            frame.y + frame.height <= height,
            !pixels.isEmpty
        else { return body(nil) }
        let first = frame.y * width * 4
        return pixels.withUnsafeMutableBufferPointer { canvas in body(canvas.baseAddress.map { $0 + first }) }
    }

    /// Draws `count` palette indices of row `frameRow` of `frame`, clipped to the canvas: each
    /// index becomes its `palette` word (RGBA8 in memory order), except `transparentIndex`, which
    /// leaves the canvas as it is (a GIF's "over").
    package mutating func composeIndexedRow(
        _ indices: UnsafePointer<UInt8>, count: Int, palette: UnsafePointer<UInt32>, transparentIndex: Int?,
        at frameRow: Int, of frame: AnimationFrameInfo
    ) {
        let canvasRow = frame.y + frameRow
        let left = max(frame.x, 0)
        let right = min(frame.x + min(count, frame.width), width)
        guard canvasRow >= 0, canvasRow < height, left < right else { return }
        let source = indices + (left - frame.x)
        let columns = right - left
        pixels.withUnsafeMutableBufferPointer { canvas in
            guard let base = canvas.baseAddress else { return }
            let destination = UnsafeMutableRawPointer(base + (canvasRow * width + left) * 4)
            if let transparentIndex {
                let skipped = UInt8(truncatingIfNeeded: transparentIndex)
                for column in 0..<columns where source[column] != skipped {
                    destination.storeBytes(of: palette[Int(source[column])], toByteOffset: column &* 4, as: UInt32.self)
                }
            } else {
                for column in 0..<columns {
                    destination.storeBytes(of: palette[Int(source[column])], toByteOffset: column &* 4, as: UInt32.self)
                }
            }
        }
    }
}
