/// One chunk of a PNG file: its type, its data, and where it starts.
struct PNGChunk {
    /// The four type bytes as one big-endian number, for cheap comparisons (`PNGChunk.idat`).
    let type: UInt32
    /// The chunk's data, between the type and the CRC.
    let data: UnsafeRawBufferPointer
    /// The byte offset of the chunk's length field in the file.
    let offset: Int
    /// The bytes the chunk's CRC-32 covers, its type and data; the stored CRC-32 follows them.
    let checksummedBytes: UnsafeRawBufferPointer
    /// Whether the stored CRC-32 matches. Only an ancillary chunk can be read with a mismatch:
    /// its data is then to be ignored, as libpng drops it with a warning. `true` for a chunk
    /// read without checking it (``isChecksumDeferred``).
    var hasValidChecksum = true
    /// Whether the reader left the CRC-32 for the caller to check (see
    /// ``PNGChunkReader/next(deferringChecksumOf:and:)``).
    var isChecksumDeferred = false

    static let ihdr = fourCharacterCode("IHDR")
    static let plte = fourCharacterCode("PLTE")
    static let idat = fourCharacterCode("IDAT")
    static let iend = fourCharacterCode("IEND")
    static let trns = fourCharacterCode("tRNS")
    static let actl = fourCharacterCode("acTL")
    static let fctl = fourCharacterCode("fcTL")
    static let fdat = fourCharacterCode("fdAT")

    /// The ancillary chunks libpng 1.6 reads itself (Debian's build handles every one), each of
    /// which it refuses before IHDR ("missing IHDR"); it skips other ancillary chunks there.
    static let knownToLibpng: Set<UInt32> = {
        let names: [StaticString] = [
            "bKGD", "cHRM", "eXIf", "gAMA", "hIST", "iCCP", "iTXt", "oFFs", "pCAL", "pHYs", "sBIT", "sCAL",
            "sPLT", "sRGB", "tEXt", "tIME", "tRNS", "zTXt",
        ]
        return Set(names.map(fourCharacterCode))
    }()

    /// Whether a decoder that does not know the chunk must reject the file: the first type
    /// letter is uppercase (bit 5 of its byte clear).
    var isCritical: Bool { type & 0x2000_0000 == 0 }

    /// The type as its four letters, as errors report it.
    var name: String { Self.name(of: type) }

    /// The four letters of a chunk type; bytes that are not printable ASCII appear as `\xNN`.
    static func name(of type: UInt32) -> String {
        var name = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: type >> UInt32(shift))
            if (0x20...0x7E).contains(byte) {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                name += "\\x" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return name
    }

    private static func fourCharacterCode(_ letters: StaticString) -> UInt32 {
        letters.withUTF8Buffer { bytes in
            bytes.reduce(0) { code, byte in code << 8 | UInt32(byte) }
        }
    }
}
