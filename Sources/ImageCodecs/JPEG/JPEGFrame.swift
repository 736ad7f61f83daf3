/// One component of a JPEG frame (Y, Cb, Cr, a gray channel, ...), as its SOF header declares it.
struct JPEGComponent: Sendable, Equatable {
    /// The component identifier that scans refer to.
    var id: Int
    /// The horizontal sampling factor, 1...4.
    var horizontalSampling: Int
    /// The vertical sampling factor, 1...4.
    var verticalSampling: Int
    /// The quantization table slot, 0...3.
    var quantizationTableID: Int
    /// The blocks a row of the component holds in a non-interleaved scan: `ceil(width / 8)`.
    var widthInBlocks = 0
    /// The block rows of the component in a non-interleaved scan: `ceil(height / 8)`.
    var heightInBlocks = 0
    /// The blocks a row of the coefficient buffer holds: whole MCUs, so at least `widthInBlocks`.
    var blocksPerLine = 0
    /// The block rows of the coefficient buffer: whole MCUs.
    var blockRows = 0
}

/// The coding process of a frame, from its SOF marker.
enum JPEGCodingProcess: Sendable, Equatable {
    /// SOF0 (baseline) and SOF1 (extended sequential): one pass per component.
    case sequential
    /// SOF2: spectral selection and successive approximation over several scans.
    case progressive
}

/// A JPEG frame header (SOF): size, process and components, with the MCU geometry derived.
package struct JPEGFrame: Sendable, Equatable {
    var process: JPEGCodingProcess
    package var width: Int
    package var height: Int
    var components: [JPEGComponent]
    /// The largest horizontal sampling factor of any component.
    var maxHorizontalSampling = 1
    /// The largest vertical sampling factor of any component.
    var maxVerticalSampling = 1
    /// MCUs per row of an interleaved scan: `ceil(width / (8 * maxHorizontalSampling))`.
    var mcusPerLine = 0
    /// MCU rows of an interleaved scan.
    var mcuRows = 0

    /// Parses an SOF segment's data.
    ///
    /// - Throws: ``JPEGError`` for an unsupported precision, a zero size, a component count
    ///   other than 1, 3 or 4, or invalid sampling factors.
    init(segment: UnsafeRawBufferPointer, marker: UInt8, offset: Int) throws(JPEGError) {
        process = marker == 0xC2 ? .progressive : .sequential
        guard segment.count >= 6 else { throw .badSegment(marker: marker, offset: offset) }
        let precision = Int(segment[0])
        guard precision == 8 else { throw .unsupportedProcess(.samplePrecision(precision)) }
        height = Int(segment[1]) << 8 | Int(segment[2])
        width = Int(segment[3]) << 8 | Int(segment[4])
        let count = Int(segment[5])
        guard segment.count == 6 + 3 * count else { throw .badSegment(marker: marker, offset: offset) }
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard count == 1 || count == 3 || count == 4 else { throw .unsupportedComponentCount(count) }
        components = []
        for index in 0..<count {
            let base = 6 + 3 * index
            let id = Int(segment[base])
            let horizontal = Int(segment[base + 1] >> 4)
            let vertical = Int(segment[base + 1] & 15)
            guard (1...4).contains(horizontal), (1...4).contains(vertical) else {
                throw .badSamplingFactors(componentID: id, horizontal: horizontal, vertical: vertical)
            }
            // Any slot is accepted here: libjpeg checks it when a scan first uses the component.
            let table = Int(segment[base + 2])
            components.append(
                JPEGComponent(
                    id: id, horizontalSampling: horizontal, verticalSampling: vertical, quantizationTableID: table
                )
            )
        }
        maxHorizontalSampling = components.map(\.horizontalSampling).max() ?? 1
        maxVerticalSampling = components.map(\.verticalSampling).max() ?? 1
        for component in components
        where maxHorizontalSampling % component.horizontalSampling != 0
            || maxVerticalSampling % component.verticalSampling != 0
        {
            throw .fractionalSampling(componentID: component.id)
        }
        mcusPerLine = ceilDivide(width, 8 * maxHorizontalSampling)
        mcuRows = ceilDivide(height, 8 * maxVerticalSampling)
        for index in components.indices {
            let h = components[index].horizontalSampling
            let v = components[index].verticalSampling
            components[index].widthInBlocks = ceilDivide(width * h, 8 * maxHorizontalSampling)
            components[index].heightInBlocks = ceilDivide(height * v, 8 * maxVerticalSampling)
            components[index].blocksPerLine = count == 1 ? components[index].widthInBlocks : mcusPerLine * h
            components[index].blockRows = count == 1 ? components[index].heightInBlocks : mcuRows * v
        }
    }

    /// The number of 8×8 blocks the coefficient buffers of all components hold.
    var totalBlockCount: Int {
        components.reduce(0) { $0 + $1.blocksPerLine * $1.blockRows }
    }
}

/// `ceil(numerator / denominator)` for non-negative numerators and positive denominators.
@inline(__always)
func ceilDivide(_ numerator: Int, _ denominator: Int) -> Int {
    (numerator + denominator - 1) / denominator
}
