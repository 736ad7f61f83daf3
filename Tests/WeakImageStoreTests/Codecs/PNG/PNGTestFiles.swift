import Foundation
import XCTest

@testable import WeakImageStore

/// PngSuite access and in-memory PNG construction for the PNG decoder tests.
enum PNGTestFiles {
    /// One row of the PngSuite `MANIFEST.tsv`.
    struct SuiteEntry {
        let name: String
        let isValid: Bool
        let width: Int?
        let height: Int?
    }

    /// The PngSuite folder: `$PNGSUITE_DIR`, else `../shared/pngsuite` beside the package root.
    ///
    /// - Throws: `XCTSkip` if neither holds a `MANIFEST.tsv`.
    static func suiteDirectory() throws -> URL {
        try SharedTestData.directory(named: "pngsuite", environmentVariable: "PNGSUITE_DIR")
    }

    /// The rows of `MANIFEST.tsv`.
    static func manifest() throws -> [SuiteEntry] {
        let text = try String(contentsOf: suiteDirectory().appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4 else { return nil }
            return SuiteEntry(
                name: fields[0], isValid: fields[1] == "ok", width: Int(fields[2]), height: Int(fields[3])
            )
        }
    }

    /// The bytes of one suite file.
    static func suiteFile(_ name: String) throws -> Data {
        try Data(contentsOf: suiteDirectory().appendingPathComponent(name))
    }

    /// libpng's RGBA8 pixels for one valid suite file.
    static func reference(_ name: String) throws -> Data {
        let base = (name as NSString).deletingPathExtension
        return try Data(contentsOf: suiteDirectory().appendingPathComponent("reference/\(base).rgba"))
    }

    // MARK: Building files

    /// A chunk: length, type, data, CRC-32.
    static func chunk(_ type: String, _ data: [UInt8] = []) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        let crc = typeAndData.withUnsafeBytes { CRC32.checksum($0) }
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc)
    }

    /// IHDR data.
    static func header(
        width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlace: UInt8 = 0
    ) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
    }

    /// A zlib stream holding `data` in stored (uncompressed) blocks of at most `blockSize` bytes.
    static func zlibStored(_ data: [UInt8], blockSize: Int = 65_535) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(blockSize, data.count - offset)
            let isFinal: UInt8 = offset + count == data.count ? 1 : 0
            let length = UInt16(count)
            stream += [isFinal, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        let adler = data.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { Adler32.checksum($0, count: buffer.count) } ?? 1
        }
        return stream + bigEndian(adler)
    }

    /// A complete PNG file from IHDR fields, extra chunks before IDAT, and filtered image data.
    static func png(
        width: UInt32,
        height: UInt32,
        bitDepth: UInt8 = 8,
        colorType: UInt8,
        interlace: UInt8 = 0,
        chunksBeforeImageData: [[UInt8]] = [],
        filteredData: [UInt8]
    ) -> Data {
        var file = PNGChunkReader.signature
        file += chunk(
            "IHDR",
            header(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlace: interlace)
        )
        for extra in chunksBeforeImageData { file += extra }
        file += chunk("IDAT", zlibStored(filteredData))
        file += chunk("IEND")
        return Data(file)
    }

    /// A file made of the signature and the given chunks, verbatim.
    static func file(_ chunks: [UInt8]...) -> Data {
        Data(PNGChunkReader.signature + chunks.joined())
    }

    /// The four bytes of `value`, most significant first.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Decodes with the default decoder and returns the typed error, or `nil` if decoding succeeds.
    static func decodingError(_ data: Data, decoder: PNGDecoder = PNGDecoder()) -> PNGError? {
        do {
            _ = try decoder.decode(data, scale: 1)
            return nil
        } catch {
            return error
        }
    }
}
