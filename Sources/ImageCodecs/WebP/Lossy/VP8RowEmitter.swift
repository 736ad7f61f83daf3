/// Turns the finished Y, U and V rows of each macroblock row into RGBA rows, in order, without
/// the whole planes: a luma row that needs the next batch's chroma waits in ``pendingLuma``, and
/// the last chroma row of a batch is kept in ``previousU``/``previousV`` for the next one.
struct VP8RowEmitter {
    let width: Int
    let height: Int
    /// The last chroma row's index.
    private let lastChromaRow: Int
    private let output: UnsafeMutablePointer<UInt8>
    /// The whole image, when rows are converted in place.
    private let destination: UnsafeMutablePointer<UInt8>?
    private let pendingLuma: UnsafeMutablePointer<UInt8>
    private let previousU: UnsafeMutablePointer<UInt8>
    private let previousV: UnsafeMutablePointer<UInt8>
    /// The upsampled U and V of the row being converted.
    private let chromaRow: UnsafeMutablePointer<UInt8>
    private var hasPendingRow = false

    /// The rows of one batch: luma rows `first..<end` and chroma rows `first / 2..<(end + 1) / 2`.
    struct Batch {
        let first: Int
        let end: Int
        let isLast: Bool
        let luma: UnsafePointer<UInt8>
        let lumaStride: Int
        let u: UnsafePointer<UInt8>
        let v: UnsafePointer<UInt8>
        let chromaStride: Int
    }

    /// Allocates the emitter's row buffers; call ``deallocate()`` when done.
    init(width: Int, height: Int, destination: UnsafeMutablePointer<UInt8>?) {
        self.width = width
        self.destination = destination
        self.height = height
        lastChromaRow = (height + 1) / 2 - 1
        let chromaWidth = (width + 1) / 2
        output = .allocate(capacity: 4 * width)
        pendingLuma = .allocate(capacity: width)
        previousU = .allocate(capacity: chromaWidth)
        previousV = .allocate(capacity: chromaWidth)
        chromaRow = .allocate(capacity: 2 * width)
    }

    func deallocate() {
        output.deallocate()
        pendingLuma.deallocate()
        previousU.deallocate()
        previousV.deallocate()
        chromaRow.deallocate()
    }

    /// Emits the batch's rows that are complete; a batch's `first` and (unless last) `end` are even.
    mutating func emit(_ batch: Batch, to sink: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let chromaWidth = (width + 1) / 2
        func chroma(_ index: Int) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
            if index < batch.first / 2 { return (UnsafePointer(previousU), UnsafePointer(previousV)) }
            let offset = (index - batch.first / 2) * batch.chromaStride
            return (batch.u + offset, batch.v + offset)
        }
        func convert(_ row: Int, luma: UnsafePointer<UInt8>) {
            let near: Int
            let far: Int
            if row == 0 {
                (near, far) = (0, 0)
            } else if row & 1 == 1 {
                (near, far) = ((row - 1) / 2, min((row + 1) / 2, lastChromaRow))
            } else {
                (near, far) = (row / 2, row / 2 - 1)
            }
            let (nearU, nearV) = chroma(near)
            let (farU, farV) = chroma(far)
            let target = destination.map { $0 + 4 * width * row } ?? output
            VP8Upsampler.convertRow(
                luma: luma, nearU: nearU, nearV: nearV, farU: farU, farV: farV, width: width, output: target,
                scratch: chromaRow)
            sink(row, UnsafeBufferPointer(start: target, count: 4 * width))
        }
        if hasPendingRow {
            convert(batch.first - 1, luma: pendingLuma)
            hasPendingRow = false
        }
        for row in batch.first..<batch.end {
            let luma = batch.luma + (row - batch.first) * batch.lumaStride
            if row & 1 == 1 && row == batch.end - 1 && !batch.isLast {
                pendingLuma.update(from: luma, count: width)
                hasPendingRow = true
            } else {
                convert(row, luma: luma)
            }
        }
        if !batch.isLast {
            let (u, v) = chroma(batch.end / 2 - 1)
            previousU.update(from: u, count: chromaWidth)
            previousV.update(from: v, count: chromaWidth)
        }
    }
}
