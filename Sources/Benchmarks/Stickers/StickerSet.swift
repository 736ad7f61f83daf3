import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The chat's distinct animated stickers, written as files: half GIF, half APNG, 64 to 512 px,
/// 8 to 120 frames (the larger ones shorter, as real stickers are), a moving shape over a
/// gradient so every frame differs.
struct StickerSet {
    struct Sticker {
        let name: String
        let side: Int
        let frameCount: Int
        let bytes: Int
    }

    let directory: URL
    let stickers: [Sticker]

    /// Writes `count` stickers under a new temporary folder.
    static func make(count: Int, quick: Bool) throws -> StickerSet {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sides = quick ? [64, 96, 128] : [64, 96, 128, 192, 256, 384, 512]
        var stickers: [Sticker] = []
        for index in 0..<count {
            let side = sides[index % sides.count]
            // 120 frames at 64 px down to 8 at 512 px: about the same bytes per sticker.
            let frameCount = max(8, min(120, 120 * 64 * 64 / (side * side) * 2 + index % 7))
            let frames = quick ? min(frameCount, 24) : frameCount
            let isGIF = index % 2 == 0
            let data =
                isGIF
                ? gif(side: side, frames: frames, seed: index) : apng(side: side, frames: frames, seed: index)
            let name = "sticker\(index).\(isGIF ? "gif" : "png")"
            try data.write(to: directory.appendingPathComponent(name))
            stickers.append(Sticker(name: name, side: side, frameCount: frames, bytes: data.count))
        }
        return StickerSet(directory: directory, stickers: stickers)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A ball crossing a banded background, over 64 palette colours; frames of 40 ms.
    static func gif(side: Int, frames: Int, seed: Int) -> Data {
        var palette: [UInt8] = []
        for colour in 0..<64 {
            palette += [UInt8(colour * 4), UInt8((colour * 37 + seed * 11) % 256), UInt8(255 - colour * 4)]
        }
        let encoded = (0..<frames).map { frame in
            var indices = [UInt8](repeating: 0, count: side * side)
            let (cx, cy, radius) = ball(side: side, frame: frame, frames: frames)
            for y in 0..<side {
                for x in 0..<side {
                    let inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) < radius * radius
                    indices[y * side + x] = inside ? 63 : UInt8((x + y + frame) * 48 / (2 * side) % 48)
                }
            }
            return GIFEncoder.Frame(indices: indices, width: side, height: side, delay: 4)
        }
        return GIFEncoder.encode(width: side, height: side, palette: palette, frames: encoded)
    }

    /// The same kind of motion in RGBA, with a translucent ball; frames of 40 ms.
    private static func apng(side: Int, frames: Int, seed: Int) -> Data {
        APNGEncoder.encode(
            width: side, height: side, frames: apngFrames(side: side, frames: frames, seed: seed), delayMilliseconds: 40
        )
    }

    /// ``apng(side:frames:seed:)``'s frames: straight RGBA8 canvases.
    static func apngFrames(side: Int, frames: Int, seed: Int) -> [[UInt8]] {
        (0..<frames).map { frame in
            var rgba = [UInt8](repeating: 255, count: side * side * 4)
            let (cx, cy, radius) = ball(side: side, frame: frame, frames: frames)
            for y in 0..<side {
                for x in 0..<side {
                    let offset = (y * side + x) * 4
                    let inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) < radius * radius
                    rgba[offset] = UInt8((x * 255 / side + seed * 9) % 256)
                    rgba[offset + 1] = UInt8((y * 255 / side + frame * 3) % 256)
                    rgba[offset + 2] = inside ? 255 : 90
                    rgba[offset + 3] = inside ? 200 : 255
                }
            }
            return rgba
        }
    }

    private static func ball(side: Int, frame: Int, frames: Int) -> (Int, Int, Int) {
        let phase = Double(frame) / Double(frames) * 2 * Double.pi
        let center = Double(side) / 2
        return (Int(center + cos(phase) * center * 0.6), Int(center + sin(phase) * center * 0.6), max(side / 8, 2))
    }
}
