/// Why ``VP8Decoder`` rejected the payload of a `VP8 ` chunk.
///
/// Each case names the check libwebp 1.2.4 fails at for the same bytes, so a file that `dwebp`
/// refuses is refused here too, and for the same reason.
package enum VP8Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The chunk is shorter than the 10-byte key frame header.
    case truncatedHeader(size: Int)
    /// The frame tag marks an interframe, which a still WebP never holds.
    case notKeyFrame
    /// The frame tag's version is above 3.
    case invalidProfile(Int)
    /// The frame tag's `show_frame` bit is clear.
    case frameNotShown
    /// The three bytes after the frame tag are not the start code `9D 01 2A`.
    case badStartCode(UInt8, UInt8, UInt8)
    /// The frame header declares a width or height of 0.
    case invalidDimensions(width: Int, height: Int)
    /// The first partition is declared longer than the bytes that follow the frame header.
    case firstPartitionPastEnd(declared: Int, available: Int)
    /// The first partition ends inside the segmentation or loop filter header.
    case truncatedFrameHeader
    /// The token partitions' size table, or the last token partition, lies past the chunk's end.
    case tokenPartitionsPastEnd(partitionCount: Int)
    /// The first partition ends inside the modes of macroblock row `row`.
    case truncatedModes(row: Int)
    /// A token partition ends inside the coefficients of the macroblock at `column`, `row`.
    case truncatedCoefficients(column: Int, row: Int)
    /// The image has more pixels than the caller allows; nothing was allocated for it.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// The load stopped the decode through ``DecodeCancellation`` before macroblock row `row`.
    case cancelled(row: Int)

    /// The reason in words.
    package var description: String {
        switch self {
        case .truncatedHeader(let size): "VP8 frame of \(size) bytes, shorter than its 10-byte header"
        case .notKeyFrame: "VP8 frame is not a key frame"
        case .invalidProfile(let profile): "VP8 frame has version \(profile), above 3"
        case .frameNotShown: "VP8 frame is not meant to be shown"
        case .badStartCode(let first, let second, let third):
            "VP8 start code is \(hex(first)) \(hex(second)) \(hex(third)), not 9D 01 2A"
        case .invalidDimensions(let width, let height): "VP8 frame is \(width)×\(height)"
        case .firstPartitionPastEnd(let declared, let available):
            "VP8 first partition of \(declared) bytes, but only \(available) follow the header"
        case .truncatedFrameHeader: "VP8 first partition ends inside the segment or filter header"
        case .tokenPartitionsPastEnd(let count): "VP8 frame ends before its \(count) token partitions"
        case .truncatedModes(let row): "VP8 first partition ends inside the modes of macroblock row \(row)"
        case .truncatedCoefficients(let column, let row):
            "VP8 token partition ends inside macroblock (\(column), \(row))"
        case .imageTooLarge(let width, let height, let limit):
            "VP8 frame of \(width)×\(height) pixels exceeds the limit of \(limit) pixels"
        case .cancelled(let row): "VP8 decode cancelled before macroblock row \(row)"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
