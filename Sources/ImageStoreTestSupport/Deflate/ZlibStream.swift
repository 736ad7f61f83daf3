/// The zlib wrapper around DEFLATE data (RFC 1950): a two-byte header, the data, and the
/// big-endian Adler-32 of the uncompressed bytes.
public enum ZlibStream {
    /// `data` in stored (uncompressed) blocks of at most `blockSize` bytes, header `78 01`.
    ///
    /// - Parameters:
    ///   - data: The uncompressed bytes.
    ///   - blockSize: 1...65535 bytes per block. Defaults to 65 535, the most a block holds.
    public static func stored(_ data: [UInt8], blockSize: Int = 65_535) -> [UInt8] {
        precondition((1...65_535).contains(blockSize), "a stored block holds 1...65535 bytes")
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
        return stream + PNGFile.bigEndian(Checksums.adler32(data))
    }

    /// `data` compressed as zlib's level 6 with the `Z_FILTERED` strategy compresses it, header
    /// `78 9C`: what libpng writes by default.
    ///
    /// - Complexity: O(`data.count`), but slow per byte: it prepares corpora, it is not measured.
    public static func compressed(_ data: [UInt8]) -> [UInt8] {
        [0x78, 0x9C] + Deflate.compress(data) + PNGFile.bigEndian(Checksums.adler32(data))
    }

    /// A raw DEFLATE stream (a ``DeflateStreamWriter``'s, say) wrapped with header `78 01` and the
    /// Adler-32 of `output`, which need not be what the stream decodes to: tests write wrong ones.
    public static func wrap(_ deflate: [UInt8], adlerOf output: [UInt8]) -> [UInt8] {
        [0x78, 0x01] + deflate + PNGFile.bigEndian(Checksums.adler32(output))
    }
}
