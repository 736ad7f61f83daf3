/// The key frame header (RFC 6386 §9.1) and the frame-level fields at the start of the first
/// partition (§9.2–9.11, §19.2), read in the order and with the checks of libwebp 1.2.4.
struct VP8FrameHeader {
    /// The frame's width and height in pixels; the scaling bits are ignored, as by libwebp.
    let width: Int
    let height: Int
    /// The byte length of the first partition, which follows the 10-byte header.
    let firstPartitionSize: Int

    /// Whether macroblocks carry a segment id, and the probabilities of its tree (§9.3).
    var segmentMapProbabilities: (UInt8, UInt8, UInt8)? = nil
    var segmentation = VP8Segmentation()
    var filter = VP8FilterHeader()
    /// The number of token partitions: 1, 2, 4 or 8.
    var partitionCount = 1
    /// The dequantisation factors of each segment.
    var quantizers: [VP8Quantizer] = []
    /// The probability that a macroblock has no coefficients, when the frame codes that flag.
    var skipProbability: UInt8? = nil
    /// The coefficient probabilities, `[((type * 8 + band) * 3 + context) * 11 + node]`.
    var coefficientProbabilities: [UInt8] = []

    /// Checks the 10-byte header the way libwebp's `VP8GetInfo` does, in its order.
    ///
    /// - Throws: The first check that fails, as a ``VP8Error``.
    init(tagOf chunk: UnsafeRawBufferPointer) throws(VP8Error) {
        guard chunk.count >= 10 else { throw .truncatedHeader(size: chunk.count) }
        guard chunk[3] == 0x9D, chunk[4] == 0x01, chunk[5] == 0x2A else {
            throw .badStartCode(chunk[3], chunk[4], chunk[5])
        }
        let tag = Int(chunk[0]) | Int(chunk[1]) << 8 | Int(chunk[2]) << 16
        guard tag & 1 == 0 else { throw .notKeyFrame }
        guard (tag >> 1) & 7 <= 3 else { throw .invalidProfile((tag >> 1) & 7) }
        guard (tag >> 4) & 1 == 1 else { throw .frameNotShown }
        let partitionSize = tag >> 5
        width = (Int(chunk[7]) << 8 | Int(chunk[6])) & 0x3FFF
        height = (Int(chunk[9]) << 8 | Int(chunk[8])) & 0x3FFF
        guard partitionSize <= chunk.count - 10 else {
            throw .firstPartitionPastEnd(declared: partitionSize, available: chunk.count - 10)
        }
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        firstPartitionSize = partitionSize
    }

    /// Reads the frame-level fields of the first partition and splits off the token partitions.
    ///
    /// - Returns: The first partition's decoder, positioned at the first macroblock's modes, and
    ///   one decoder per token partition.
    mutating func readFields(
        _ chunk: UnsafeRawBufferPointer
    ) throws(VP8Error) -> (modes: VP8BoolDecoder, tokens: [VP8BoolDecoder]) {
        // Proven by `init(tagOf:)`: the chunk holds 10 + firstPartitionSize bytes.
        let base = chunk.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var reader = VP8BoolDecoder(base + 10, count: firstPartitionSize)
        _ = reader.flag()  // colour space: libwebp ignores it
        _ = reader.flag()  // clamping type: pixels are always clamped
        readSegmentation(&reader)
        readFilter(&reader)
        guard !reader.reachedEnd else { throw .truncatedFrameHeader }
        partitionCount = 1 << reader.literal(2)
        let tokens = try splitPartitions(
            base + 10 + firstPartitionSize, count: chunk.count - 10 - firstPartitionSize)
        quantizers = VP8Quantizer.read(&reader, segmentation: segmentation)
        _ = reader.flag()  // refresh_entropy_probs: one frame, nothing to refresh
        coefficientProbabilities = Self.readCoefficientProbabilities(&reader)
        skipProbability = reader.flag() == 1 ? UInt8(reader.literal(8)) : nil
        return (reader, tokens)
    }

    private mutating func readSegmentation(_ reader: inout VP8BoolDecoder) {
        guard reader.flag() == 1 else { return }
        segmentation.isEnabled = true
        let updatesMap = reader.flag() == 1
        if reader.flag() == 1 {
            segmentation.isAbsolute = reader.flag() == 1
            for segment in 0..<4 {
                segmentation.quantizers[segment] = reader.flag() == 1 ? reader.signedLiteral(7) : 0
            }
            for segment in 0..<4 {
                segmentation.filterLevels[segment] = reader.flag() == 1 ? reader.signedLiteral(6) : 0
            }
        }
        if updatesMap {
            var probabilities: [UInt8] = [255, 255, 255]
            for node in 0..<3 where reader.flag() == 1 { probabilities[node] = UInt8(reader.literal(8)) }
            segmentMapProbabilities = (probabilities[0], probabilities[1], probabilities[2])
        }
    }

    private mutating func readFilter(_ reader: inout VP8BoolDecoder) {
        filter.isSimple = reader.flag() == 1
        filter.level = reader.literal(6)
        filter.sharpness = reader.literal(3)
        filter.usesDeltas = reader.flag() == 1
        if filter.usesDeltas && reader.flag() == 1 {
            for reference in 0..<4 where reader.flag() == 1 {
                let delta = reader.signedLiteral(6)
                if reference == 0 { filter.intraDelta = delta }
            }
            for mode in 0..<4 where reader.flag() == 1 {
                let delta = reader.signedLiteral(6)
                if mode == 0 { filter.subblockModeDelta = delta }
            }
        }
    }

    /// Cuts the bytes after the first partition into token partitions: a 3-byte size for each
    /// but the last, which takes the rest; sizes past the end are cut short, as by libwebp,
    /// but the last partition must keep at least one byte.
    private func splitPartitions(
        _ start: UnsafePointer<UInt8>, count: Int
    ) throws(VP8Error) -> [VP8BoolDecoder] {
        let sizeBytes = 3 * (partitionCount - 1)
        guard count >= sizeBytes else { throw .tokenPartitionsPastEnd(partitionCount: partitionCount) }
        var partitions: [VP8BoolDecoder] = []
        var partitionStart = start + sizeBytes
        var remaining = count - sizeBytes
        for index in 0..<partitionCount - 1 {
            let sizes = start + 3 * index
            let size = min(Int(sizes[0]) | Int(sizes[1]) << 8 | Int(sizes[2]) << 16, remaining)
            partitions.append(VP8BoolDecoder(partitionStart, count: size))
            partitionStart += size
            remaining -= size
        }
        partitions.append(VP8BoolDecoder(partitionStart, count: remaining))
        guard remaining > 0 else { throw .tokenPartitionsPastEnd(partitionCount: partitionCount) }
        return partitions
    }

    private static func readCoefficientProbabilities(_ reader: inout VP8BoolDecoder) -> [UInt8] {
        let defaults = VP8CoefficientTables.defaults.pointer
        let updates = VP8CoefficientTables.updateProbabilities.pointer
        return (0..<1056).map { index in
            reader.bit(updates[index]) ? UInt8(reader.literal(8)) : defaults[index]
        }
    }
}

/// The segment-level adjustments of §9.3.
struct VP8Segmentation {
    var isEnabled = false
    /// Whether the values replace the frame's (otherwise they are added to them).
    var isAbsolute = true
    var quantizers = [0, 0, 0, 0]
    var filterLevels = [0, 0, 0, 0]
}

/// The loop filter fields of §9.6; only the intra-frame and B_PRED deltas matter to a key frame.
struct VP8FilterHeader {
    var isSimple = false
    var level = 0
    var sharpness = 0
    var usesDeltas = false
    var intraDelta = 0
    var subblockModeDelta = 0
}
