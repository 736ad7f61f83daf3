/// How precisely a progressive file's scans have told each component's first ten coefficients
/// (zigzag positions 0...9): libjpeg-turbo 2.1.5's `coef_bits` table and the copy of it taken
/// before each component's latest scan (`jdphuff.c start_pass_phuff_decoder`).
///
/// Block smoothing reads it: a coefficient whose value is `0` is final; `-1` was never sent; a
/// positive value is the point transform `Al` of the last scan that sent it, so its low `Al` bits
/// are still unknown. All 64 positions are kept, to check each scan's `Ah` against them.
struct JPEGCoefficientBits {
    /// The positions block smoothing reads per component.
    static let trackedPositions = 10

    /// 64 entries per component, -1 before any scan sends the position.
    private(set) var current: [Int]
    /// `current` as it was before the component's latest scan (0 if that was the file's first),
    /// `trackedPositions` entries per component.
    private(set) var previous: [Int]

    init(componentCount: Int) {
        current = Array(repeating: -1, count: 64 * componentCount)
        // Never read before a scan sets it: smoothing needs every component's DC scan first.
        previous = Array(repeating: 0, count: Self.trackedPositions * componentCount)
    }

    /// Records the start of a progressive scan, the file's `number`th (from 1).
    ///
    /// - Returns: Whether the scan follows from the earlier ones as libjpeg expects (it warns
    ///   "Inconsistent progression sequence" otherwise, and decodes on): AC coefficients only
    ///   after the component's DC, and each coefficient's `Ah` the `Al` its last scan left.
    @discardableResult
    mutating func startScan(_ scan: JPEGScanHeader, number: Int) -> Bool {
        let tracked = Self.trackedPositions
        var consistent = true
        for member in scan.members {
            let base = 64 * member.componentIndex
            if scan.spectralStart > 0 && current[base] < 0 { consistent = false }
            // libjpeg copies at least positions 1...9, whatever the scan's band.
            for position in min(scan.spectralStart, 1)..<tracked {
                previous[tracked * member.componentIndex + position] = number > 1 ? current[base + position] : 0
            }
            for position in scan.spectralStart...scan.spectralEnd {
                if scan.approximationHigh != max(current[base + position], 0) { consistent = false }
                current[base + position] = scan.approximationLow
            }
        }
        return consistent
    }

    /// The entry of `component` at zigzag `position`.
    package func current(component: Int, position: Int) -> Int {
        current[64 * component + position]
    }

    /// The entry of `component` at zigzag `position` before its latest scan.
    func previous(component: Int, position: Int) -> Int {
        previous[Self.trackedPositions * component + position]
    }
}
