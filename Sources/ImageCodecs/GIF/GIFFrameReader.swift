import Foundation

/// Decodes a GIF file's frames for an ``AnimationFrameCursor``: each frame's LZW data into an
/// index buffer, then each row through the frame's palette onto the canvas.
///
/// The palette is the frame's local colour table, else the global one, else opaque black for
/// every index (browsers differ; black is what an absent table most often means); an index past
/// the table's end is opaque black too, and the transparent index is transparent. Pixels the data
/// does not reach (a file cut short, damaged LZW) are transparent: they leave the canvas as it is.
struct GIFFrameReader: AnimationFrameReading {
    let data: Data
    let container: GIFContainer
    let strictness: DecodeOptions.Strictness

    mutating func composeFrame(
        _ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas
    ) throws(BitmapDecoderError) -> Bool {
        guard let damage = compose(index, onto: &canvas) else { return false }
        if strictness == .strict { throw .gif(damage) }
        return true
    }

    /// Draws frame `index` on `canvas` (prepared for it) and returns the damage recovered from.
    func compose(_ index: Int, onto canvas: inout AnimationCanvas) -> GIFError? {
        let record = container.frames[index]
        guard record.transparentIndex == nil, !record.isInterlaced, canvas.isCovered(by: record.animationFrame) else {
            return decoding(index, into: nil) { record, indices, written, bytes in
                withPalette(of: record, bytes) { palette in
                    composeRows(record, indices: indices, written: written, palette: palette, onto: &canvas)
                }
            }
        }
        // A frame that sets every pixel: its indices go to the last quarter of a new canvas and are
        // widened there front to back — pixel p's four bytes end before index p + 1 — so there is
        // no index buffer and no copy of the previous canvas. A frame its data does not fill is
        // drawn on the canvas as usual and the new one dropped.
        let count = record.pixelCount
        var damage: GIFError?
        var isWhole = false
        let fresh = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            initialized = count * 4
            damage = decoding(index, into: UnsafeMutableBufferPointer(rebasing: buffer[(count * 3)...])) {
                record, indices, written, bytes in
                withPalette(of: record, bytes) { palette in
                    guard written == count, let base = buffer.baseAddress, let colors = palette.baseAddress else {
                        composeRows(record, indices: indices, written: written, palette: palette, onto: &canvas)
                        return
                    }
                    let pixels = UnsafeMutableRawPointer(base)
                    let source = base + count * 3
                    for pixel in 0..<count {
                        pixels.storeBytes(of: colors[Int(source[pixel])], toByteOffset: pixel &* 4, as: UInt32.self)
                    }
                    isWhole = true
                }
            }
        }
        if isWhole { canvas.replacePixels(with: fresh) }
        return damage
    }

    /// Frame `index`'s palette indices in display order (an interlaced frame's rows put in
    /// place), 0 where the data does not reach, and the damage recovered from: what the
    /// differential fuzzer compares with giflib's raster.
    func indexRaster(_ index: Int) -> (indices: [UInt8], damage: GIFError?) {
        let record = container.frames[index]
        var raster = [UInt8](repeating: 0, count: record.pixelCount)
        let damage = decoding(index) { record, indices, written, _ in
            for storedRow in 0..<(written + record.width - 1) / record.width {
                let row =
                    record.isInterlaced
                    ? GIFInterlacing.frameRow(ofStoredRow: storedRow, height: record.height) : storedRow
                let count = min(record.width, written - storedRow * record.width)
                for column in 0..<count {
                    raster[row * record.width + column] = indices[storedRow * record.width + column]
                }
            }
        }
        return (raster, damage)
    }

    /// Decodes frame `index`'s indices and hands them to `body` with how many the data filled;
    /// returns the damage.
    private func decoding(
        _ index: Int, into destination: UnsafeMutableBufferPointer<UInt8>? = nil,
        _ body: (GIFFrameRecord, UnsafeMutableBufferPointer<UInt8>, Int, UnsafeRawBufferPointer) -> Void
    ) -> GIFError? {
        let record = container.frames[index]
        let truncation = record.truncatedAt.map { GIFError.truncatedFrame(frame: index, offset: $0) }
        guard record.pixelCount > 0 else { return truncation }
        guard (1...8).contains(record.minimumCodeSize) else {
            return truncation ?? .invalidMinimumCodeSize(frame: index, size: record.minimumCodeSize)
        }
        return data.withUnsafeBytes { bytes in
            func decoded(into indices: UnsafeMutableBufferPointer<UInt8>) -> GIFError? {
                let (written, outcome) = decodeIndices(record, bytes, into: indices)
                body(record, indices, written, bytes)
                if let truncation { return truncation }
                switch outcome {
                case .codeBeyondTable(let code, let nextFree):
                    return .lzwCodeBeyondTable(frame: index, code: code, nextFree: nextFree)
                case .finished, .endOfData:
                    return written < record.pixelCount
                        ? .missingPixels(frame: index, decoded: written, expected: record.pixelCount) : nil
                }
            }
            if let destination { return decoded(into: destination) }
            // On the stack when small (a spinner's frames are a few hundred pixels), else the heap.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: record.pixelCount, decoded)
        }
    }

    /// Writes the frame's palette indices in stored row order into `indices` (`pixelCount` of
    /// them), and returns how many the data filled and how the LZW decode ended.
    private func decodeIndices(
        _ record: GIFFrameRecord, _ bytes: UnsafeRawBufferPointer, into indices: UnsafeMutableBufferPointer<UInt8>
    ) -> (Int, GIFLZWDecoder.Outcome) {
        let inputCount = record.compressedCount + GIFLZWDecoder.inputSlack
        return withUnsafeTemporaryAllocation(byteCount: inputCount, alignment: 8) { input in
            // A temporary allocation of at least `inputSlack` bytes has a base address.
            let input = input.baseAddress!
            input.initializeMemory(as: UInt8.self, repeating: 0, count: inputCount)
            GIFBlockReader.gatherSubBlocks(
                of: bytes, from: record.dataStart, count: record.compressedCount, into: input)
            return GIFLZWDecoder().decode(
                input, count: record.compressedCount, minimumCodeSize: record.minimumCodeSize, into: indices)
        }
    }

    /// Calls `body` with the frame's 256 colours as RGBA8 words in memory order.
    private func withPalette(
        of record: GIFFrameRecord, _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt32>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { palette in
            fill(palette, of: record, bytes)
            body(UnsafeBufferPointer(palette))
        }
    }

    /// Writes the frame's 256 colours as RGBA8 words in memory order into `palette`.
    private func fill(
        _ palette: UnsafeMutableBufferPointer<UInt32>, of record: GIFFrameRecord, _ bytes: UnsafeRawBufferPointer
    ) {
        palette.initialize(repeating: UInt32(0xFF00_0000).littleEndian)
        if let table = record.localColorTable ?? container.globalColorTable {
            for entry in 0..<min(256, table.count / 3) {
                let offset = table.lowerBound + entry * 3
                let rgba =
                    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                    | 0xFF00_0000
                palette[entry] = rgba.littleEndian
            }
        }
    }

    /// Maps each decoded row through `palette` and composes it at its frame row.
    private func composeRows(
        _ record: GIFFrameRecord, indices: UnsafeMutableBufferPointer<UInt8>, written: Int,
        palette: UnsafeBufferPointer<UInt32>, onto canvas: inout AnimationCanvas
    ) {
        let frame = record.animationFrame
        let width = record.width
        let transparentIndex = record.transparentIndex.map(Int.init)
        guard let colors = palette.baseAddress, let source = indices.baseAddress else { return }
        // A whole frame without a transparent index sets every pixel: the previous ones are not copied.
        if transparentIndex == nil, written == record.pixelCount, canvas.isCovered(by: frame) {
            canvas.startAfresh(for: frame)
        }
        for storedRow in 0..<(written + width - 1) / width {
            let frameRow =
                record.isInterlaced ? GIFInterlacing.frameRow(ofStoredRow: storedRow, height: record.height) : storedRow
            canvas.composeIndexedRow(
                source + storedRow * width, count: min(width, written - storedRow * width), palette: colors,
                transparentIndex: transparentIndex, at: frameRow, of: frame)
        }
    }
}
