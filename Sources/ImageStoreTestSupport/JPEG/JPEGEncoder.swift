import Foundation
import WeakImageStore

/// Writes a `Bitmap` as a baseline JPEG file (ITU T.81 sequential DCT, Huffman coding, 8-bit
/// samples) the way cameras and `cjpeg` do: a JFIF APP0 header, quantization tables scaled by
/// quality like the IJG's, the standard Huffman tables of Annex K, one interleaved scan, no
/// restart markers.
///
/// | bitmap format | JPEG components |
/// |---|---|
/// | `.gray8` | 1, gray |
/// | `.grayAlpha8` | 1, gray, composited over white |
/// | `.rgba8` | 3, YCbCr (JFIF), composited over white; chroma 4:2:0 (box-averaged) or 4:4:4 |
///
/// Alpha is composited over white rather than dropped, so a cut-out (an avatar's corners) comes
/// out white as on a white page; opaque pixels, which photos are, are unaffected.
public enum JPEGEncoder {
    /// How the chroma components are sampled relative to luma.
    public enum ChromaSampling: Sendable {
        /// Half the luma's resolution both ways (4:2:0), as cameras and `cjpeg` write by default.
        case halved
        /// The luma's resolution (4:4:4).
        case full
    }

    /// The quality of the speed section's libjpeg-turbo files, and a common camera setting.
    public static let defaultQuality = 85

    /// The JPEG file for `bitmap`.
    ///
    /// - Parameters:
    ///   - bitmap: The image; at most 65 535 pixels each way (the frame header's limit).
    ///   - quality: 1...100 as in `cjpeg -quality`. Defaults to 85.
    ///   - chromaSampling: Defaults to ``ChromaSampling/halved`` (4:2:0).
    /// - Complexity: O(pixels).
    public static func encode(_ bitmap: Bitmap, quality: Int = defaultQuality, chromaSampling: ChromaSampling = .halved)
        -> Data
    {
        precondition(
            (1...65_535).contains(bitmap.width) && (1...65_535).contains(bitmap.height),
            "a JPEG frame is 1...65535 pixels each way")
        let isColor = bitmap.format == .rgba8
        let isSubsampled = isColor && chromaSampling == .halved
        let luminanceTable = JPEGQuantizationTable(base: JPEGQuantizationTable.luminanceBase, quality: quality)
        let chrominanceTable = JPEGQuantizationTable(base: JPEGQuantizationTable.chrominanceBase, quality: quality)

        let header = headers(
            width: bitmap.width, height: bitmap.height, isColor: isColor, isSubsampled: isSubsampled,
            tables: isColor ? [luminanceTable, chrominanceTable] : [luminanceTable])
        let mcuSide = isSubsampled ? 16 : 8
        let mcuColumns = (bitmap.width + mcuSide - 1) / mcuSide
        let mcuRows = (bitmap.height + mcuSide - 1) / mcuSide
        var scan = JPEGScanEncoder(
            continuing: header, luminance: luminanceTable, chrominance: chrominanceTable,
            // About a tenth of the RGB size at quality 85; the array grows if needed.
            expectedByteCount: bitmap.width * bitmap.height * (isColor ? 3 : 1) / 8)
        var band = JPEGSampleBand(isColor: isColor, isSubsampled: isSubsampled, mcuColumns: mcuColumns)
        for mcuRow in 0..<mcuRows {
            band.load(mcuRow: mcuRow, of: bitmap)
            scan.encodeMCURow(of: band, mcuColumns: mcuColumns)
        }
        return Data(scan.finish() + [0xFF, 0xD9])
    }

    /// SOI, APP0 (JFIF 1.01, no density, no thumbnail), DQT, SOF0, DHT and SOS.
    private static func headers(
        width: Int, height: Int, isColor: Bool, isSubsampled: Bool, tables: [JPEGQuantizationTable]
    ) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        appendSegment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0], to: &bytes)

        var quantization: [UInt8] = []
        for (identifier, table) in tables.enumerated() {
            quantization += [UInt8(identifier)] + table.zigzagSteps  // 8-bit precision
        }
        appendSegment(0xDB, quantization, to: &bytes)

        // Components 1 (Y), 2 (Cb), 3 (Cr): sampling factors, quantization table.
        let components: [(identifier: UInt8, sampling: UInt8, table: UInt8)] =
            isColor ? [(1, isSubsampled ? 0x22 : 0x11, 0), (2, 0x11, 1), (3, 0x11, 1)] : [(1, 0x11, 0)]
        var frame: [UInt8] = [
            8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
            UInt8(components.count),
        ]
        for component in components {
            frame += [component.identifier, component.sampling, component.table]
        }
        appendSegment(0xC0, frame, to: &bytes)

        var huffman =
            JPEGStandardHuffmanTables.luminanceDC.segmentBody(tableClass: 0, identifier: 0)
            + JPEGStandardHuffmanTables.luminanceAC.segmentBody(tableClass: 1, identifier: 0)
        if isColor {
            huffman +=
                JPEGStandardHuffmanTables.chrominanceDC.segmentBody(tableClass: 0, identifier: 1)
                + JPEGStandardHuffmanTables.chrominanceAC.segmentBody(tableClass: 1, identifier: 1)
        }
        appendSegment(0xC4, huffman, to: &bytes)

        var scanHeader: [UInt8] = [UInt8(components.count)]
        for component in components {
            let tables: UInt8 = component.identifier == 1 ? 0x00 : 0x11  // DC << 4 | AC
            scanHeader += [component.identifier, tables]
        }
        scanHeader += [0, 63, 0]  // all 64 coefficients, no successive approximation
        appendSegment(0xDA, scanHeader, to: &bytes)
        return bytes
    }

    /// A marker segment: `FF marker`, then the big-endian length (which counts itself), then `body`.
    private static func appendSegment(_ marker: UInt8, _ body: [UInt8], to bytes: inout [UInt8]) {
        let length = body.count + 2
        bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        bytes += body
    }
}
