/// One image of a GIF file as its blocks describe it, before any pixel is decoded: where its
/// colour table and LZW data lie in the file, and the graphic control extension before it.
struct GIFFrameRecord: Sendable, Equatable {
    /// The frame's rectangle on the logical screen, in pixels.
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Whether the rows are stored in the four interlaced passes.
    var isInterlaced: Bool
    /// The byte range of the local colour table (3 bytes an entry), if the frame has one.
    var localColorTable: Range<Int>?
    /// The palette index drawn transparent, from the graphic control extension.
    var transparentIndex: UInt8?
    /// The delay after the frame, in hundredths of a second, as stored.
    var delay: Int
    /// The disposal method as stored (0…7).
    var disposalMethod: UInt8
    /// The LZW minimum code size byte as stored.
    var minimumCodeSize: Int
    /// The offset of the first data sub-block's length byte.
    var dataStart: Int
    /// The sum of the data sub-blocks' lengths (what the LZW decoder reads), only the bytes the
    /// file holds when it is cut short.
    var compressedCount: Int
    /// Where the file ends inside the frame's data, if it does.
    var truncatedAt: Int?

    var pixelCount: Int { width * height }

    /// The frame as the animation model describes it: the browser rule for short delays applied,
    /// the disposal method mapped (see ``GIFDecoder``), blended over the canvas.
    var animationFrame: AnimationFrameInfo {
        AnimationFrameInfo(
            nanoseconds: Self.playedMilliseconds(delay: delay) * 1_000_000, x: x, y: y, width: width,
            height: height, disposal: Self.disposal(disposalMethod), blend: .over)
    }

    /// Browsers play a delay of 0 or 1 hundredths (0–10 ms) as 100 ms: files made for old
    /// browsers' "as fast as possible" would otherwise spin.
    static func playedMilliseconds(delay: Int) -> Int {
        delay <= 1 ? 100 : delay * 10
    }

    /// 2 restores to the background, 3 to the previous canvas; 0, 1 and the undefined 4–7 leave
    /// the frame in place.
    static func disposal(_ method: UInt8) -> AnimationDisposal {
        switch method {
        case 2: .background
        case 3: .previous
        default: .none
        }
    }
}
