/// Decodes a VP8L (WebP lossless) image stream into ARGB pixels (`0xAARRGGBB`), as RFC 9649
/// §3–§5 describe and libwebp 1.2.4 decodes it.
///
/// The stages: the transforms (``VP8LTransform``), the colour cache and meta prefix codes, the
/// prefix-coded pixels with LZ77 backward references (this file), then the transforms undone in
/// reverse order. The pixels are decoded straight into the caller's buffer, which the transforms
/// then rewrite in place, so a decode holds the image once.
struct VP8LDecoder {
    var reader: VP8LBitReader
    /// The chunk the stream came from, for errors: `"VP8L"` or `"ALPH"`.
    let chunk: String
    /// The most prefix table entries one image may build.
    let tableEntryLimit: Int
    /// The store's request to stop, polled every 16 rows.
    let cancellation = DecodeCancellation.current.get()

    init(_ stream: UnsafeRawBufferPointer, chunk: String, tableByteLimit: Int) {
        reader = VP8LBitReader(stream)
        self.chunk = chunk
        tableEntryLimit = max(tableByteLimit / 4, 1 << 16)
    }

    /// `(size + 2^bits − 1) >> bits`: the size of a subsampled image.
    static func subsampled(_ size: Int, bits: Int) -> Int {
        (size + (1 << bits) - 1) >> bits
    }

    /// Decodes a whole image stream of `width` × `height` (transforms, meta codes and all) into
    /// `pixels`, which holds `width * height` values.
    mutating func decodeImage(width: Int, height: Int, into pixels: UnsafeMutablePointer<UInt32>) throws(WebPError) {
        var transforms: [VP8LTransform] = []
        var seen = 0
        var codedWidth = width
        while reader.read(1) == 1 {
            let type = reader.readInt(2)
            guard seen & (1 << type) == 0 else { throw .repeatedTransform(type: type) }
            seen |= 1 << type
            let transform = try readTransform(type: type, width: codedWidth, height: height)
            codedWidth = transform.codedWidth
            transforms.append(transform)
        }
        try decodeEntropyCoded(width: codedWidth, height: height, allowsMetaCodes: true, into: pixels)
        for transform in transforms.reversed() {
            transform.undo(pixels, height: height)
        }
    }

    /// Decodes a sub-image (a transform's data, the meta image): no transforms, no meta codes.
    mutating func decodeSubImage(width: Int, height: Int) throws(WebPError) -> [UInt32] {
        var failure: WebPError?
        let image = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            // Both sides are at least 1, so the buffer has a base address.
            guard let base = buffer.baseAddress else { return }
            base.initialize(repeating: 0, count: width * height)
            count = width * height
            do throws(WebPError) {
                try decodeEntropyCoded(width: width, height: height, allowsMetaCodes: false, into: base)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return image
    }

    private mutating func readTransform(type: Int, width: Int, height: Int) throws(WebPError) -> VP8LTransform {
        switch type {
        case 0, 1:
            let bits = reader.readInt(3) + 2
            let data = try decodeSubImage(
                width: Self.subsampled(width, bits: bits), height: Self.subsampled(height, bits: bits))
            return VP8LTransform(kind: type == 0 ? .predictor : .crossColor, width: width, bits: bits, data: data)
        case 2:
            return VP8LTransform(kind: .subtractGreen, width: width, bits: 0, data: [])
        default:
            let colorCount = reader.readInt(8) + 1
            let bits = colorCount > 16 ? 0 : colorCount > 4 ? 1 : colorCount > 2 ? 2 : 3
            var palette = try decodeSubImage(width: colorCount, height: 1)
            // Entries are stored as differences from the previous one, byte by byte; indices past
            // the table read transparent black.
            for index in 1..<colorCount {
                palette[index] = Self.addPixels(palette[index], palette[index - 1])
            }
            palette.append(contentsOf: repeatElement(0, count: (1 << (8 >> bits)) - colorCount))
            return VP8LTransform(kind: .colorIndexing, width: width, bits: bits, data: palette)
        }
    }

    /// Adds two ARGB pixels channel by channel, modulo 256.
    @inline(__always)
    static func addPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
        let redBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    /// Reads the colour cache size and the prefix codes, then the pixels.
    private mutating func decodeEntropyCoded(
        width: Int, height: Int, allowsMetaCodes: Bool, into pixels: UnsafeMutablePointer<UInt32>
    ) throws(WebPError) {
        var cacheBits = 0
        if reader.read(1) == 1 {
            cacheBits = reader.readInt(4)
            guard (1...11).contains(cacheBits) else { throw .colorCacheBitsOutOfRange(bits: cacheBits) }
        }
        var metaBits = 0
        var metaWidth = 1
        var metaImage: [UInt32] = [0]
        var groupCount = 1
        var isUsed: [Bool]?
        if allowsMetaCodes && reader.read(1) == 1 {
            metaBits = reader.readInt(3) + 2
            metaWidth = Self.subsampled(width, bits: metaBits)
            metaImage = try decodeSubImage(width: metaWidth, height: Self.subsampled(height, bits: metaBits))
            var largest = 0
            for index in metaImage.indices {
                let group = (metaImage[index] >> 8) & 0xFFFF
                metaImage[index] = group
                largest = max(largest, Int(group))
            }
            groupCount = largest + 1
            // As libwebp: when the count is large, only the groups the meta image names are kept,
            // renumbered densely.
            if groupCount > 1000 || groupCount > width * height {
                var used = [Bool](repeating: false, count: groupCount)
                for group in metaImage { used[Int(group)] = true }
                var dense = [UInt32](repeating: 0, count: groupCount)
                var next: UInt32 = 0
                for group in 0..<groupCount where used[group] {
                    dense[group] = next
                    next += 1
                }
                for index in metaImage.indices { metaImage[index] = dense[Int(metaImage[index])] }
                isUsed = used
            }
        }
        if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
        let groups = try readGroups(count: groupCount, cacheBits: cacheBits, isUsed: isUsed)
        try decodePixels(
            width: width, height: height, cacheBits: cacheBits,
            meta: VP8LMetaCodes(bits: metaBits, width: metaWidth, image: metaImage), groups: groups, into: pixels)
    }
}

/// Which prefix code group each block of an image uses.
struct VP8LMetaCodes {
    /// The blocks' side is 2^bits; 0 means one group for the whole image.
    let bits: Int
    let width: Int
    /// The dense group index of each block.
    let image: [UInt32]
}
