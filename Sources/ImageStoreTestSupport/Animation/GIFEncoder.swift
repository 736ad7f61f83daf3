import Foundation

/// Writes animated GIF89a files from indexed frames, for tests and the benchmark: one global
/// palette, a graphic control extension per frame, LZW with a clear code whenever the table fills.
public enum GIFEncoder {
    /// One frame: palette indices for its rectangle.
    public struct Frame: Sendable {
        public var indices: [UInt8]
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// The delay in hundredths of a second, as GIF stores it.
        public var delay: Int
        /// GIF's disposal method: 0 unspecified, 1 none, 2 background, 3 previous.
        public var disposal: Int
        public var transparentIndex: UInt8?

        public init(
            indices: [UInt8], x: Int = 0, y: Int = 0, width: Int, height: Int, delay: Int = 4, disposal: Int = 1,
            transparentIndex: UInt8? = nil
        ) {
            precondition(indices.count == width * height, "a frame holds width × height indices")
            self.indices = indices
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.delay = delay
            self.disposal = disposal
            self.transparentIndex = transparentIndex
        }
    }

    /// The GIF file.
    ///
    /// - Parameters:
    ///   - width: The logical screen's width.
    ///   - height: The logical screen's height.
    ///   - palette: RGB triples, at most 256.
    ///   - frames: The frames, in order.
    ///   - loopCount: The NETSCAPE2.0 loop count (0 forever); nil writes no loop extension.
    public static func encode(width: Int, height: Int, palette: [UInt8], frames: [Frame], loopCount: Int? = 0) -> Data {
        precondition(palette.count % 3 == 0 && palette.count / 3 <= 256 && !palette.isEmpty, "1 to 256 RGB triples")
        var tableBits = 1
        while 1 << tableBits < palette.count / 3 { tableBits += 1 }
        var file = Array("GIF89a".utf8)
        file += littleEndian(width) + littleEndian(height)
        file += [0x80 | UInt8(tableBits - 1) << 4 | UInt8(tableBits - 1), 0, 0]
        file += palette + [UInt8](repeating: 0, count: (1 << tableBits) * 3 - palette.count)
        if let loopCount {
            file += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + littleEndian(loopCount) + [0]
        }
        let codeSize = max(tableBits, 2)
        for frame in frames {
            let flags = UInt8(frame.disposal & 7) << 2 | (frame.transparentIndex == nil ? 0 : 1)
            file += [0x21, 0xF9, 4, flags] + littleEndian(frame.delay) + [frame.transparentIndex ?? 0, 0]
            file += [0x2C] + littleEndian(frame.x) + littleEndian(frame.y)
            file += littleEndian(frame.width) + littleEndian(frame.height) + [0]
            file += [UInt8(codeSize)]
            let compressed = lzw(frame.indices, minimumCodeSize: codeSize)
            var offset = 0
            while offset < compressed.count {
                let count = min(255, compressed.count - offset)
                file += [UInt8(count)] + compressed[offset..<offset + count]
                offset += count
            }
            file += [0]
        }
        file += [0x3B]
        return Data(file)
    }

    /// LZW as GIF uses it: variable-width codes, least significant bit first, a clear code first
    /// and whenever the table reaches 4096 entries.
    static func lzw(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var output: [UInt8] = []
        var bitBuffer = 0
        var bitCount = 0
        var codeSize = minimumCodeSize + 1
        var table: [Int: Int] = [:]
        var next = end + 1
        func emit(_ code: Int) {
            bitBuffer |= code << bitCount
            bitCount += codeSize
            while bitCount >= 8 {
                output.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        emit(clear)
        var prefix = -1
        for index in indices {
            let symbol = Int(index)
            guard prefix >= 0 else {
                prefix = symbol
                continue
            }
            let key = prefix << 8 | symbol
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                // The decoder grows its code width one code later than the encoder adds it.
                if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
                next += 1
            } else {
                emit(clear)
                table = [:]
                next = end + 1
                codeSize = minimumCodeSize + 1
            }
            prefix = symbol
        }
        if prefix >= 0 { emit(prefix) }
        emit(end)
        if bitCount > 0 { output.append(UInt8(bitBuffer & 0xFF)) }
        return output
    }

    private static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}
