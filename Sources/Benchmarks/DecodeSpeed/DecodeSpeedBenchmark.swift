import Foundation
import WeakImageStore

/// Decode speed of ``PNGDecoder`` side by side with libpng, on the same files, in the same run.
///
/// Each sample decodes every file of an input once with one decoder; samples alternate between
/// the decoders (and which one goes first) so that frequency scaling and cache state affect both
/// alike. Results go through a black hole so that no decode can be optimized away. libpng is
/// loaded with `dlopen` from the shim `Scripts/build-libpng-shim.sh` builds (`$LIBPNG_SHIM`, else
/// `.build-libpng/libpngshim.so`); without it only our decoder is measured.
enum DecodeSpeedBenchmark {
    /// Untimed rounds per decoder before the samples: page in the code and warm the allocator.
    private static let warmUpRounds = 2

    /// Measures every input.
    ///
    /// - Parameters:
    ///   - inputs: The file sets to decode.
    ///   - samples: Timed samples per decoder and input; at least 1.
    /// - Returns: One result per input, in order. Files our decoder rejects are reported on
    ///   standard error and left out; libpng is left out of an input (its result `nil`) if it
    ///   rejects a file or decodes one to different bytes.
    static func run(_ inputs: [DecodeSpeedInput], samples: Int) -> [DecodeSpeedResult] {
        precondition(samples >= 1, "samples must be at least 1")
        let libpng: LibpngShim?
        switch LibpngShim.load() {
        case .success(let shim):
            libpng = shim
        case .failure(let error):
            libpng = nil
            Console.note("libpng not measured: \(error)")
        }
        let decoder = PNGDecoder()
        return inputs.map { measure($0, samples: samples, decoder: decoder, libpng: libpng) }
    }

    /// Checks one input's files (untimed), warms up, then takes the interleaved samples.
    private static func measure(
        _ input: DecodeSpeedInput, samples: Int, decoder: PNGDecoder, libpng: LibpngShim?
    ) -> DecodeSpeedResult {
        var files: [Data] = []
        var decodedBytes = 0
        var smallestPixelCount = Int.max
        var comparedLibpng = libpng
        for (index, file) in input.files.enumerated() {
            let pixels: [UInt8]
            do {
                let bitmap = try decoder.decode(file, scale: 1)
                pixels = bitmap.pixels
                smallestPixelCount = min(smallestPixelCount, bitmap.width * bitmap.height)
            } catch {
                Console.note("\(input.label): skipping file \(index), our decoder rejects it: \(error)")
                continue
            }
            files.append(file)
            decodedBytes += pixels.count
            // The comparison is fair only if libpng does the same work: the same output bytes.
            if let shim = comparedLibpng, shim.decode(file) != pixels {
                Console.note("\(input.label): libpng not measured, it rejects file \(index) or decodes it differently")
                comparedLibpng = nil
            }
        }
        let ours = { DecodeTiming.round(files) { file in (try? decoder.decode(file, scale: 1))?.pixels.count ?? 0 } }
        let theirs = comparedLibpng.map { shim in
            { DecodeTiming.round(files) { file in shim.decode(file)?.count ?? 0 } }
        }
        let seconds = DecodeTiming.interleaved(samples: samples, warmUp: warmUpRounds, ours: ours, theirs: theirs)
        let oursSamples = seconds.ours.map { megabytesPerSecond(decodedBytes, $0) }
        let libpngSamples = seconds.theirs.map { megabytesPerSecond(decodedBytes, $0) }
        return DecodeSpeedResult(
            label: input.label,
            smallestPixelCount: smallestPixelCount,
            decodedBytes: decodedBytes,
            ours: DecodeSpeedResult.Measurement(samples: oursSamples),
            libpng: libpngSamples.isEmpty ? nil : DecodeSpeedResult.Measurement(samples: libpngSamples)
        )
    }

    /// The speed goals, judged on this run: every input of large images (at least
    /// ``largeImagePixelCount`` pixels each) ≥ 2.3× libpng, and icons ≥ 2.5× libpng.
    static func goals(_ results: [DecodeSpeedResult]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        let large = results.filter { $0.smallestPixelCount >= largeImagePixelCount && $0.ratio != nil }
        if let worst = large.min(by: { $0.ratio! < $1.ratio! }), let ratio = worst.ratio {
            checks.append(
                GoalCheck(
                    passed: ratio >= 2.3,
                    statement: "PNG decode of large images (≥ 1 megapixel) ≥ 2.3× libpng on every input: lowest "
                        + String(format: "%.2f×", ratio) + " (\(worst.label))",
                    needsFullRunSizes: true, isTiming: true)
            )
        }
        if let icons = results.first(where: { $0.label.hasPrefix("icons") }), let ratio = icons.ratio {
            checks.append(
                GoalCheck(
                    passed: ratio >= 2.5,
                    statement: "PNG decode of icons ≥ 2.5× libpng: " + String(format: "%.2f×", ratio)
                        + " (\(icons.label))", isTiming: true)
            )
        }
        return checks
    }

    /// The pixels from which an image counts as large for ``goals(_:)``: one megapixel.
    static let largeImagePixelCount = 1_000_000

    /// Formats results as a text table: MB/s of both decoders (median ± half the range of the
    /// samples, in percent of the median) and the ratio of the medians.
    ///
    /// - Parameter results: What ``run(_:samples:)`` returned.
    /// - Returns: The table, one line per result, with a header line.
    static func table(_ results: [DecodeSpeedResult]) -> String {
        var table = TextTable(headers: ["input", "decoded MB", "ours MB/s", "libpng MB/s", "ours/libpng"])
        for result in results {
            table.append([
                result.label,
                String(format: "%.2f", Double(result.decodedBytes) / 1e6),
                result.ours.summary,
                result.libpng?.summary ?? "not measured",
                result.ratio.map { String(format: "%.2f×", $0) } ?? "-",
            ])
        }
        return table.rendered(indent: "")
    }

    private static func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> Double {
        seconds > 0 ? Double(bytes) / seconds / 1e6 : 0
    }

}
