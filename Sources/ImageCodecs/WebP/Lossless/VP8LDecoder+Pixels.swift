/// The prefix-coded pixels: literals, backward references and colour cache hits.
extension VP8LDecoder {
    /// The (dx, dy) neighbourhood the 120 shortest distance codes name (RFC 9649 §4.2.2): code
    /// *n* ≤ 120 is `dx + dy · width` pixels back, at least 1.
    private static let distanceNeighbourhood: [(Int, Int)] = [
        (0, 1), (1, 0), (1, 1), (-1, 1), (0, 2), (2, 0), (1, 2), (-1, 2), (2, 1), (-2, 1), (2, 2), (-2, 2),
        (0, 3), (3, 0), (1, 3), (-1, 3), (3, 1), (-3, 1), (2, 3), (-2, 3), (3, 2), (-3, 2), (0, 4), (4, 0),
        (1, 4), (-1, 4), (4, 1), (-4, 1), (3, 3), (-3, 3), (2, 4), (-2, 4), (4, 2), (-4, 2), (0, 5), (3, 4),
        (-3, 4), (4, 3), (-4, 3), (5, 0), (1, 5), (-1, 5), (5, 1), (-5, 1), (2, 5), (-2, 5), (5, 2), (-5, 2),
        (4, 4), (-4, 4), (3, 5), (-3, 5), (5, 3), (-5, 3), (0, 6), (6, 0), (1, 6), (-1, 6), (6, 1), (-6, 1),
        (2, 6), (-2, 6), (6, 2), (-6, 2), (4, 5), (-4, 5), (5, 4), (-5, 4), (3, 6), (-3, 6), (6, 3), (-6, 3),
        (0, 7), (7, 0), (1, 7), (-1, 7), (5, 5), (-5, 5), (7, 1), (-7, 1), (4, 6), (-4, 6), (6, 4), (-6, 4),
        (2, 7), (-2, 7), (7, 2), (-7, 2), (3, 7), (-3, 7), (7, 3), (-7, 3), (5, 6), (-5, 6), (6, 5), (-6, 5),
        (8, 0), (4, 7), (-4, 7), (7, 4), (-7, 4), (8, 1), (8, 2), (6, 6), (-6, 6), (8, 3), (5, 7), (-5, 7),
        (7, 5), (-7, 5), (8, 4), (6, 7), (-6, 7), (7, 6), (-7, 6), (8, 5), (7, 7), (-7, 7), (8, 6), (8, 7),
    ]

    /// The value of a length or distance prefix symbol with its extra bits (RFC 9649 §4.2.2).
    @inline(__always)
    private mutating func prefixValue(_ symbol: Int) -> Int {
        if symbol < 4 { return symbol &+ 1 }
        let extraBits = (symbol &- 2) >> 1
        let offset = (2 &+ (symbol & 1)) << extraBits
        return offset &+ reader.readInt(extraBits) &+ 1
    }

    mutating func decodePixels(
        width: Int, height: Int, cacheBits: Int, meta: VP8LMetaCodes, groups: Groups,
        into pixels: UnsafeMutablePointer<UInt32>
    ) throws(WebPError) {
        let total = width * height
        let cacheSize = cacheBits > 0 ? 1 << cacheBits : 0
        let cacheShift = UInt32(32 - cacheBits)
        let cache = UnsafeMutablePointer<UInt32>.allocate(capacity: max(cacheSize, 1))
        cache.initialize(repeating: 0, count: max(cacheSize, 1))
        defer { cache.deallocate() }
        let distances = Self.distanceNeighbourhood.map { max(1, $0.0 + $0.1 * width) }
        let blockMask = meta.bits == 0 ? Int.max : (1 << meta.bits) - 1
        try groups.tables.withUnsafeBufferPointer { tables in
            Result(typedCatching: { () throws(WebPError) in
                // Every group's five offsets point at tables built inside `tables`.
                guard let tables = tables.baseAddress else { return }
                var green = tables
                var red = tables
                var blue = tables
                var alpha = tables
                var distance = tables
                func selectGroup(x: Int, y: Int) {
                    var group = 0
                    if meta.bits > 0 {
                        group = Int(meta.image[(y >> meta.bits) * meta.width + (x >> meta.bits)])
                    }
                    let base = group * 5
                    green = tables + groups.offsets[base]
                    red = tables + groups.offsets[base + 1]
                    blue = tables + groups.offsets[base + 2]
                    alpha = tables + groups.offsets[base + 3]
                    distance = tables + groups.offsets[base + 4]
                }
                selectGroup(x: 0, y: 0)
                var position = 0
                var x = 0
                var y = 0
                var lastCached = 0
                var nextPollRow = 16
                while position < total {
                    if x & blockMask == 0 { selectGroup(x: x, y: y) }
                    reader.fill()
                    let code = VP8LPrefixCode.readSymbol(green, &reader)
                    if code < 256 {
                        let r = VP8LPrefixCode.readSymbol(red, &reader)
                        let b = VP8LPrefixCode.readSymbol(blue, &reader)
                        reader.fill()
                        let a = VP8LPrefixCode.readSymbol(alpha, &reader)
                        pixels[position] = UInt32(truncatingIfNeeded: a << 24 | r << 16 | code << 8 | b)
                        position &+= 1
                        x &+= 1
                    } else if code < 280 {
                        let length = prefixValue(code &- 256)
                        reader.fill()
                        let distanceSymbol = VP8LPrefixCode.readSymbol(distance, &reader)
                        reader.fill()
                        let distanceCode = prefixValue(distanceSymbol)
                        let back = distanceCode > 120 ? distanceCode &- 120 : distances[distanceCode &- 1]
                        guard back <= position, length <= total &- position else {
                            if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
                            throw .backwardReferenceOutOfRange(position: position, distance: back, length: length)
                        }
                        // Proven above: source and destination lie inside the image. The copy runs
                        // forward one pixel at a time, since a short distance repeats a pattern.
                        var source = pixels + (position &- back)
                        var target = pixels + position
                        for _ in 0..<length {
                            target.pointee = source.pointee
                            target += 1
                            source += 1
                        }
                        position &+= length
                        x &+= length
                        while x >= width {
                            x &-= width
                            y &+= 1
                        }
                        if y >= nextPollRow {
                            nextPollRow = y + 16
                            if let cancellation, cancellation.shouldStop() { throw .cancelled }
                        }
                        if position < total && x & blockMask != 0 { selectGroup(x: x, y: y) }
                        if cacheSize > 0 {
                            while lastCached < position {
                                let pixel = pixels[lastCached]
                                cache[Int(truncatingIfNeeded: (pixel &* 0x1E35_A7BD) >> cacheShift)] = pixel
                                lastCached &+= 1
                            }
                        }
                        continue
                    } else {
                        let key = code &- 280
                        // The green alphabet holds 280 + cacheSize symbols, so the key is in range.
                        while lastCached < position {
                            let pixel = pixels[lastCached]
                            cache[Int(truncatingIfNeeded: (pixel &* 0x1E35_A7BD) >> cacheShift)] = pixel
                            lastCached &+= 1
                        }
                        pixels[position] = cache[key]
                        position &+= 1
                        x &+= 1
                    }
                    if x == width {
                        x = 0
                        y &+= 1
                        if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
                        if y >= nextPollRow {
                            nextPollRow = y + 16
                            if let cancellation, cancellation.shouldStop() { throw .cancelled }
                        }
                        if cacheSize > 0 {
                            while lastCached < position {
                                let pixel = pixels[lastCached]
                                cache[Int(truncatingIfNeeded: (pixel &* 0x1E35_A7BD) >> cacheShift)] = pixel
                                lastCached &+= 1
                            }
                        }
                    }
                }
            })
        }.typedGet()
        if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
    }
}
