/// What reading a JPEG's markers up to its first scan learned, kept in an ``ImageHeader`` so the
/// peak of its decode is computed without reading them again.
package struct JPEGHeaderSummary: Sendable {
    let frame: JPEGFrame
    let orientation: JPEGOrientation
    let firstScanComponentCount: Int
}
