import Foundation

/// The memory a decode holds at its peak, computed from the IHDR chunk and the file's size
/// before anything is allocated, and the check against ``PNGDecoder/maximumDecodingBytes``.
///
/// | decode                                   | peak: output, plus                                        |
/// |------------------------------------------|-----------------------------------------------------------|
/// | full size, non-interlaced                | three rows and the streaming inflater (320 KiB)            |
/// | full size, small (≤ 256 KiB filtered)    | the filtered data in the bitmap's buffer, a copy of the compressed data |
/// | full size, Adam7                         | the whole filtered data, a copy of the compressed data      |
/// | thumbnail, non-interlaced                | the averager's column sums (15 bytes a source sample), a few rows, the streaming inflater |
/// | thumbnail, Adam7                         | 64-bit sums per output sample, a few pass rows, the streaming inflater; or, if less, the full-size decode and its averaging |
///
/// The output counts 4 bytes a pixel for RGB, palette and RGBA images and 2 for gray ones (1 if
/// no tRNS chunk turns up, which the header cannot tell): an upper bound, exact for colour.
extension PNGDecoder {
    /// The reduced size a thumbnail request gets, nil for a full-size decode.
    func thumbnailSize(_ header: PNGHeader, _ maxPixelSize: Int?) -> ThumbnailSize? {
        maxPixelSize.flatMap { ThumbnailSize(width: header.width, height: header.height, maxPixelSize: $0) }
    }

    /// Throws unless `bytesNeeded` is within ``maximumDecodingBytes``.
    func checkPeak(_ bytesNeeded: Int) throws(PNGError) {
        guard bytesNeeded <= maximumDecodingBytes else {
            throw .decodeTooLarge(bytesNeeded: bytesNeeded, limit: maximumDecodingBytes)
        }
    }

    /// The peak of the path the decoder takes for `thumbnail` (nil: full size).
    func peakBytes(of header: PNGHeader, fileCount: Int, thumbnail: ThumbnailSize?) -> Int {
        guard let thumbnail else { return fullSizePeakBytes(of: header, fileCount: fileCount) }
        guard header.isInterlaced else { return rowStreamingPeakBytes(of: header, thumbnail: thumbnail) }
        return min(
            passStreamingPeakBytes(of: header, thumbnail: thumbnail),
            averagedFullSizePeakBytes(of: header, fileCount: fileCount, thumbnail: thumbnail))
    }

    /// Whether an Adam7 thumbnail is averaged pass by pass as they are inflated: unless its
    /// 64-bit sums (8 bytes an output sample) would cost more than a full-size decode.
    func streamsPasses(of header: PNGHeader, fileCount: Int, thumbnail: ThumbnailSize) -> Bool {
        passStreamingPeakBytes(of: header, thumbnail: thumbnail)
            <= averagedFullSizePeakBytes(of: header, fileCount: fileCount, thumbnail: thumbnail)
    }

    /// Bytes an output pixel takes at most: 4 for colour, 2 for gray (1 without a tRNS key).
    private func outputBytesPerPixel(_ header: PNGHeader) -> Int {
        switch header.colorType {
        case .gray, .grayAlpha: 2
        case .rgb, .palette, .rgba: 4
        }
    }

    private func fullSizePeakBytes(of header: PNGHeader, fileCount: Int) -> Int {
        let output = DecodingPeak.product(header.width, header.height, outputBytesPerPixel(header))
        let rowCount = header.rowByteCount(width: header.width)
        let filtered = PNGPass.passes(of: header).reduce(0) { DecodingPeak.sum($0, $1.filteredByteCount) }
        let slack = Inflater.outputSlack
        if header.isInterlaced {
            // The filtered passes, the compressed copy, the zero row and a converted pass row.
            return DecodingPeak.sum(
                output, filtered, slack, fileCount, DecodingPeak.inflaterBytes, rowCount, slack,
                header.width * outputBytesPerPixel(header))
        }
        // PNGRowStream's two unfiltered rows and the row that straddles two chunks.
        let rows = DecodingPeak.sum(3 * max(rowCount, 4 * header.width), 3 * slack, 1)
        if PNGRowStream.inflatesWhole(
            outputCount: output, filteredCount: filtered, header: header, limit: wholeInflationLimit)
        {
            return DecodingPeak.sum(max(output, filtered), slack, fileCount, DecodingPeak.inflaterBytes, rows)
        }
        return DecodingPeak.sum(output, DecodingPeak.streamingInflaterBytes, rows)
    }

    /// A non-interlaced thumbnail: the output, the averager, three rows and a converted one.
    private func rowStreamingPeakBytes(of header: PNGHeader, thumbnail: ThumbnailSize) -> Int {
        let bytesPerPixel = outputBytesPerPixel(header)
        let rowCount = header.rowByteCount(width: header.width)
        return DecodingPeak.sum(
            DecodingPeak.product(thumbnail.width, thumbnail.height, bytesPerPixel),
            averagerBytes(sourceWidth: header.width, bytesPerPixel: bytesPerPixel),
            3 * max(rowCount, 4 * header.width), 3 * Inflater.outputSlack, 1, header.width * bytesPerPixel,
            DecodingPeak.streamingInflaterBytes)
    }

    /// An Adam7 thumbnail averaged pass by pass (see ``PassAreaAverager``).
    private func passStreamingPeakBytes(of header: PNGHeader, thumbnail: ThumbnailSize) -> Int {
        let bytesPerPixel = outputBytesPerPixel(header)
        let output = DecodingPeak.product(thumbnail.width, thumbnail.height, bytesPerPixel)
        let rowCount = header.rowByteCount(width: header.width)
        return DecodingPeak.sum(
            output, DecodingPeak.product(8, output),
            PassAreaAverager.rowScratchBytes(
                sourceWidth: header.width, outputWidth: thumbnail.width, bytesPerPixel: bytesPerPixel),
            PNGInterlacedRowStream.scratchBytes(
                widestRowByteCount: rowCount, width: header.width, bytesPerPixel: bytesPerPixel),
            DecodingPeak.streamingInflaterBytes)
    }

    /// An Adam7 thumbnail made from the full-size image: its decode, then the averager.
    private func averagedFullSizePeakBytes(of header: PNGHeader, fileCount: Int, thumbnail: ThumbnailSize) -> Int {
        let bytesPerPixel = outputBytesPerPixel(header)
        return DecodingPeak.sum(
            fullSizePeakBytes(of: header, fileCount: fileCount),
            DecodingPeak.product(thumbnail.width, thumbnail.height, bytesPerPixel),
            averagerBytes(sourceWidth: header.width, bytesPerPixel: bytesPerPixel))
    }

    /// ``AreaAverager``'s scratch: a column split (8 bytes) per source column, and per source
    /// sample three rows of 32-bit sums, one of 16-bit sums and a premultiplied byte.
    private func averagerBytes(sourceWidth: Int, bytesPerPixel: Int) -> Int {
        DecodingPeak.sum(8 * sourceWidth, 15 * sourceWidth * bytesPerPixel)
    }
}
