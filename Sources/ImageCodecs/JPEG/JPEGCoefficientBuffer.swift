#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The quantized DCT coefficients of every block of every component, in natural (row-major)
/// order within a block, 64 `Int16`s a block.
///
/// Progressive scans refine coefficients over the whole image, and multi-scan sequential files
/// code the components one after another, so the decoder keeps all of them: 128 bytes per block,
/// that is 2 bytes per sample (3 bytes per pixel for 4:2:0, 6 for 4:4:4), bounded by the
/// decoder's pixel limit.
final class JPEGCoefficientBuffer {
    /// One buffer per frame component, `blocksPerLine * blockRows * 64` coefficients each.
    let planes: [UnsafeMutablePointer<Int16>]
    /// The number of coefficients of each plane.
    let counts: [Int]
    /// If the buffer separates them, each component's DC coefficients, one a block in block
    /// order, where a progressive file's DC scans write them until ``mergeDC(except:)`` moves them into
    /// the blocks; empty otherwise.
    ///
    /// A DC scan touches one coefficient of each 128-byte block, so across a whole image each
    /// write is a cache miss, and a refinement scan's read-modify-write stalls the Huffman decoder
    /// behind it (BENCHMARKS.md has the share); here the blocks' DCs are 64 times
    /// closer together, and the merge is one pass the hardware prefetcher can follow.
    let dcPlanes: [UnsafeMutablePointer<Int16>]

    /// Allocates zeroed coefficients for every block of `frame`, or for one MCU row only (the
    /// streaming decode of a single-scan sequential file).
    ///
    /// - Parameter separatesDC: Whether DC scans write to ``dcPlanes`` (for a progressive
    ///   frame; sequential scans always write whole blocks).
    init(frame: JPEGFrame, mcuRowOnly: Bool = false, separatesDC: Bool = false) {
        counts = frame.components.map { component in
            let rows = mcuRowOnly ? (frame.components.count == 1 ? 1 : component.verticalSampling) : component.blockRows
            return component.blocksPerLine * rows * 64
        }
        // `calloc`: a large buffer comes as fresh pages the kernel zeroes when first touched, so
        // a whole image's coefficients are not written with zeros first (36 MiB for 12 megapixels
        // of 4:2:0); at 1/8 most of them are never touched.
        planes = counts.map(Self.zeroedCoefficients)
        dcPlanes = separatesDC ? counts.map { Self.zeroedCoefficients($0 / 64) } : []
    }

    deinit {
        for plane in planes + dcPlanes { free(plane) }
    }

    private static func zeroedCoefficients(_ count: Int) -> UnsafeMutablePointer<Int16> {
        let byteCount = max(count, 1) * MemoryLayout<Int16>.stride
        guard let raw = calloc(byteCount, 1) else { preconditionFailure("out of memory: \(byteCount) bytes") }
        return raw.bindMemory(to: Int16.self, capacity: count)
    }

    /// Writes each block's DC coefficient from ``dcPlanes`` into the block, for what reads the
    /// blocks whole (smoothing, the inverse DCTs larger than 1×1); no effect without DC planes.
    /// Call it once the scans are done: a DC scan after it would not reach the blocks.
    ///
    /// - Parameter readsDCPlane: For each component, whether what follows reads its DC plane
    ///   instead (a 1×1 inverse DCT without smoothing): its blocks are left untouched, so a
    ///   progressive thumbnail's luma blocks are never written, nor their pages mapped.
    func mergeDC(except readsDCPlane: [Bool]) {
        for (index, (plane, (dcPlane, count))) in zip(planes, zip(dcPlanes, counts)).enumerated()
        where !readsDCPlane[index] {
            for block in 0..<(count / 64) {
                plane[block &* 64] = dcPlane[block]
            }
        }
    }

    /// Sets every coefficient to zero.
    func clear() {
        for (plane, count) in zip(planes, counts) { plane.update(repeating: 0, count: count) }
    }
}

/// The zigzag-to-natural order of T.81 Figure A.6, with 16 extra entries of 63 so that a corrupt
/// run past the end of a block writes to its last coefficient instead of out of bounds (as
/// libjpeg does).
let jpegNaturalOrder: [Int] = jpegNaturalOrderValues

/// ``jpegNaturalOrder`` as a pointer for the hot loops: allocated once, never freed.
let jpegNaturalOrderTable = ConstantTable(jpegNaturalOrderValues)

/// The zigzag position of each bit of the lane mask of
/// ``JPEGBitReader/nonzeroZigzagPositions(_:zigzagIndices:)``: bit `16 * lane + word` stands for
/// natural position `4 * word + lane`.
let jpegZigzagIndexTable = ConstantTable(
    (0..<64).map { bit in UInt8(jpegNaturalOrderValues.firstIndex(of: 4 * (bit & 15) + bit >> 4)!) })

private let jpegNaturalOrderValues: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
]
