extension PNGContents {
    /// Joins the IDAT data into one padded buffer and decompresses it whole.
    ///
    /// - Parameters:
    ///   - filtered: Room for `count` bytes followed by ``Inflater/outputSlack`` writable bytes.
    ///   - count: The exact decompressed size the header implies.
    /// - Throws: ``PNGError/inflate(_:)``, or ``PNGError/cancelled`` when a store stops the load
    ///   (polled between deflate blocks).
    func inflateImageData(into filtered: UnsafeMutablePointer<UInt8>, count: Int) throws(PNGError) {
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
                shouldStop: shouldStop)
        } catch {
            throw .inflate(error)
        }
        if !completed { throw .cancelled }
    }
}
