/// The output rows made from the component planes: upsampled to the output resolution, then
/// colour-converted (the decoder's rendering drives it, in ``JPEGFileDecoder``+Rendering).
struct JPEGOutputRows {
    let planes: JPEGSamplePlanes

    private var frame: JPEGFrame { planes.frame }

    /// The output size: the frame size divided by the denominator, rounded up.
    var outputWidth: Int { ceilDivide(frame.width, planes.scaleDenominator) }
    var outputHeight: Int { ceilDivide(frame.height, planes.scaleDenominator) }

    /// The pixels of a file decoder that has run.
    ///
    /// - Throws: ``JPEGError/incompleteImage`` if the file gave none.
    static func pixels(of file: JPEGFileDecoder) throws(JPEGError) -> [UInt8] {
        guard let pixels = file.pixels else { throw .incompleteImage }
        return pixels
    }

    /// The upsamplers of every component and their scratch rows, producing output rows.
    final class RowSource {
        private let upsamplers: [JPEGUpsampler]
        private let scratches: [UnsafeMutablePointer<UInt8>]
        private let width: Int

        init(planes: JPEGSamplePlanes, outputWidth: Int) {
            let frame = planes.frame
            let smallest = 8 / planes.scaleDenominator
            var upsamplers: [JPEGUpsampler] = []
            var scratches: [UnsafeMutablePointer<UInt8>] = []
            for (index, component) in frame.components.enumerated() {
                let size = planes.transformSizes[index]
                let horizontalExpansion = frame.maxHorizontalSampling * smallest / (component.horizontalSampling * size)
                let verticalExpansion = frame.maxVerticalSampling * smallest / (component.verticalSampling * size)
                upsamplers.append(
                    JPEGUpsampler(
                        samples: planes.planes[index], stride: planes.strides[index],
                        width: planes.sampledWidths[index], height: planes.sampledHeights[index],
                        horizontalExpansion: horizontalExpansion, verticalExpansion: verticalExpansion,
                        fancy: smallest > 1, heldRows: planes.blockRowsHeld[index] * size
                    )
                )
                // The output row, and for the 2 × 2 filter its 16-bit column sums.
                scratches.append(.allocate(capacity: outputWidth + 4 * planes.sampledWidths[index] + 16))
            }
            self.upsamplers = upsamplers
            self.scratches = scratches
            width = outputWidth
        }

        deinit {
            for scratch in scratches { scratch.deallocate() }
        }

        /// Upsamples and converts output rows `range` into `output` (the whole image).
        func render(_ range: Range<Int>, converter: JPEGColorConverter, into output: UnsafeMutablePointer<UInt8>) {
            var rows = [UnsafePointer<UInt8>](repeating: UnsafePointer(output), count: upsamplers.count)
            for y in range {
                for index in upsamplers.indices {
                    rows[index] = upsamplers[index].row(y, outputWidth: width, scratch: scratches[index])
                }
                converter.convert(rows, width: width, into: output + y * width * converter.bytesPerPixel)
            }
        }
    }
}
