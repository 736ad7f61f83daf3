import Foundation
import WeakImageStore

/// Writes a ``Bitmap`` as a PNG file the way image editors do with libpng's defaults: a filter
/// chosen per row, zlib level 6 with the `Z_FILTERED` strategy, 64 KiB IDAT chunks.
///
/// | bitmap format | PNG color type |
/// |---|---|
/// | `.gray8` | 0, gray |
/// | `.grayAlpha8` | 4, gray + alpha |
/// | `.rgba8`, every pixel opaque | 2, RGB (alpha dropped, as exporters do for photos) |
/// | `.rgba8` | 6, RGBA |
enum PNGEncoder {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let idatChunkSize = 65_536

    /// The PNG file for `bitmap`.
    ///
    /// - Complexity: O(pixels); dominated by ``Deflate``.
    static func encode(_ bitmap: Bitmap) -> Data {
        let (colorType, channels, pixels) = layout(of: bitmap)
        let filtered = RowFilter.filterRows(pixels, width: bitmap.width, height: bitmap.height, bytesPerPixel: channels)

        var file = signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(bitmap.width))
        header.appendBigEndian(UInt32(bitmap.height))
        header += [8, colorType, 0, 0, 0]  // bit depth 8, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &file)

        let compressed = zlibWrap(filtered)
        var start = 0
        repeat {
            let end = min(start + idatChunkSize, compressed.count)
            appendChunk("IDAT", compressed[start..<end], to: &file)
            start = end
        } while start < compressed.count
        appendChunk("IEND", [], to: &file)
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
            let pixels = bitmap.pixels
            let isOpaque = stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
            guard isOpaque else { return (6, 4, pixels) }
            var rgb: [UInt8] = []
            rgb.reserveCapacity(pixels.count / 4 * 3)
            for index in stride(from: 0, to: pixels.count, by: 4) {
                rgb.append(pixels[index])
                rgb.append(pixels[index + 1])
                rgb.append(pixels[index + 2])
            }
            return (2, 3, rgb)
        }
    }

    /// The zlib stream (RFC 1950): header for a 32 KiB window and default level, DEFLATE data,
    /// Adler-32 of the uncompressed bytes.
    private static func zlibWrap(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x9C]
        stream += Deflate.compress(data)
        stream.appendBigEndian(Checksums.adler32(data))
        return stream
    }

    private static func appendChunk<Bytes: Collection<UInt8>>(_ type: String, _ body: Bytes, to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file.appendBigEndian(UInt32(body.count))
        file += typeBytes
        file += body
        let crc = Checksums.crc32(body, continuing: Checksums.crc32(typeBytes))
        file.appendBigEndian(crc)
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ])
    }
}
