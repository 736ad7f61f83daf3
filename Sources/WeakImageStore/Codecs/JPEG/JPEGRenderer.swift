/// Turns decoded coefficients into pixels at full size or 1/2, 1/4, 1/8: inverse DCT per
/// component at the size libjpeg-turbo 2.1.5 chooses (`jpeg_calc_output_dimensions`), then
/// upsampling and colour conversion row by row.
struct JPEGRenderer {
    let frame: JPEGFrame
    let coefficients: JPEGCoefficientBuffer
    let quantization: [[Int32]]
    let colorSpace: JPEGColorConverter.ColorSpace
    /// 1, 2, 4 or 8.
    let scaleDenominator: Int

    /// The output size: the frame size divided by the denominator, rounded up.
    var outputWidth: Int { ceilDivide(frame.width, scaleDenominator) }
    var outputHeight: Int { ceilDivide(frame.height, scaleDenominator) }

    /// The inverse DCT size of each component: 8 / denominator for the most sampled ones;
    /// doubled for a subsampled component while both its ratios allow (so 4:2:0 chroma at 1/2
    /// is transformed at full 8×8 and needs no upsampling).
    func transformSizes() -> [Int] {
        let smallest = 8 / scaleDenominator
        return frame.components.map { component in
            var size = smallest
            while size < 8
                && (frame.maxHorizontalSampling * smallest) % (component.horizontalSampling * size * 2) == 0
                && (frame.maxVerticalSampling * smallest) % (component.verticalSampling * size * 2) == 0
            {
                size *= 2
            }
            return size
        }
    }

    /// Renders the image.
    ///
    /// - Returns: `outputWidth * outputHeight` pixels of `bytesPerPixel` bytes.
    func render() -> [UInt8] {
        let converter = JPEGColorConverter(colorSpace: colorSpace)
        let width = outputWidth
        let height = outputHeight
        let bytesPerPixel = converter.bytesPerPixel
        let sizes = transformSizes()
        let smallest = 8 / scaleDenominator
        // Sample planes, one per component, holding every block transformed.
        var planes: [UnsafeMutablePointer<UInt8>] = []
        var upsamplers: [JPEGUpsampler] = []
        var scratches: [UnsafeMutablePointer<UInt8>] = []
        defer {
            for plane in planes { plane.deallocate() }
            for scratch in scratches { scratch.deallocate() }
        }
        JPEGInverseDCT.rangeLimit.withUnsafeBufferPointer { range in
            for (index, component) in frame.components.enumerated() {
                let size = sizes[index]
                let stride = component.widthInBlocks * size
                let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * component.heightInBlocks * size)
                planes.append(plane)
                quantization[index].withUnsafeBufferPointer { quant in
                    transform(
                        component: index, size: size, stride: stride, into: plane, quantization: quant.baseAddress!,
                        range: range.baseAddress!
                    )
                }
                let sampledWidth = ceilDivide(
                    frame.width * component.horizontalSampling * size, frame.maxHorizontalSampling * 8
                )
                let sampledHeight = ceilDivide(
                    frame.height * component.verticalSampling * size, frame.maxVerticalSampling * 8
                )
                let horizontalExpansion = frame.maxHorizontalSampling * smallest / (component.horizontalSampling * size)
                let verticalExpansion = frame.maxVerticalSampling * smallest / (component.verticalSampling * size)
                upsamplers.append(
                    JPEGUpsampler(
                        samples: plane, stride: stride, width: sampledWidth, height: sampledHeight,
                        horizontalExpansion: horizontalExpansion, verticalExpansion: verticalExpansion,
                        fancy: smallest > 1
                    )
                )
                scratches.append(.allocate(capacity: width + horizontalExpansion * sampledWidth + 16))
            }
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

    /// Inverse-transforms every block of one component into its plane.
    private func transform(
        component index: Int, size: Int, stride: Int, into plane: UnsafeMutablePointer<UInt8>,
        quantization: UnsafePointer<Int32>, range: UnsafePointer<UInt8>
    ) {
        let component = frame.components[index]
        let blocks = coefficients.planes[index]
        for blockRow in 0..<component.heightInBlocks {
            for blockColumn in 0..<component.widthInBlocks {
                let block = UnsafePointer(blocks + (blockRow * component.blocksPerLine + blockColumn) * 64)
                let output = plane + blockRow * size * stride + blockColumn * size
                switch size {
                case 8: JPEGInverseDCT.transform8x8(block, quantization, output, stride: stride, range: range)
                case 4: JPEGInverseDCT.transform4x4(block, quantization, output, stride: stride, range: range)
                case 2: JPEGInverseDCT.transform2x2(block, quantization, output, stride: stride, range: range)
                default: JPEGInverseDCT.transform1x1(block, quantization, output, range: range)
                }
            }
        }
    }
}
