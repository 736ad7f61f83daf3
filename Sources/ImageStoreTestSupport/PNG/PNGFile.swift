import Foundation

/// Builds PNG files piece by piece, so tests can write exactly the bytes they mean, broken ones
/// included: chunks with any type and data, IHDR fields out of range, chunks in any order.
public enum PNGFile {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk: big-endian data length, type, data, CRC-32 of type and data.
    ///
    /// - Parameters:
    ///   - type: The four-letter chunk type (any string: tests write invalid ones too).
    ///   - data: The chunk's data. Defaults to none.
    public static func chunk<Bytes: Collection<UInt8>>(_ type: String, _ data: Bytes) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var chunk = bigEndian(UInt32(data.count))
        chunk.reserveCapacity(12 + data.count)
        chunk += typeBytes
        chunk += data
        chunk += bigEndian(Checksums.crc32(data, continuing: Checksums.crc32(typeBytes)))
        return chunk
    }

    /// A chunk without data.
    public static func chunk(_ type: String) -> [UInt8] {
        chunk(type, [UInt8]())
    }

    /// The data of an IHDR chunk: size, bit depth, color type, deflate compression, adaptive
    /// filtering, and `interlace` (0 none, 1 Adam7).
    public static func header(
        width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlace: UInt8 = 0
    ) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
    }

    /// A complete file: IHDR, `chunksBeforeImageData`, one IDAT holding `filteredData` in stored
    /// deflate blocks, IEND.
    ///
    /// - Parameters:
    ///   - bitDepth: Defaults to 8.
    ///   - interlace: Defaults to 0, none.
    ///   - chunksBeforeImageData: Whole chunks (PLTE, tRNS, …) as ``chunk(_:_:)`` makes them.
    ///     Defaults to none.
    ///   - filteredData: The image data, each row its filter type byte and filtered bytes.
    public static func png(
        width: UInt32,
        height: UInt32,
        bitDepth: UInt8 = 8,
        colorType: UInt8,
        interlace: UInt8 = 0,
        chunksBeforeImageData: [[UInt8]] = [],
        filteredData: [UInt8]
    ) -> Data {
        var file = signature
        file += chunk(
            "IHDR",
            header(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlace: interlace)
        )
        for extra in chunksBeforeImageData { file += extra }
        file += chunk("IDAT", ZlibStream.stored(filteredData))
        file += chunk("IEND")
        return Data(file)
    }

    /// A file made of the signature and the given bytes (usually chunks), verbatim.
    public static func file(_ chunks: [UInt8]...) -> Data {
        Data(signature + chunks.joined())
    }

    /// The four bytes of `value`, most significant first, as PNG and zlib store integers.
    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
