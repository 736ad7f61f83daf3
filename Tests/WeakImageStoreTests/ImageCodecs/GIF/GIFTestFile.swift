import Foundation

/// GIF files and LZW streams built in code for the decoder's tests.
enum GIFTestFile {
    /// Packs LZW codes least significant bit first at the widths a decoder reads them: the code
    /// size grows when the next free entry reaches its range, checked after every code.
    static func pack(_ codes: [Int], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        var size = minimumCodeSize + 1
        var nextFree = clear + 2
        var hasPrevious = false
        var bits: UInt64 = 0
        var count = 0
        var out: [UInt8] = []
        for code in codes {
            bits |= UInt64(code) << UInt64(count)
            count += size
            while count >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
            if code == clear {
                size = minimumCodeSize + 1
                nextFree = clear + 2
                hasPrevious = false
                continue
            }
            if code == clear + 1 { continue }
            if hasPrevious, nextFree < 4096 { nextFree += 1 }
            hasPrevious = true
            if nextFree >= 1 << size, size < 12 { size += 1 }
        }
        if count > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
        return out
    }

    /// `data` as sub-blocks of at most `size` bytes and a terminator.
    static func subBlocks(_ data: [UInt8], size: Int = 255) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let chunk = data[start..<min(start + size, data.count)]
            out.append(UInt8(chunk.count))
            out += chunk
            start += size
        }
        return out + [0]
    }

    static func header(width: Int, height: Int, colors: Int = 4) -> [UInt8] {
        var out = Array("GIF89a".utf8) + le16(width) + le16(height)
        let bits = max(1, (colors - 1).bitWidth - (colors - 1).leadingZeroBitCount)
        out += [0x80 | UInt8(bits - 1), 0, 0]
        for index in 0..<(1 << bits) { out += [UInt8(index * 60 % 256), UInt8(index * 100 % 256), 200] }
        return out
    }

    static func control(delay: Int = 10, disposal: UInt8 = 0, transparent: UInt8? = nil) -> [UInt8] {
        [0x21, 0xF9, 4, disposal << 2 | (transparent == nil ? 0 : 1)] + le16(delay) + [transparent ?? 0, 0]
    }

    /// An image descriptor and its LZW data, packed from `codes`.
    static func image(
        x: Int = 0, y: Int = 0, width: Int, height: Int, codes: [Int], minimumCodeSize: Int = 2,
        interlaced: Bool = false
    ) -> [UInt8] {
        [0x2C] + le16(x) + le16(y) + le16(width) + le16(height) + [interlaced ? 0x40 : 0, UInt8(minimumCodeSize)]
            + subBlocks(pack(codes, minimumCodeSize: minimumCodeSize))
    }

    /// Literal codes for `indices`, between a clear and an end-of-information code (valid LZW:
    /// the table grows unused).
    static func literals(_ indices: [Int], minimumCodeSize: Int = 2) -> [Int] {
        let clear = 1 << minimumCodeSize
        var codes = [clear]
        for (position, index) in indices.enumerated() {
            // A clear before the table fills keeps literal-only streams valid at any length.
            if position > 0, position % 1000 == 0 { codes.append(clear) }
            codes.append(index)
        }
        return codes + [clear + 1]
    }

    /// A `width` × `height` GIF with `frames` frames of 1 × 1.
    static func animation(width: Int, height: Int, frames: Int) -> Data {
        var out = header(width: width, height: height)
        let frame = control(delay: 2) + image(width: 1, height: 1, codes: literals([1]))
        out.reserveCapacity(out.count + frames * frame.count + 1)
        for _ in 0..<frames { out += frame }
        return Data(out + [0x3B])
    }

    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}
