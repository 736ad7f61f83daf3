import Foundation
import WeakImageStore

/// Writes a `Bitmap` as a PNG file the way image editors do with libpng's defaults: a filter
/// chosen per row, zlib level 6 with the `Z_FILTERED` strategy, 64 KiB IDAT chunks.
///
/// | bitmap format | PNG color type |
/// |---|---|
/// | `.gray8` | 0, gray |
/// | `.grayAlpha8` | 4, gray + alpha |
/// | `.rgba8`, every pixel opaque | 2, RGB (alpha dropped, as exporters do for photos) |
/// | `.rgba8` | 6, RGBA |
public enum PNGEncoder {
    private static let idatChunkSize = 65_536

    /// The PNG file for `bitmap`.
    ///
    /// - Complexity: O(pixels); dominated by the compression.
    public static func encode(_ bitmap: Bitmap) -> Data {
        let (colorType, channels, pixels) = layout(of: bitmap)
        let filtered = PNGRowFilter.filterAdaptively(
            pixels, width: bitmap.width, height: bitmap.height, bytesPerPixel: channels)

        var file = PNGFile.signature
        // Bit depth 8, no interlace.
        let header = PNGFile.header(
            width: UInt32(bitmap.width), height: UInt32(bitmap.height), bitDepth: 8, colorType: colorType)
        file += PNGFile.chunk("IHDR", header)

        let compressed = ZlibStream.compressed(filtered)
        var start = 0
        repeat {
            let end = min(start + idatChunkSize, compressed.count)
            file += PNGFile.chunk("IDAT", compressed[start..<end])
            start = end
        } while start < compressed.count
        file += PNGFile.chunk("IEND")
        return Data(file)
    }

    /// The color type, channels per pixel and pixel bytes to store for `bitmap`.
    private static func layout(of bitmap: Bitmap) -> (colorType: UInt8, channels: Int, pixels: [UInt8]) {
        switch bitmap.format {
        case .gray8:
            return (0, 1, bitmap.pixels)
        case .grayAlpha8:
            return (4, 2, bitmap.pixels)
        case .rgba8:
            return isOpaque(bitmap.pixels) ? (2, 3, droppingAlpha(bitmap.pixels)) : (6, 4, bitmap.pixels)
        }
    }

    /// Whether every pixel of straight RGBA8 `pixels` has alpha 255.
    static func isOpaque(_ pixels: [UInt8]) -> Bool {
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    }

    /// RGBA8 `pixels` as RGB8.
    static func droppingAlpha(_ pixels: [UInt8]) -> [UInt8] {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(pixels.count / 4 * 3)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            rgb.append(pixels[index])
            rgb.append(pixels[index + 1])
            rgb.append(pixels[index + 2])
        }
        return rgb
    }
}
