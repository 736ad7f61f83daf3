/// Finds LZ77 matches with zlib level 6's hash chains and one step of lazy evaluation, under the
/// `Z_FILTERED` strategy libpng uses for filtered image data.
struct LZ77Matcher {
    private static let windowSize = 32_768
    private static let minimumMatch = 3
    private static let maximumMatch = 258
    private static let hashBits = 15
    /// zlib level 6: stop looking after this many chain links...
    private static let maximumChain = 128
    /// ...or a quarter of them once a match this long is in hand...
    private static let goodMatch = 8
    /// ...and do not look for a better match after one this long...
    private static let maximumLazy = 16
    /// ...and stop at once on a match this long.
    private static let niceMatch = 128
    /// `Z_FILTERED`: matches of 5 bytes or fewer are dropped, as zlib's `deflate_slow` does under
    /// that strategy (which makes its `TOO_FAR` rule for distant 3-byte matches moot). libpng compresses filtered rows with it by default (`PNG_Z_DEFAULT_STRATEGY`
    /// is 1 in its `pnglibconf.h`): filtered photo rows are small noisy differences, whose short
    /// matches cost more bits than their literals and several times their decoding time.
    private static let longestDroppedMatch = 5

    private var head = [Int32](repeating: -1, count: 1 << hashBits)
    private var previous = [Int32](repeating: -1, count: windowSize)

    /// Calls `emit` with every symbol, in order, and the input position it starts at.
    mutating func findMatches(in data: UnsafeBufferPointer<UInt8>, emit: (LZ77Symbol, Int) -> Void) {
        let count = data.count
        var position = 0
        // The match found at `position - 1`, kept in case the one at `position` is no longer.
        var pending = (length: 0, distance: 0)
        var literalPending = false
        while position < count {
            var current = (length: 0, distance: 0)
            if position + Self.minimumMatch <= count {
                if pending.length < Self.maximumLazy {
                    current = longestMatch(at: position, in: data, mustBeat: max(pending.length, Self.minimumMatch - 1))
                }
                insert(position, in: data)
            }
            if pending.length >= Self.minimumMatch && current.length <= pending.length {
                let start = position - 1
                emit(LZ77Symbol(length: pending.length, distance: pending.distance), start)
                let end = start + pending.length
                var next = position + 1
                while next < end {
                    if next + Self.minimumMatch <= count { insert(next, in: data) }
                    next += 1
                }
                position = end
                pending = (0, 0)
                literalPending = false
                continue
            }
            if literalPending {
                emit(.literal(data[position - 1]), position - 1)
            }
            pending = current
            literalPending = true
            position += 1
        }
        if literalPending {
            emit(.literal(data[count - 1]), count - 1)
        }
    }

    private func hash(at position: Int, in data: UnsafeBufferPointer<UInt8>) -> Int {
        let value = (Int(data[position]) << 10) ^ (Int(data[position + 1]) << 5) ^ Int(data[position + 2])
        return value & ((1 << Self.hashBits) - 1)
    }

    private mutating func insert(_ position: Int, in data: UnsafeBufferPointer<UInt8>) {
        let bucket = hash(at: position, in: data)
        previous[position & (Self.windowSize - 1)] = head[bucket]
        head[bucket] = Int32(position)
    }

    private func longestMatch(
        at position: Int, in data: UnsafeBufferPointer<UInt8>, mustBeat: Int
    ) -> (length: Int, distance: Int) {
        let limit = min(Self.maximumMatch, data.count - position)
        var bestLength = mustBeat
        var bestDistance = 0
        guard bestLength < limit else { return (0, 0) }
        var chainLeft = mustBeat >= Self.goodMatch ? Self.maximumChain / 4 : Self.maximumChain
        var candidate = Int(head[hash(at: position, in: data)])
        while candidate >= 0, chainLeft > 0 {
            let distance = position - candidate
            if distance > Self.windowSize { break }
            if data[candidate + bestLength] == data[position + bestLength] {
                var length = 0
                while length < limit && data[candidate + length] == data[position + length] {
                    length += 1
                }
                if length > bestLength {
                    bestLength = length
                    bestDistance = distance
                    if length >= Self.niceMatch || length == limit { break }
                }
            }
            let next = Int(previous[candidate & (Self.windowSize - 1)])
            // A slot overwritten by a newer position ends the chain: it is no longer this bucket's.
            if next >= candidate { break }
            candidate = next
            chainLeft -= 1
        }
        if bestDistance == 0 || bestLength <= Self.longestDroppedMatch { return (0, 0) }
        return (bestLength, bestDistance)
    }
}
