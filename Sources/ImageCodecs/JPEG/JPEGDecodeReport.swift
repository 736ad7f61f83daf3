/// What a JPEG decode recovered from: whether the file was damaged, and how.
///
/// ``JPEGDecoder`` in its default mode decodes damaged files the way libjpeg-turbo's `djpeg`
/// shows them (see ``JPEGDecoder/strict``); this report tells the caller that the pixels are
/// not the whole picture, so a store can count or log such files.
public struct JPEGDecodeReport: Sendable, Equatable {
    /// The first defect the decoder recovered from: the error a strict decoder throws for the
    /// same file (within one scan, an invalid Huffman code is reported after a truncation or a
    /// restart marker defect of that scan). `nil` when the file was intact.
    public var defect: JPEGError?

    /// Whether the file was damaged (truncated scan data, a wrong or missing restart marker, an
    /// invalid Huffman code, bytes outside any segment) and the pixels were reconstructed as
    /// libjpeg-turbo reconstructs them, block smoothing of a progressive file cut short included.
    ///
    /// A valid progressive file whose scans stop early is not damaged: it is block-smoothed too,
    /// without a defect.
    public var isDamaged: Bool { defect != nil }

    /// Creates a report.
    ///
    /// - Parameter defect: The first defect recovered from, or `nil` for an intact file.
    public init(defect: JPEGError? = nil) {
        self.defect = defect
    }
}
