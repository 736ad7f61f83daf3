import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// A smoke test of `JPEGEncoder` the benchmark runs before writing JPEG photos, so a run never
/// measures files a broken encoder wrote (the test suite checks the encoder too, but a benchmark
/// run does not run the suite): a small synthetic photo (odd-sized, so the edge padding is
/// exercised) is encoded at 4:2:0 and 4:4:4 and decoded by the library's `JPEGDecoder`, and must
/// come back the right size and close to the source. A broken encoder then stops the run with
/// a reason instead of silently skewing decode figures.
enum JPEGEncoderSelfCheck {
    /// Why the encoder failed its check.
    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The lowest acceptable PSNR, in dB, against the source at quality 85: well under what a
    /// correct encoder scores on this photo, far above what a wrong table, zigzag or colour
    /// conversion does (BENCHMARKS.md has both figures).
    static let minimumPSNR = 30.0

    /// The check's outcome, computed once per process whoever asks first.
    private static let outcome: Result<[Double], Failure> = run()

    /// Runs the check (once per process).
    ///
    /// - Returns: The PSNR of each sampling, in dB.
    /// - Throws: ``Failure`` if the decoder rejects the encoder's file, decodes it to another size,
    ///   or the PSNR is below ``minimumPSNR``.
    @discardableResult
    static func verify() throws(Failure) -> [Double] {
        try outcome.get()
    }

    private static func run() -> Result<[Double], Failure> {
        let source = SyntheticImages.photo(width: 67, height: 45, seed: 0x1FE6)
        var ratios: [Double] = []
        for sampling in [JPEGEncoder.ChromaSampling.halved, .full] {
            let file = JPEGEncoder.encode(source, chromaSampling: sampling)
            let decoded: Bitmap
            do {
                decoded = try JPEGDecoder().decode(file, scale: 1)
            } catch {
                return .failure(
                    Failure(description: "JPEGEncoder self-check (\(sampling)): JPEGDecoder rejects its file: \(error)")
                )
            }
            guard decoded.width == source.width, decoded.height == source.height, decoded.format == .rgba8 else {
                return .failure(
                    Failure(
                        description: "JPEGEncoder self-check (\(sampling)): decoded \(decoded.width)x\(decoded.height) "
                            + "\(decoded.format), expected \(source.width)x\(source.height) rgba8"))
            }
            let ratio = peakSignalToNoiseRatio(source, decoded)
            guard ratio >= minimumPSNR else {
                return .failure(
                    Failure(
                        description: "JPEGEncoder self-check (\(sampling)): PSNR \(Format.fixed(ratio, digits: 1)) dB "
                            + "against the source, below \(Format.fixed(minimumPSNR, digits: 1)) dB"))
            }
            ratios.append(ratio)
        }
        return .success(ratios)
    }

    /// PSNR in dB over the red, green and blue channels of two RGBA8 bitmaps of one size.
    static func peakSignalToNoiseRatio(_ first: Bitmap, _ second: Bitmap) -> Double {
        precondition(first.format == .rgba8 && second.format == .rgba8 && first.cost == second.cost)
        var squaredError = 0.0
        for index in first.pixels.indices where index & 3 != 3 {
            let difference = Double(first.pixels[index]) - Double(second.pixels[index])
            squaredError += difference * difference
        }
        let meanSquaredError = squaredError / Double(first.pixels.count / 4 * 3)
        return meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
    }
}
