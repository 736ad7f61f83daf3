/// Turns the component planes into output pixels row by row: upsampling to the output
/// resolution, then colour conversion.
struct JPEGRenderer {
    let planes: JPEGSamplePlanes
    let colorSpace: JPEGColorConverter.ColorSpace

    private var frame: JPEGFrame { planes.frame }

    /// The output size: the frame size divided by the denominator, rounded up.
    var outputWidth: Int { ceilDivide(frame.width, planes.scaleDenominator) }
    var outputHeight: Int { ceilDivide(frame.height, planes.scaleDenominator) }

    /// Renders the image.
    ///
    /// - Returns: `outputWidth * outputHeight` pixels of the converter's `bytesPerPixel` bytes.
    func render() -> [UInt8] {
        let converter = JPEGColorConverter(colorSpace: colorSpace)
        let width = outputWidth
        let height = outputHeight
        let bytesPerPixel = converter.bytesPerPixel
        let smallest = 8 / planes.scaleDenominator
        var upsamplers: [JPEGUpsampler] = []
        var scratches: [UnsafeMutablePointer<UInt8>] = []
        defer {
            for scratch in scratches { scratch.deallocate() }
        }
        for (index, component) in frame.components.enumerated() {
            let size = planes.transformSizes[index]
            let horizontalExpansion = frame.maxHorizontalSampling * smallest / (component.horizontalSampling * size)
            let verticalExpansion = frame.maxVerticalSampling * smallest / (component.verticalSampling * size)
            upsamplers.append(
                JPEGUpsampler(
                    samples: planes.planes[index], stride: planes.strides[index], width: planes.sampledWidths[index],
                    height: planes.sampledHeights[index], horizontalExpansion: horizontalExpansion,
                    verticalExpansion: verticalExpansion, fancy: smallest > 1
                )
            )
            scratches.append(.allocate(capacity: width + horizontalExpansion * planes.sampledWidths[index] + 16))
        }
        return [UInt8](unsafeUninitializedCapacity: width * height * bytesPerPixel) { output, initialized in
            guard let base = output.baseAddress else { return }
            var rows = [UnsafePointer<UInt8>](repeating: UnsafePointer(base), count: upsamplers.count)
            for y in 0..<height {
                for index in upsamplers.indices {
                    rows[index] = upsamplers[index].row(y, outputWidth: width, scratch: scratches[index])
                }
                converter.convert(rows, width: width, into: base + y * width * bytesPerPixel)
            }
            initialized = width * height * bytesPerPixel
        }
    }

    /// Converts output rows `rows` from band-mode planes holding the MCU row that starts at
    /// output row `bandStart`; needs ``JPEGSamplePlanes/needsNoUpsampling``.
    ///
    /// - Parameter output: The whole output image, `outputWidth * bytesPerPixel` bytes a row.
    func renderBand(
        rows: Range<Int>, bandStart: Int, converter: JPEGColorConverter, into output: UnsafeMutablePointer<UInt8>
    ) {
        let width = outputWidth
        var sources = [UnsafePointer<UInt8>](repeating: UnsafePointer(output), count: planes.planes.count)
        for y in rows {
            for index in sources.indices {
                // Proven: a band holds the MCU row's samples, and y - bandStart < its height.
                sources[index] = UnsafePointer(planes.planes[index] + (y - bandStart) * planes.strides[index])
            }
            converter.convert(sources, width: width, into: output + y * width * converter.bytesPerPixel)
        }
    }
}
