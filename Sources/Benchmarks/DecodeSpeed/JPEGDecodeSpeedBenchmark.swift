import Foundation
import WeakImageStore

/// Decode speed of ``JPEGDecoder`` side by side with libjpeg-turbo (TurboJPEG, loaded with
/// `dlopen`), on the same files in the same run, at full size and at 1/2, 1/4 and 1/8 in the DCT domain; and
/// our 256-pixel thumbnails of the progressive photos, the store's `maxPixelSize` path.
///
/// Throughput is in source megapixels per CPU second of the decoding thread (the file's own pixel count, whatever the
/// output size), so full-size and scaled figures compare. Samples alternate between the decoders
/// as in ``DecodeSpeedBenchmark``. libjpeg-turbo is measured on an input only if it decodes every
/// file to exactly our bytes (both follow libjpeg-turbo 2.1.5's default behaviour).
enum JPEGDecodeSpeedBenchmark {
    /// A set of JPEG files decoded together per sample.
    struct Input {
        let label: String
        let files: [Data]
    }

    /// What a row decodes.
    enum Output: Equatable, CustomStringConvertible {
        /// The whole image at 1/denominator in the DCT domain (1 is full size).
        case scaled(denominator: Int)
        /// ``JPEGDecoder/decode(_:scale:maxPixelSize:)``: the smallest DCT scale that covers the
        /// size, then area averaging. libjpeg-turbo has no equivalent, so it is not measured.
        case thumbnail(maxPixelSize: Int)

        var description: String {
            switch self {
            case .scaled(let denominator): "1/\(denominator)"
            case .thumbnail(let maxPixelSize): "\(maxPixelSize) px"
            }
        }
    }

    /// One input's medians at one output, in source megapixels per second.
    struct Row {
        let label: String
        let output: Output
        let megapixels: Double
        let ours: DecodeSpeedResult.Measurement
        let libjpegTurbo: DecodeSpeedResult.Measurement?

        var ratio: Double? { libjpegTurbo.map { ours.median / $0.median } }
    }

    private static let warmUpRounds = 1

    /// The inputs: the JPEG suite's `photo640_*` (`Tests/WeakImageStoreTests/Fixtures/jpegsuite`)
    /// and, when libjpeg-turbo is present to encode them, photo-like images of each size as
    /// baseline 4:2:0, baseline 4:4:4 and progressive 4:2:0 at quality 85.
    static func inputs(sizes: [BenchmarkProfile.PixelSize], libjpegTurbo: LibjpegTurbo?) -> [Input] {
        var inputs: [Input] = []
        let suite = PackageFolders.testFixtures.appendingPathComponent("jpegsuite")
        for name in ["photo640_q85", "photo640_prog"] {
            if let file = try? Data(contentsOf: suite.appendingPathComponent("\(name).jpg")) {
                inputs.append(Input(label: "suite \(name)", files: [file]))
            }
        }
        guard let libjpegTurbo else { return inputs }
        for size in sizes {
            let pixels = SyntheticImages.photo(width: size.width, height: size.height, seed: 21).pixels
            let variants: [(String, LibjpegTurbo.Subsampling, Bool)] = [
                ("baseline 4:2:0", .s420, false), ("baseline 4:4:4", .s444, false), ("progressive 4:2:0", .s420, true),
            ]
            for (name, subsampling, progressive) in variants {
                if let file = libjpegTurbo.encode(
                    rgba: pixels, width: size.width, height: size.height, quality: 85, subsampling: subsampling,
                    progressive: progressive
                ) {
                    inputs.append(Input(label: "photo \(size) \(name)", files: [file]))
                }
            }
        }
        return inputs
    }

    /// The thumbnail size measured on the progressive inputs, a grid cell's.
    static let thumbnailPixelSize = 256

    /// The DCT scales measured, full size first.
    static let denominators = [1, 2, 4, 8]

    /// Measures every input at full size, 1/2, 1/4 and 1/8, and the progressive ones' thumbnails.
    static func run(_ inputs: [Input], samples: Int, libjpegTurbo: LibjpegTurbo?) -> [Row] {
        let decoder = JPEGDecoder()
        var rows: [Row] = []
        for input in inputs {
            var outputs: [Output] = denominators.map { .scaled(denominator: $0) }
            if input.label.contains("progressive") { outputs.append(.thumbnail(maxPixelSize: thumbnailPixelSize)) }
            for output in outputs {
                if let row = measure(input, output: output, samples: samples, decoder: decoder, turbo: libjpegTurbo) {
                    rows.append(row)
                }
            }
        }
        return rows
    }

    private static func decode(_ file: Data, to output: Output, with decoder: JPEGDecoder) throws(JPEGError) -> Bitmap {
        switch output {
        case .scaled(let denominator): try decoder.decodeScaled(file, scale: 1, scaleDenominator: denominator).bitmap
        case .thumbnail(let maxPixelSize): try decoder.decode(file, scale: 1, maxPixelSize: maxPixelSize)
        }
    }

    private static func measure(
        _ input: Input, output: Output, samples: Int, decoder: JPEGDecoder, turbo: LibjpegTurbo?
    ) -> Row? {
        var megapixels = 0.0
        // libjpeg-turbo decodes the same outputs only in the DCT domain.
        var denominator = 1
        var compared: LibjpegTurbo?
        if case .scaled(let scaledDenominator) = output {
            denominator = scaledDenominator
            compared = turbo
        }
        for file in input.files {
            let bitmap: Bitmap
            let full: Bitmap
            do {
                bitmap = try decode(file, to: output, with: decoder)
                full = try decoder.decode(file, scale: 1)
            } catch {
                if let turbo, turbo.decode(file, denominator: denominator) == nil {
                    Console.note(
                        "\(input.label) \(output): left out, libjpeg-turbo's own decoder rejects the file its "
                            + "encoder made, as ours does (\(error))")
                } else {
                    Console.note("\(input.label) \(output): left out, our decoder rejects a file (\(error))")
                }
                return nil
            }
            megapixels += Double(full.width * full.height) / 1e6
            if let library = compared, library.decode(file, denominator: denominator) != bitmap.pixels {
                Console.note("\(input.label) \(output): libjpeg-turbo not measured, it decodes differently")
                compared = nil
            }
        }
        let ours = {
            DecodeTiming.round(input.files) { (try? decode($0, to: output, with: decoder))?.pixels.count ?? 0 }
        }
        let theirs = compared.map { library in
            { DecodeTiming.round(input.files) { library.decode($0, denominator: denominator)?.count ?? 0 } }
        }
        let seconds = DecodeTiming.interleaved(samples: samples, warmUp: warmUpRounds, ours: ours, theirs: theirs)
        let oursSamples = seconds.ours.map { megapixels / $0 }
        let theirSamples = seconds.theirs.map { megapixels / $0 }
        return Row(
            label: input.label, output: output, megapixels: megapixels,
            ours: DecodeSpeedResult.Measurement(samples: oursSamples),
            libjpegTurbo: theirSamples.isEmpty ? nil : DecodeSpeedResult.Measurement(samples: theirSamples)
        )
    }

    /// Formats the rows as a text table.
    static func table(_ rows: [Row]) -> String {
        var table = TextTable(headers: [
            "input", "scale", "source MP", "ours MP/s", "libjpeg-turbo MP/s", "ours/libjpeg-turbo",
        ])
        for row in rows {
            table.append([
                row.label, row.output.description, String(format: "%.2f", row.megapixels), row.ours.summary,
                row.libjpegTurbo?.summary ?? "not measured", row.ratio.map { String(format: "%.2f×", $0) } ?? "-",
            ])
        }
        return table.rendered(indent: "")
    }

    /// The speed goals, judged on this run: at every scale ≥ 1.0× libjpeg-turbo's at the same
    /// scale on every input (issue #24), and a 256-pixel thumbnail of the largest progressive photo
    /// ≥ 3× faster than our full decode of it.
    static func goals(_ rows: [Row]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for denominator in denominators {
            let measured = rows.filter { $0.output == .scaled(denominator: denominator) && $0.ratio != nil }
            guard let worst = measured.min(by: { $0.ratio! < $1.ratio! }), let ratio = worst.ratio else { continue }
            checks.append(
                GoalCheck(
                    passed: ratio >= 1.0,
                    statement: "JPEG decode at 1/\(denominator) ≥ 1.00× libjpeg-turbo's on every input: lowest "
                        + String(format: "%.2f×", ratio) + " (\(worst.label))",
                    // --quick times the suite's 0.3-MP photos only, 3 samples: too noisy to judge.
                    needsFullRunSizes: true, isTiming: true)
            )
        }
        let progressive = rows.filter { $0.label.contains("progressive") }
        if let largest = progressive.max(by: { $0.megapixels < $1.megapixels }),
            let full = progressive.first(where: { $0.label == largest.label && $0.output == .scaled(denominator: 1) }),
            let thumbnail = progressive.first(where: {
                $0.label == largest.label && $0.output == .thumbnail(maxPixelSize: thumbnailPixelSize)
            })
        {
            let speedup = thumbnail.ours.median / full.ours.median
            checks.append(
                GoalCheck(
                    passed: speedup >= 3,
                    statement: "JPEG \(thumbnailPixelSize)-px thumbnail of \(largest.label) ≥ 3× faster than our "
                        + "full decode: "
                        + String(format: "%.2f×", speedup),
                    needsFullRunSizes: true, isTiming: true)
            )
        }
        return checks
    }

}
