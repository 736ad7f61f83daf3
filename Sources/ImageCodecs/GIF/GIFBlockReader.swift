/// Reads a GIF file's bytes and data sub-block chains (a length byte, that many bytes, until a
/// 0 length), never past the end: every read returns nil when the file is too short.
struct GIFBlockReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func readByte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `count` bytes, indexed from 0, or nil (the offset moved to the end) if the file is
    /// shorter.
    mutating func read(_ count: Int) -> UnsafeRawBufferPointer? {
        guard remaining >= count else {
            offset = bytes.count
            return nil
        }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    /// One sub-block's data (empty for the terminator), or nil if the file ends inside it.
    mutating func readSubBlock() -> UnsafeRawBufferPointer? {
        guard let length = readByte() else { return nil }
        return read(Int(length))
    }

    /// Skips a chain up to and including its terminator; false if the file ends first.
    mutating func skipSubBlocks() -> Bool {
        measureSubBlocks().isComplete
    }

    /// Skips a chain, counting its data bytes (those the file holds), and says whether its
    /// terminator was reached.
    mutating func measureSubBlocks() -> (count: Int, isComplete: Bool) {
        var count = 0
        while let length = readByte() {
            if length == 0 { return (count, true) }
            let available = min(Int(length), remaining)
            count += available
            offset += available
            if available < Int(length) { return (count, false) }
        }
        return (count, false)
    }

    /// Copies the data of the chain at `start` (`count` bytes, as measured) to `destination`.
    static func gatherSubBlocks(
        of bytes: UnsafeRawBufferPointer, from start: Int, count: Int, into destination: UnsafeMutableRawPointer
    ) {
        var offset = start
        var copied = 0
        while copied < count, offset < bytes.count {
            let length = min(Int(bytes[offset]), count - copied, bytes.count - offset - 1)
            offset += 1
            guard length > 0, let base = bytes.baseAddress else { return }
            (destination + copied).copyMemory(from: base + offset, byteCount: length)
            copied += length
            offset += length
        }
    }
}
