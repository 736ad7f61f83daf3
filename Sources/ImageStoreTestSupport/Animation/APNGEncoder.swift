import Foundation

/// Writes APNG files from full-canvas RGBA frames, for tests and the benchmark: the default image
/// is the first frame, every frame covers the canvas (dispose none, blend source), each frame's
/// rows filtered per row and deflated as ``PNGEncoder`` does, as RGB when every frame is opaque
/// (as exporters store opaque animations, and ``PNGEncoder`` opaque images).
public enum APNGEncoder {
    /// The APNG file.
    ///
    /// - Parameters:
    ///   - width: The canvas width.
    ///   - height: The canvas height.
    ///   - frames: Straight-alpha RGBA8 pixels of each frame, `width × height × 4` bytes.
    ///   - delayMilliseconds: How long each frame shows.
    ///   - loopCount: `num_plays`: 0 forever.
    public static func encode(
        width: Int, height: Int, frames: [[UInt8]], delayMilliseconds: Int, loopCount: Int = 0
    ) -> Data {
        precondition(!frames.isEmpty, "an animation has a frame")
        let isOpaque = frames.allSatisfy(PNGEncoder.isOpaque)
        var file = PNGFile.signature
        file += PNGFile.chunk(
            "IHDR",
            PNGFile.header(width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: isOpaque ? 2 : 6))
        file += PNGFile.chunk("acTL", PNGFile.bigEndian(UInt32(frames.count)) + PNGFile.bigEndian(UInt32(loopCount)))
        var sequence: UInt32 = 0
        for (index, pixels) in frames.enumerated() {
            precondition(pixels.count == width * height * 4, "a frame covers the canvas")
            var control =
                PNGFile.bigEndian(sequence) + PNGFile.bigEndian(UInt32(width)) + PNGFile.bigEndian(UInt32(height))
            control += PNGFile.bigEndian(0) + PNGFile.bigEndian(0)
            control += [UInt8(delayMilliseconds >> 8), UInt8(delayMilliseconds & 0xFF), 0x03, 0xE8, 0, 0]
            file += PNGFile.chunk("fcTL", control)
            sequence += 1
            let filtered = PNGRowFilter.filterAdaptively(
                isOpaque ? PNGEncoder.droppingAlpha(pixels) : pixels, width: width, height: height,
                bytesPerPixel: isOpaque ? 3 : 4)
            let compressed = ZlibStream.compressed(filtered)
            if index == 0 {
                file += PNGFile.chunk("IDAT", compressed)
            } else {
                file += PNGFile.chunk("fdAT", PNGFile.bigEndian(sequence) + compressed)
                sequence += 1
            }
        }
        file += PNGFile.chunk("IEND")
        return Data(file)
    }
}
