import Foundation

/// Small files whose headers declare images within the decoders' default pixel limit (64 Mi
/// pixels) but whose decodes would hold hundreds of MiB: the decompression bombs of issue #34,
/// built in memory for the tests and the benchmark.
///
/// | bomb                              | file      | what a naive decode holds                    |
/// |-----------------------------------|-----------|----------------------------------------------|
/// | ``palettePNG(side:)``             | ~8 KB     | a 256 MiB RGBA bitmap (8192²)                |
/// | ``interlacedPNG(side:)``          | ~520 KB   | 512 MiB of filtered passes + 256 MiB bitmap  |
/// | ``progressiveJPEG(side:)``        | ~400 KB   | 384 MiB of coefficients + 256 MiB bitmap     |
public enum DecompressionBombs {
    /// A 1-bit palette PNG of `side` × `side` black pixels: every filtered byte is zero.
    public static func palettePNG(side: Int = 8192) -> Data {
        let rowBytes = (side + 7) / 8
        let filteredCount = side * (rowBytes + 1)
        let header = PNGFile.header(width: UInt32(side), height: UInt32(side), bitDepth: 1, colorType: 3)
        return png(
            header: header, extraChunks: [PNGFile.chunk("PLTE", [0, 0, 0, 255, 255, 255])], zeros: filteredCount)
    }

    /// An Adam7-interlaced 16-bit RGBA PNG of `side` × `side` transparent black pixels.
    public static func interlacedPNG(side: Int = 8192) -> Data {
        // The seven passes: (x start, y start, x step, y step).
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        let filteredCount = passes.reduce(0) { total, pass in
            let width = (side - pass.0 + pass.2 - 1) / pass.2
            let height = (side - pass.1 + pass.3 - 1) / pass.3
            return width > 0 && height > 0 ? total + height * (1 + 8 * width) : total
        }
        let header = PNGFile.header(
            width: UInt32(side), height: UInt32(side), bitDepth: 16, colorType: 6, interlace: 1)
        return png(header: header, extraChunks: [], zeros: filteredCount)
    }

    /// A progressive JPEG of `side` × `side` pixels, three components sampled 4:4:4, whose only
    /// scan is a DC scan of one bit a block: just enough data to pass the decoder's "one bit per
    /// block" check (`3 · (side / 8)²` bits) and reach the coefficients' allocation.
    public static func progressiveJPEG(side: Int = 8192) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            let length = body.count + 2
            bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        }
        segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        let size = [UInt8(side >> 8), UInt8(side & 0xFF)]
        segment(0xC2, [8] + size + size + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        // A DC table with one code, "0", for category 0: every zero bit is a block whose DC is 0.
        segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        segment(0xDA, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0])
        let blocks = 3 * ((side + 7) / 8) * ((side + 7) / 8)
        bytes += [UInt8](repeating: 0, count: (blocks + 7) / 8)
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    /// A PNG whose image data is `count` zero bytes, deflated at 2 bits per 258 bytes: one
    /// dynamic block whose code gives length 258 and distance 1 one bit each, both `0`, so the
    /// matches are zero bytes in the stream.
    private static func png(header: [UInt8], extraChunks: [[UInt8]], zeros count: Int) -> Data {
        var writer = DeflateStreamWriter()
        var literalLengths = [Int](repeating: 0, count: 286)
        literalLengths[0] = 2
        literalLengths[256] = 2
        literalLengths[285] = 1
        let codes = writer.beginDynamicBlock(isFinal: true, literalLengths: literalLengths, distanceLengths: [1, 1])
        writer.dynamicSymbol(0, codes: codes, lengths: literalLengths)
        let matches = (count - 1) / 258
        var bits = 2 * matches
        while bits > 0 {
            writer.writeBits(0, count: min(bits, 32))
            bits -= min(bits, 32)
        }
        for _ in 0..<(count - 1 - matches * 258) { writer.dynamicSymbol(0, codes: codes, lengths: literalLengths) }
        writer.dynamicSymbol(256, codes: codes, lengths: literalLengths)
        // Adler-32 of zeros: a stays 1, b adds 1 per byte.
        let adler = UInt32(count % 65_521) << 16 | 1
        let stream = [0x78, 0x01] + writer.finish() + PNGFile.bigEndian(adler)
        var file = PNGFile.signature + PNGFile.chunk("IHDR", header)
        for chunk in extraChunks { file += chunk }
        for start in stride(from: 0, to: stream.count, by: 65_536) {
            file += PNGFile.chunk("IDAT", stream[start..<min(start + 65_536, stream.count)])
        }
        file += PNGFile.chunk("IEND")
        return Data(file)
    }
}
