/// An APNG `fcTL` chunk: where a frame goes on the canvas, how long it shows and how it is
/// drawn and disposed (APNG specification, "fcTL").
struct APNGFrameControl: Equatable {
    /// The chunk's place in the sequence `fcTL` and `fdAT` chunks share.
    let sequenceNumber: UInt32
    let width: Int
    let height: Int
    let x: Int
    let y: Int
    let delayNumerator: Int
    /// The delay's denominator as stored; 0 means 100 (hundredths of a second).
    let delayDenominator: Int
    /// 0 none, 1 background, 2 previous; checked to be at most 2.
    let disposeOp: UInt8
    /// 0 source, 1 over; checked to be at most 1.
    let blendOp: UInt8

    /// The bytes of an `fcTL` chunk's data.
    static let byteCount = 26

    /// Reads an `fcTL` chunk's data.
    ///
    /// - Parameters:
    ///   - data: The chunk's data.
    ///   - offset: The chunk's offset in the file, for errors.
    /// - Throws: ``PNGError/invalidAnimationChunkLength(chunk:offset:length:)``.
    init(parsing data: UnsafeRawBufferPointer, offset: Int) throws(PNGError) {
        guard data.count == Self.byteCount else {
            throw .invalidAnimationChunkLength(chunk: "fcTL", offset: offset, length: data.count)
        }
        sequenceNumber = data.bigEndianUInt32(at: 0)
        width = Int(data.bigEndianUInt32(at: 4))
        height = Int(data.bigEndianUInt32(at: 8))
        x = Int(data.bigEndianUInt32(at: 12))
        y = Int(data.bigEndianUInt32(at: 16))
        delayNumerator = Int(data[20]) << 8 | Int(data[21])
        delayDenominator = Int(data[22]) << 8 | Int(data[23])
        disposeOp = data[24]
        blendOp = data[25]
    }

    /// How long the frame shows, as browsers play it: `delay_num / delay_den` seconds (a
    /// denominator of 0 meaning 100), except that 10 ms or less plays as 100 ms (Firefox's and
    /// Chromium's rule for every animated format, which files made for browsers rely on).
    var nanoseconds: Int {
        let denominator = delayDenominator == 0 ? 100 : delayDenominator
        // delay ≤ 10 ms ⇔ numerator × 100 ≤ denominator, exactly, in integers.
        guard delayNumerator * 100 > denominator else { return 100_000_000 }
        // Both are 16-bit: the product stays far below Int's range.
        return (delayNumerator * 1_000_000_000 + denominator / 2) / denominator
    }

    /// Checks the rectangle and the operations, and makes the frame's description.
    ///
    /// - Parameters:
    ///   - index: The frame's index; frame 0 must cover the canvas at 0,0.
    ///   - canvas: The `IHDR` size.
    /// - Returns: The frame, `dispose_op` previous on the first frame played as background (the
    ///   APNG specification's rule).
    /// - Throws: ``PNGError/invalidFrameRegion(frame:x:y:width:height:canvasWidth:canvasHeight:)``
    ///   or ``PNGError/invalidFrameOperation(frame:disposeOp:blendOp:)``.
    func frameInfo(index: Int, canvasWidth: Int, canvasHeight: Int) throws(PNGError) -> AnimationFrameInfo {
        // Each term is below 2³², so the sums cannot overflow Int.
        let isInside =
            width >= 1 && height >= 1 && x + width <= canvasWidth && y + height <= canvasHeight
            && (index > 0 || (x == 0 && y == 0 && width == canvasWidth && height == canvasHeight))
        guard isInside else {
            throw .invalidFrameRegion(
                frame: index, x: x, y: y, width: width, height: height, canvasWidth: canvasWidth,
                canvasHeight: canvasHeight)
        }
        let disposal: AnimationDisposal
        switch disposeOp {
        case 0: disposal = .none
        case 1: disposal = .background
        case 2: disposal = index == 0 ? .background : .previous
        default: throw .invalidFrameOperation(frame: index, disposeOp: disposeOp, blendOp: blendOp)
        }
        guard blendOp <= 1 else { throw .invalidFrameOperation(frame: index, disposeOp: disposeOp, blendOp: blendOp) }
        return AnimationFrameInfo(
            nanoseconds: nanoseconds, x: x, y: y, width: width, height: height, disposal: disposal,
            blend: blendOp == 0 ? .source : .over)
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian `UInt32` at `offset`; the caller has checked that four bytes are there.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
