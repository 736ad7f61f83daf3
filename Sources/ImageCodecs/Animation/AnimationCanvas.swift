/// The canvas an animation's frames are composited on: straight-alpha RGBA8, transparent black
/// before the first frame, each frame's rectangle clipped to it.
///
/// A frame is drawn in three steps: ``prepare(for:)`` (which saves the rectangle when the frame
/// will be disposed to ``AnimationDisposal/previous``), ``composeRow(_:at:of:)`` for each of its
/// rows in any order, and, once the frame has been shown, ``dispose(after:)``. The canvas is a
/// value: a copy is the whole composition state, so decoding can resume from it.
package struct AnimationCanvas: Sendable {
    package let width: Int
    package let height: Int
    /// `width × height × 4` bytes once the first frame is prepared; empty before, so the state
    /// before the first frame costs nothing to keep.
    var pixels: [UInt8] = []
    /// The rectangle as it was before a frame disposed to ``AnimationDisposal/previous``.
    private var saved: [UInt8] = []

    package init(width: Int, height: Int) {
        precondition(width >= 1 && height >= 1, "a canvas has at least one pixel")
        self.width = width
        self.height = height
    }

    /// The bytes this canvas holds.
    package var retainedBytes: Int { pixels.count + saved.count }

    /// Readies the canvas for `frame`: allocates it on the first frame, and saves the rectangle if
    /// the frame will be disposed to ``AnimationDisposal/previous``.
    package mutating func prepare(for frame: AnimationFrameInfo) {
        if pixels.isEmpty { pixels = [UInt8](repeating: 0, count: width * height * 4) }
        guard frame.disposal == .previous, let clip = clip(frame) else {
            saved = []
            return
        }
        saved = []
        saved.reserveCapacity(clip.width * clip.height * 4)
        for row in clip.rows {
            let start = (row * width + clip.columns.lowerBound) * 4
            saved.append(contentsOf: pixels[start..<start + clip.width * 4])
        }
    }

    /// Draws row `frameRow` of `frame`: `row` holds the frame's `width` pixels as straight-alpha
    /// RGBA8, blended as the frame says.
    package mutating func composeRow(_ row: UnsafeBufferPointer<UInt8>, at frameRow: Int, of frame: AnimationFrameInfo)
    {
        precondition(row.count >= frame.width * 4, "a row holds the frame's width")
        let canvasRow = frame.y + frameRow
        guard canvasRow >= 0, canvasRow < height, let clip = clip(frame) else { return }
        let firstColumn = clip.columns.lowerBound
        let sourceOffset = (firstColumn - frame.x) * 4
        let count = clip.width
        let blend = frame.blend
        pixels.withUnsafeMutableBufferPointer { canvas in
            guard let destination = canvas.baseAddress.map({ $0 + (canvasRow * width + firstColumn) * 4 }),
                let source = row.baseAddress.map({ $0 + sourceOffset })
            else { return }
            switch blend {
            case .source:
                destination.update(from: source, count: count * 4)
            case .over:
                Self.blendOver(source, onto: destination, count: count)
            }
        }
    }

    /// Applies `frame`'s disposal, once it has been shown and before the next frame is prepared.
    package mutating func dispose(after frame: AnimationFrameInfo) {
        guard !pixels.isEmpty, let clip = clip(frame) else { return }
        switch frame.disposal {
        case .none:
            return
        case .background:
            pixels.withUnsafeMutableBufferPointer { canvas in
                guard let base = canvas.baseAddress else { return }
                for row in clip.rows {
                    (base + (row * width + clip.columns.lowerBound) * 4).update(repeating: 0, count: clip.width * 4)
                }
            }
        case .previous:
            guard saved.count == clip.width * clip.height * 4 else { return }
            pixels.withUnsafeMutableBufferPointer { canvas in
                saved.withUnsafeBufferPointer { saved in
                    guard let base = canvas.baseAddress, let source = saved.baseAddress else { return }
                    for (index, row) in clip.rows.enumerated() {
                        (base + (row * width + clip.columns.lowerBound) * 4).update(
                            from: source + index * clip.width * 4, count: clip.width * 4)
                    }
                }
            }
            saved = []
        }
    }

    /// The canvas as a bitmap recording `scale`, area-averaged to at most `maxPixelSize` pixels
    /// on its longest side when given (the thumbnail rule of the still decoders).
    package func bitmap(scale: Int, maxPixelSize: Int?) -> Bitmap {
        let full = Bitmap(
            width: width, height: height, scale: scale, format: .rgba8,
            pixels: pixels.isEmpty ? [UInt8](repeating: 0, count: width * height * 4) : pixels)
        guard let maxPixelSize, let target = ThumbnailSize(width: width, height: height, maxPixelSize: maxPixelSize)
        else { return full }
        return full.averaged(to: target)
    }

    /// The part of `frame`'s rectangle inside the canvas, or nil if none is.
    private func clip(_ frame: AnimationFrameInfo) -> (rows: Range<Int>, columns: Range<Int>, width: Int, height: Int)?
    {
        let top = max(frame.y, 0)
        let bottom = min(frame.y + frame.height, height)
        let left = max(frame.x, 0)
        let right = min(frame.x + frame.width, width)
        // A frame wholly past the canvas (a GIF may place one there) has bounds that cross.
        guard top < bottom, left < right else { return nil }
        return (top..<bottom, left..<right, right - left, bottom - top)
    }

    /// Straight-alpha "over", in the integer arithmetic APNG decoders use (an opaque source pixel
    /// replaces, a transparent one leaves the canvas, a canvas pixel of alpha 0 takes the source).
    @inline(__always)
    private static func blendOver(
        _ source: UnsafePointer<UInt8>, onto destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        for pixel in 0..<count {
            let s = source + pixel &* 4
            let d = destination + pixel &* 4
            let alpha = UInt32(s[3])
            if alpha == 255 {
                d.update(from: s, count: 4)
            } else if alpha != 0 {
                let destinationAlpha = UInt32(d[3])
                if destinationAlpha == 0 {
                    d.update(from: s, count: 4)
                } else {
                    let u = alpha &* 255
                    let v = (255 &- alpha) &* destinationAlpha
                    let total = u &+ v
                    for channel in 0..<3 {
                        d[channel] = UInt8((UInt32(s[channel]) &* u &+ UInt32(d[channel]) &* v) / total)
                    }
                    d[3] = UInt8(total / 255)
                }
            }
        }
    }
}
