/// The image data: checking its chunks' CRC-32s while it is inflated, and inflating it whole.
extension PNGContents {
    /// Runs `decode`, which inflates the image data, with a lane that checks the CRC-32s of the
    /// image data's chunks on the inflater's rounds (see ``CRC32Lane``), then checks what the
    /// lane has not reached.
    ///
    /// A mismatch is reported in place of any error `decode` throws (but
    /// ``PNGError/cancelled``): the chunks come before anything decoding finds, so the errors are
    /// those of a decoder that checks every chunk before it inflates.
    ///
    /// - Parameter decode: Decodes the image, advancing the lane it is given as the inflater runs.
    /// - Returns: What `decode` returns.
    /// - Throws: ``PNGError/checksumMismatch(chunk:declared:computed:)`` for the first chunk of
    ///   image data whose CRC-32 does not match, else what `decode` throws.
    func checkingImageData<Decoded>(
        _ decode: (inout CRC32Lane) throws(PNGError) -> Decoded
    ) throws(PNGError) -> Decoded {
        var lane = CRC32Lane(ranges: imageDataChecksumRanges)
        let decoded: Decoded
        do {
            decoded = try decode(&lane)
        } catch {
            // A decode that nobody waits for ends without the rest of the checks.
            if error != .cancelled { try Self.check(&lane) }
            throw error
        }
        try Self.check(&lane)
        return decoded
    }

    /// Finishes the lane's checks.
    ///
    /// - Throws: ``PNGError/checksumMismatch(chunk:declared:computed:)`` at the first mismatch.
    static func check(_ lane: inout CRC32Lane) throws(PNGError) {
        if let mismatch = lane.finish() {
            throw .checksumMismatch(chunk: "IDAT", declared: mismatch.declared, computed: mismatch.computed)
        }
    }

    /// Joins the IDAT data into one padded buffer and decompresses it whole.
    ///
    /// - Parameters:
    ///   - filtered: Room for `count` bytes followed by ``Inflater/outputSlack`` writable bytes.
    ///   - count: The exact decompressed size the header implies.
    ///   - checksumLane: The lane ``checkingImageData(_:)`` gives, advanced as the data is inflated.
    /// - Throws: ``PNGError/inflate(_:)``, or ``PNGError/cancelled`` when a store stops the load
    ///   (polled between deflate blocks).
    func inflateImageData(
        into filtered: UnsafeMutablePointer<UInt8>, count: Int, checksumLane: inout CRC32Lane
    ) throws(PNGError) {
        let compressedCount = imageDataCount
        let compressed = UnsafeMutableRawPointer.allocate(
            byteCount: compressedCount + BitReader.padding, alignment: 16
        )
        defer { compressed.deallocate() }
        var offset = 0
        for segment in imageData where !segment.isEmpty {
            if let base = segment.baseAddress {
                (compressed + offset).copyMemory(from: base, byteCount: segment.count)
            }
            offset += segment.count
        }
        (compressed + compressedCount).initializeMemory(as: UInt8.self, repeating: 0, count: BitReader.padding)
        let input = compressed.bindMemory(to: UInt8.self, capacity: compressedCount + BitReader.padding)
        // A store that no longer needs the image stops the decode between deflate blocks.
        let shouldStop = DecodeCancellation.current.get().map { cancellation in { cancellation.shouldStop() } }
        let completed: Bool
        do {
            completed = try Inflater.inflate(
                zlib: input, count: compressedCount, into: filtered, count: count, surplus: .discard,
                checksumLane: &checksumLane, shouldStop: shouldStop)
        } catch {
            throw .inflate(error)
        }
        if !completed { throw .cancelled }
    }
}
