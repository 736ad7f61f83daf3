/// How precisely a progressive file's scans have told each component's first ten coefficients
/// (zigzag positions 0...9): libjpeg-turbo 2.1.5's `coef_bits` table and the copy of it taken
/// before each component's latest scan (`jdphuff.c start_pass_phuff_decoder`).
///
/// Block smoothing reads it: a coefficient whose value is `0` is final; `-1` was never sent; a
/// positive value is the point transform `Al` of the last scan that sent it, so its low `Al` bits
/// are still unknown.
struct JPEGCoefficientBits {
    /// The positions tracked per component.
    static let trackedPositions = 10

    /// `trackedPositions` entries per component, -1 before any scan sends the position.
    private(set) var current: [Int]
    /// `current` as it was before the component's latest scan (0 if that was the file's first).
    private(set) var previous: [Int]

    init(componentCount: Int) {
        current = Array(repeating: -1, count: Self.trackedPositions * componentCount)
        // Never read before a scan sets it: smoothing needs every component's DC scan first.
        previous = Array(repeating: 0, count: Self.trackedPositions * componentCount)
    }

    /// Records the start of a progressive scan, the file's `number`th (from 1).
    mutating func startScan(_ scan: JPEGScanHeader, number: Int) {
        let tracked = Self.trackedPositions
        for member in scan.members {
            let base = tracked * member.componentIndex
            // libjpeg copies at least positions 1...9, whatever the scan's band.
            for position in min(scan.spectralStart, 1)..<tracked {
                previous[base + position] = number > 1 ? current[base + position] : 0
            }
            guard scan.spectralStart < tracked else { continue }
            for position in scan.spectralStart...min(scan.spectralEnd, tracked - 1) {
                current[base + position] = scan.approximationLow
            }
        }
    }

    /// The entry of `component` at zigzag `position`.
    func current(component: Int, position: Int) -> Int {
        current[Self.trackedPositions * component + position]
    }

    /// The entry of `component` at zigzag `position` before its latest scan.
    func previous(component: Int, position: Int) -> Int {
        previous[Self.trackedPositions * component + position]
    }
}
