import Foundation

@testable import ImageCodecs
@testable import WeakImageStore

/// A decoder of a made-up animated format, so the store's animations are tested apart from the
/// GIF and APNG decoders: the file is `[frameCount, width, height, delay in 10 ms]`, frame *i*
/// fills the canvas with grey level *i*. A file of one frame is a still image.
struct SyntheticAnimationDecoder: ImageDecoding {
    /// Frame decodes, across every cursor.
    final class Counter: Sendable {
        private let count = Lock(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }

    private struct Reader: AnimationFrameReading {
        let decodes: Counter

        func composeFrame(_ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas) -> Bool {
            decodes.increment()
            let row = [UInt8](
                repeatElement([UInt8(index), UInt8(index), UInt8(index), 255], count: info.width).joined())
            row.withUnsafeBufferPointer { row in
                for y in 0..<info.height { canvas.composeRow(row, at: y, of: info.frames[index]) }
            }
            return false
        }
    }

    let decodes = Counter()

    static func file(frames: Int, width: Int = 8, height: Int = 8, delay: Int = 10) -> [UInt8] {
        [UInt8(frames), UInt8(width), UInt8(height), UInt8(delay)]
    }

    func header(of data: Data) -> ImageHeader? {
        guard data.count == 4 else { return nil }
        return ImageHeader(
            width: Int(data[1]), height: Int(data[2]), format: ImageFormat(name: "synthetic"), frameCount: Int(data[0]))
    }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
        guard
            var cursor = try animatedFrames(of: data, options: options)?.cursor ?? cursor(data, options, stillToo: true)
        else { throw FakeDecoder.Failure() }
        return try cursor.nextFrame()
    }

    func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Bitmap>? {
        guard data.count == 4, data[0] > 1 else { return nil }
        return cursor(data, options, stillToo: false).map { AnimatedFrames(cursor: $0) }
    }

    private func cursor(_ data: Data, _ options: DecodeOptions, stillToo: Bool) -> AnimationFrameCursor? {
        guard data.count == 4, data[0] >= 1 else { return nil }
        let (width, height) = (Int(data[1]), Int(data[2]))
        let frame = AnimationFrameInfo(
            duration: Double(data[3]) / 100, x: 0, y: 0, width: width, height: height, disposal: .none,
            blend: .source)
        let info = AnimationInfo(
            width: width, height: height, loopCount: 0, frames: Array(repeating: frame, count: Int(data[0])),
            format: ImageFormat(name: "synthetic"))
        return AnimationFrameCursor(info: info, reader: Reader(decodes: decodes), options: options)
    }
}
