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
        decoding(index) { record, indices, written, bytes in
            composeRows(record, indices: indices, written: written, palette: palette(of: record, bytes), onto: &canvas)
        }
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
        _ index: Int,
        _ body: (GIFFrameRecord, UnsafeMutableBufferPointer<UInt8>, Int, UnsafeRawBufferPointer) -> Void
    ) -> GIFError? {
        let record = container.frames[index]
        let truncation = record.truncatedAt.map { GIFError.truncatedFrame(frame: index, offset: $0) }
        guard record.pixelCount > 0 else { return truncation }
        guard (1...8).contains(record.minimumCodeSize) else {
            return truncation ?? .invalidMinimumCodeSize(frame: index, size: record.minimumCodeSize)
        }
        return data.withUnsafeBytes { bytes in
            let (indices, written, outcome) = decodeIndices(record, bytes)
            defer { indices.deallocate() }
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
    }

    /// The frame's palette indices in stored row order (the caller deallocates them), how many
    /// the data filled, and how the LZW decode ended.
    private func decodeIndices(
        _ record: GIFFrameRecord, _ bytes: UnsafeRawBufferPointer
    ) -> (UnsafeMutableBufferPointer<UInt8>, Int, GIFLZWDecoder.Outcome) {
        let inputCount = record.compressedCount + GIFLZWDecoder.inputSlack
        let input = UnsafeMutableRawPointer.allocate(byteCount: inputCount, alignment: 8)
        defer { input.deallocate() }
        input.initializeMemory(as: UInt8.self, repeating: 0, count: inputCount)
        GIFBlockReader.gatherSubBlocks(
            of: bytes, from: record.dataStart, count: record.compressedCount, into: input)
        let indices = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: record.pixelCount)
        let decoder = GIFLZWDecoder()
        let (written, outcome) = decoder.decode(
            input, count: record.compressedCount, minimumCodeSize: record.minimumCodeSize, into: indices)
        return (indices, written, outcome)
    }

    /// The frame's 256 colours as RGBA8 words in memory order.
    private func palette(of record: GIFFrameRecord, _ bytes: UnsafeRawBufferPointer) -> [UInt32] {
        let opaqueBlack = UInt32(0xFF00_0000).littleEndian
        var palette = [UInt32](repeating: opaqueBlack, count: 256)
        if let table = record.localColorTable ?? container.globalColorTable {
            for entry in 0..<min(256, table.count / 3) {
                let offset = table.lowerBound + entry * 3
                let rgba =
                    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                    | 0xFF00_0000
                palette[entry] = rgba.littleEndian
            }
        }
        if let transparent = record.transparentIndex { palette[Int(transparent)] = 0 }
        return palette
    }

    /// Maps each decoded row through `palette` and composes it at its frame row.
    private func composeRows(
        _ record: GIFFrameRecord, indices: UnsafeMutableBufferPointer<UInt8>, written: Int, palette: [UInt32],
        onto canvas: inout AnimationCanvas
    ) {
        let frame = record.animationFrame
        let width = record.width
        let decodedRows = (written + width - 1) / width
        let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * 4)
        defer { row.deallocate() }
        palette.withUnsafeBufferPointer { colors in
            // `indices` holds `written` ≤ width × height bytes; each row reads at most `width`
            // of them and writes `width` words into `row`.
            guard let colors = colors.baseAddress, let source = indices.baseAddress, let base = row.baseAddress
            else { return }
            let pixels = UnsafeMutableRawPointer(base)
            for storedRow in 0..<decodedRows {
                let start = storedRow * width
                let count = min(width, written - start)
                for column in 0..<count {
                    pixels.storeBytes(
                        of: colors[Int(source[start + column])], toByteOffset: column * 4, as: UInt32.self)
                }
                if count < width { (base + count * 4).update(repeating: 0, count: (width - count) * 4) }
                let frameRow =
                    record.isInterlaced
                    ? GIFInterlacing.frameRow(ofStoredRow: storedRow, height: record.height) : storedRow
                canvas.composeRow(UnsafeBufferPointer(row), at: frameRow, of: frame)
            }
        }
    }
}
