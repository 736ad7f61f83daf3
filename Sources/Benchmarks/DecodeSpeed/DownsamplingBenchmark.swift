import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Downsampling speed and memory: on the same PNG files in one run, a full decode, a full
/// decode followed by a separate resize, and a streaming thumbnail decode.
///
/// Speed is MB/s of *source* pixels (the full-size bitmap's bytes), so the three rows divide the
/// same amount of work by their time; samples interleave the methods. Memory is the rise of the
/// peak resident size of a child process that decodes the file once (see ``DownsamplingProbe``),
/// so it counts every allocation, not just bitmaps: beyond the file's bytes, which are read
/// before the measurement starts.
enum DownsamplingBenchmark {
    /// The longest side of the thumbnails.
    static let maxPixelSize = 256
    /// The extra memory the streaming thumbnail may need beyond its own bytes.
    static let memoryAllowance = 1 << 20
    private static let warmUpRounds = 1

    /// One input's measurements.
    struct Result {
        let label: String
        let sourceBytes: Int
        let thumbnailBytes: Int
        /// MB/s of source pixels, per method.
        let speeds: [DownsamplingProbe.Method: DecodeSpeedResult.Measurement]
        /// Peak memory rise in bytes, per method; missing where not measured.
        let peaks: [DownsamplingProbe.Method: Int]
        /// Whether this input is the large non-interlaced photo the memory goal is about.
        let isGoalInput: Bool
    }

    /// Generates the inputs, measures them and prints the section.
    ///
    /// - Parameter quick: Smaller images and fewer samples (`--quick`).
    /// - Returns: The results, for the goals.
    static func runSection(quick: Bool) -> [Result] {
        let photoSize = quick ? BenchmarkProfile.PixelSize(width: 1200, height: 800) : .init(width: 6000, height: 4000)
        let flatSize = quick ? BenchmarkProfile.PixelSize(width: 800, height: 600) : .init(width: 3000, height: 2000)
        let samples = quick ? 3 : 5
        let results = run(inputs(photoSize: photoSize, flatSize: flatSize), samples: samples)
        print(
            "DOWNSAMPLING SPEED AND MEMORY: to \(maxPixelSize) px; MB/s of source pixels, median of \(samples) samples; "
                + "peak memory = rise of a child process's peak RSS during one decode, beyond the file's bytes")
        print(table(results) + "\n")
        return results
    }

    /// The inputs: a photo-like image of `photoSize` (the memory goal's input; 6000 × 4000 in
    /// the full run) and a flat-UI image of `flatSize`, both non-interlaced, from the
    /// benchmark's own PNG encoder.
    static func inputs(photoSize: BenchmarkProfile.PixelSize, flatSize: BenchmarkProfile.PixelSize)
        -> [(label: String, file: Data, isGoalInput: Bool)]
    {
        [
            (
                "photo \(photoSize)",
                PNGEncoder.encode(SyntheticImages.photo(width: photoSize.width, height: photoSize.height, seed: 21)),
                true
            ),
            (
                "flat UI \(flatSize)",
                PNGEncoder.encode(SyntheticImages.flatUI(width: flatSize.width, height: flatSize.height, seed: 22)),
                false
            ),
        ]
    }

    /// Measures every input.
    ///
    /// - Parameters:
    ///   - inputs: The files, as ``inputs(photoSize:flatSize:)`` makes them.
    ///   - samples: Timed samples per method and input; at least 1.
    /// - Returns: One result per input.
    static func run(_ inputs: [(label: String, file: Data, isGoalInput: Bool)], samples: Int) -> [Result] {
        precondition(samples >= 1, "samples must be at least 1")
        return inputs.compactMap { input in
            guard let full = try? PNGDecoder().decode(input.file, scale: 1),
                let thumbnail = try? PNGDecoder().decode(input.file, scale: 1, maxPixelSize: maxPixelSize)
            else {
                Console.note("\(input.label): the decoder rejects it")
                return nil
            }
            let sourceBytes = full.cost
            let methods = DownsamplingProbe.Method.allCases
            for _ in 0..<warmUpRounds {
                for method in methods { _ = time(method, input.file) }
            }
            var seconds: [DownsamplingProbe.Method: [Double]] = [:]
            for sample in 0..<samples {
                // Rotate the order so that no method always runs first.
                for offset in methods.indices {
                    let method = methods[(sample + offset) % methods.count]
                    seconds[method, default: []].append(time(method, input.file))
                }
            }
            let speeds = seconds.mapValues { times in
                DecodeSpeedResult.Measurement(samples: times.map { Double(sourceBytes) / $0 / 1e6 })
            }
            let peaks = measurePeaks(input.file)
            return Result(
                label: input.label, sourceBytes: sourceBytes, thumbnailBytes: thumbnail.cost, speeds: speeds,
                peaks: peaks, isGoalInput: input.isGoalInput
            )
        }
    }

    /// The table: per input and method, MB/s of source pixels, the ratio to the full decode,
    /// and the peak memory rise.
    static func table(_ results: [Result]) -> String {
        var table = TextTable(headers: ["input", "method", "MB/s (source)", "vs full decode", "peak memory"])
        for result in results {
            let fullSpeed = result.speeds[.fullDecode]?.median ?? 0
            for method in DownsamplingProbe.Method.allCases {
                guard let speed = result.speeds[method] else { continue }
                table.append([
                    method == .fullDecode ? result.label : "",
                    method.label,
                    speed.summary,
                    fullSpeed > 0 ? Format.ratio(speed.median / fullSpeed) : "-",
                    result.peaks[method].map { "\(Format.mebibytes($0)) MiB" } ?? "not measured",
                ])
            }
        }
        let notes = results.map { result in
            "  \(result.label): source \(Format.mebibytes(result.sourceBytes)) MiB decoded, thumbnail "
                + "(\(maxPixelSize) px) \(Format.fixed(Double(result.thumbnailBytes) / 1024, digits: 1)) KiB"
        }
        return ([table.rendered()] + notes).joined(separator: "\n")
    }

    /// The goals: per input, streaming at least as fast as a full decode and at least 1.5× a
    /// full decode then resize; on the goal input, streaming peak ≤ thumbnail + 1 MiB.
    static func goals(_ results: [Result]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for result in results {
            guard let stream = result.speeds[.streamingThumbnail]?.median,
                let full = result.speeds[.fullDecode]?.median,
                let resize = result.speeds[.fullDecodeThenResize]?.median
            else { continue }
            checks.append(
                GoalCheck(
                    passed: stream >= full,
                    statement: "downsampling \(result.label): streaming thumbnail at least as fast as a full decode: "
                        + "\(Format.fixed(stream, digits: 1)) vs \(Format.fixed(full, digits: 1)) MB/s",
                    needsFullRunSizes: true, isTiming: true))
            checks.append(
                GoalCheck(
                    passed: stream >= 1.5 * resize,
                    statement: "downsampling \(result.label): streaming thumbnail ≥ 1.5× full decode then resize: "
                        + "\(Format.ratio(stream / resize))",
                    needsFullRunSizes: true, isTiming: true))
            if result.isGoalInput {
                let peak = result.peaks[.streamingThumbnail]
                let bound = result.thumbnailBytes + memoryAllowance
                checks.append(
                    GoalCheck(
                        passed: peak.map { $0 <= bound } ?? false,
                        statement: "downsampling \(result.label): streaming peak memory ≤ thumbnail + 1 MiB: "
                            + "\(peak.map { "\(Format.mebibytes($0))" } ?? "not measured") ≤ "
                            + "\(Format.mebibytes(bound)) MiB"))
            }
        }
        return checks
    }

    /// Runs one method once and returns the elapsed seconds.
    private static func time(_ method: DownsamplingProbe.Method, _ file: Data) -> Double {
        let clock = ContinuousClock()
        var produced = 0
        let elapsed = clock.measure {
            produced = (try? method.run(file, maxPixelSize: maxPixelSize)) ?? 0
        }
        blackHole(produced)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Each method's peak memory rise, measured in a child process on a temporary copy of the file.
    private static func measurePeaks(_ file: Data) -> [DownsamplingProbe.Method: Int] {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("downsampling-\(ProcessInfo.processInfo.processIdentifier).png")
        guard (try? file.write(to: url)) != nil else { return [:] }
        defer { try? FileManager.default.removeItem(at: url) }
        var peaks: [DownsamplingProbe.Method: Int] = [:]
        for method in DownsamplingProbe.Method.allCases {
            peaks[method] = DownsamplingProbe.measure(method, file: url, maxPixelSize: maxPixelSize)
        }
        return peaks
    }
}
