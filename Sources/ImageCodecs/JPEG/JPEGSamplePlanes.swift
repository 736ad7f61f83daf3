/// The samples of every component after the inverse DCT, at the size libjpeg-turbo 2.1.5
/// chooses per component for the output scale (`jpeg_calc_output_dimensions`), for a ring of a
/// few MCU rows: each row is converted to output pixels soon after it is transformed.
final class JPEGSamplePlanes {
    let frame: JPEGFrame
    /// 1, 2, 4 or 8.
    let scaleDenominator: Int
    /// The inverse DCT size of each component (8, 4, 2 or 1).
    let transformSizes: [Int]
    /// Each component's samples: `blockRowsHeld[c] * size` rows of `strides[c]` samples.
    let planes: [UnsafeMutablePointer<UInt8>]
    let strides: [Int]
    /// libjpeg's `downsampled_width` and `downsampled_height` of each component at this scale.
    let sampledWidths: [Int]
    let sampledHeights: [Int]
    private let rangeLimit: UnsafeMutablePointer<UInt8>

    /// The block rows each plane holds: `bands` MCU rows.
    let blockRowsHeld: [Int]

    /// Allocates the planes (uninitialized; every block is transformed before it is read).
    ///
    /// - Parameter bands: The MCU rows of blocks held, as a ring (block row `r` is stored at `r`
    ///   modulo the rows held), for rendering MCU rows as soon as they are transformed.
    init(frame: JPEGFrame, scaleDenominator: Int, bands: Int) {
        self.frame = frame
        self.scaleDenominator = scaleDenominator
        transformSizes = Self.transformSizes(frame: frame, scaleDenominator: scaleDenominator)
        strides = zip(frame.components, transformSizes).map { $0.widthInBlocks * $1 }
        let held = frame.components.map { component in
            (frame.components.count == 1 ? 1 : component.verticalSampling) * bands
        }
        blockRowsHeld = held
        planes = zip(held, zip(strides, transformSizes)).map { rows, geometry in
            .allocate(capacity: geometry.0 * rows * geometry.1)
        }
        sampledWidths = zip(frame.components, transformSizes).map { component, size in
            ceilDivide(frame.width * component.horizontalSampling * size, frame.maxHorizontalSampling * 8)
        }
        sampledHeights = zip(frame.components, transformSizes).map { component, size in
            ceilDivide(frame.height * component.verticalSampling * size, frame.maxVerticalSampling * 8)
        }
        rangeLimit = .allocate(capacity: 1024)
        rangeLimit.initialize(from: JPEGInverseDCT.rangeLimit, count: 1024)
    }

    deinit {
        for plane in planes { plane.deallocate() }
        rangeLimit.deallocate()
    }

    /// The inverse DCT size of each component: 8 / denominator for the most sampled ones;
    /// doubled for a subsampled component while both its ratios allow (so 4:2:0 chroma at 1/2
    /// is transformed at full 8×8 and needs no upsampling).
    static func transformSizes(frame: JPEGFrame, scaleDenominator: Int) -> [Int] {
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

    /// Inverse-transforms one block row of a component.
    ///
    /// - Parameters:
    ///   - component: The component's index.
    ///   - blockRow: The block row to write, in `0..<heightInBlocks` (others are ignored).
    ///   - blocks: The row's first block; blocks follow each other, 64 coefficients each.
    ///   - quantization: The component's 64 multipliers, natural order.
    func transformBlockRow(
        component: Int, blockRow: Int, blocks: UnsafePointer<Int16>, quantization: UnsafePointer<Int16>
    ) {
        let geometry = frame.components[component]
        guard blockRow < geometry.heightInBlocks else { return }
        let size = transformSizes[component]
        let stride = strides[component]
        let rowStart = planes[component] + (blockRow % blockRowsHeld[component]) * size * stride
        let range = UnsafePointer(rangeLimit)
        // Proven by construction: the plane holds widthInBlocks * size columns and
        // blockRowsHeld * size rows, and the row index is taken modulo blockRowsHeld.
        for column in 0..<geometry.widthInBlocks {
            let block = blocks + column * 64
            let output = rowStart + column * size
            switch size {
            case 8: JPEGInverseDCT.transform8x8(block, quantization, output, stride: stride, range: range)
            case 4: JPEGInverseDCT.transform4x4(block, quantization, output, stride: stride, range: range)
            case 2: JPEGInverseDCT.transform2x2(block, quantization, output, stride: stride, range: range)
            default: JPEGInverseDCT.transform1x1(block, quantization, output, range: range)
            }
        }
    }

    /// Inverse-transforms one block row of a component transformed 1×1 from its blocks' DC
    /// coefficients alone, one a block (a row of ``JPEGCoefficientBuffer/dcPlanes``).
    ///
    /// - Parameters:
    ///   - component: The component's index; its transform size must be 1.
    ///   - blockRow: The block row to write, in `0..<heightInBlocks` (others are ignored).
    ///   - dcs: The row's DC coefficients, one per block.
    ///   - quantization: The component's 64 multipliers, natural order.
    func transformDCRow(
        component: Int, blockRow: Int, dcs: UnsafePointer<Int16>, quantization: UnsafePointer<Int16>
    ) {
        let geometry = frame.components[component]
        guard blockRow < geometry.heightInBlocks else { return }
        precondition(transformSizes[component] == 1, "only a 1×1 transform reads the DC alone")
        let output = planes[component] + (blockRow % blockRowsHeld[component]) * strides[component]
        let range = UnsafePointer(rangeLimit)
        // Proven by construction, as in transformBlockRow: the row holds widthInBlocks samples.
        for column in 0..<geometry.widthInBlocks {
            JPEGInverseDCT.transform1x1(dcs + column, quantization, output + column, range: range)
        }
    }

    /// Whether every component is transformed straight to the output resolution, so that
    /// output rows need no upsampling (4:4:4, grayscale, 4:2:0 at 1/2, ...).
    var needsNoUpsampling: Bool {
        let smallest = 8 / scaleDenominator
        return zip(frame.components, transformSizes).allSatisfy { component, size in
            component.horizontalSampling * size == frame.maxHorizontalSampling * smallest
                && component.verticalSampling * size == frame.maxVerticalSampling * smallest
        }
    }
}
