/// The Adler-32 checksum that ends every zlib stream (RFC 1950, section 8.2).
///
/// The two running sums are serial byte by byte (`b` adds every intermediate `a`), so the bytes
/// are summed 16 at a time in vector lanes instead and the lane sums combined per block:
/// for a block of `n` 16-byte chunks, with `lanes[l]` the sum of the bytes at position `l` of every
/// chunk and `prefixes[l]` the sum, over the chunks, of `lanes[l]` before that chunk,
///
///     a' = a + Σ lanes
///     b' = b + 16n·a + 16·Σ prefixes + Σ (16 − l)·lanes[l]
///
/// Within a block, runs of chunks are summed in 16-bit lanes (half the widening and twice the
/// lanes an instruction of 32-bit lanes), then added to the 32-bit ones.
enum Adler32 {
    /// The largest prime below 2¹⁶, the modulus of both sums.
    private static let modulus: UInt64 = 65_521
    /// Chunks per run in 16-bit lanes: a run's prefix lanes reach 255·n(n − 1)/2, which must
    /// stay below 2¹⁶.
    private static let chunksPerRun = 23
    /// Chunks per block, whole runs: `prefixes` lanes reach 255·n²/2, which must stay below 2³².
    private static let chunksPerBlock = 178 * chunksPerRun

    /// Computes the Adler-32 of `count` bytes, or continues one over the bytes that follow.
    ///
    /// - Parameters:
    ///   - bytes: The first byte.
    ///   - count: The number of bytes to check.
    ///   - previous: The checksum of the bytes before these; 1 (the checksum of nothing) to start.
    /// - Returns: The checksum, `b << 16 | a`, as zlib stores it.
    /// - Complexity: O(`count`).
    package static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int, continuing previous: UInt32 = 1) -> UInt32 {
        var a = UInt64(previous & 0xFFFF)
        var b = UInt64(previous >> 16)
        var pointer = UnsafeRawPointer(bytes)
        var remainingChunks = count / 16
        let weights = SIMD16<UInt32>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
        while remainingChunks > 0 {
            let chunkCount = min(remainingChunks, chunksPerBlock)
            var lanes = SIMD16<UInt32>()
            var prefixes = SIMD16<UInt32>()
            var summedChunks = 0
            while summedChunks < chunkCount {
                let runCount = min(chunkCount - summedChunks, chunksPerRun)
                var runLanes = SIMD16<UInt16>()
                var runPrefixes = SIMD16<UInt16>()
                for _ in 0..<runCount {
                    runPrefixes &+= runLanes
                    runLanes &+= SIMD16<UInt16>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD16<UInt8>.self))
                    pointer += 16
                }
                // Each chunk of the run also comes after the lanes summed before the run.
                prefixes &+=
                    lanes &* UInt32(truncatingIfNeeded: runCount) &+ SIMD16<UInt32>(truncatingIfNeeded: runPrefixes)
                lanes &+= SIMD16<UInt32>(truncatingIfNeeded: runLanes)
                summedChunks += runCount
            }
            b += 16 * UInt64(chunkCount) * a + 16 * widenedSum(prefixes) + widenedSum(lanes &* weights)
            a += widenedSum(lanes)
            a %= modulus
            b %= modulus
            remainingChunks -= chunkCount
        }
        let tail = pointer.assumingMemoryBound(to: UInt8.self)
        for index in 0..<(count % 16) {
            a += UInt64(tail[index])
            b += a
        }
        a %= modulus
        b %= modulus
        return UInt32(b << 16 | a)
    }

    /// The sum of the lanes, without overflow.
    @inline(__always)
    private static func widenedSum(_ lanes: SIMD16<UInt32>) -> UInt64 {
        var sum: UInt64 = 0
        for lane in 0..<16 {
            sum += UInt64(lanes[lane])
        }
        return sum
    }
}
