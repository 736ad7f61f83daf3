import Foundation
import WeakImageStore

/// Decode speed of ``WebPDecoder`` side by side with libwebp's `WebPDecodeRGBAInto` (loaded with
/// `dlopen`, its SSE2/SSE4.1 code), on the same files in the same run: lossy photographs at the
/// qualities CDNs serve, lossless UI images, and our 256-pixel thumbnail of the largest photo
/// against our own full decode of it.
///
/// Throughput is in source megapixels per CPU second of the decoding thread. libwebp is measured on
/// an input only if it decodes every file to exactly our pixels.
enum WebPDecodeSpeedBenchmark {
    /// A WebP file decoded once per sample.
    struct Input {
        let label: String
        let file: Data
        let isLossless: Bool
    }

    /// One input's medians, in source megapixels per second.
    struct Row {
        let label: String
        let isLossless: Bool
        /// Nil for a full decode; the thumbnail's longest side otherwise (compared with our full decode).
        let maxPixelSize: Int?
        let megapixels: Double
        let ours: DecodeSpeedResult.Measurement
        let theirs: DecodeSpeedResult.Measurement?

        var ratio: Double? { theirs.map { ours.median / $0.median } }
    }

    /// The thumbnail size measured on the largest photo, a grid cell's.
    static let thumbnailPixelSize = 256

    /// Real photographs as lossy WebP at quality 75 and 85, and flat UI screens as lossless, at
    /// `sizes`, all encoded by libwebp (so without it there is nothing to measure).
    ///
    /// Each size takes two of the ``RealPhotos`` reduced to its longest side, the smallest two at the
    /// first size and onwards, the largest two (the 12-megapixel masters) at the last size, so that
    /// a full run covers every photograph from 0.3 to 12 megapixels. Without the photographs'
    /// folder only the flat UI screens are measured.
    static func inputs(sizes: [BenchmarkProfile.PixelSize], libwebp: LibwebpShim?) -> [Input] {
        guard let libwebp else { return [] }
        let photos: [RealPhotos.Photo]
        switch RealPhotos.load() {
        case .success(let loaded):
            photos = loaded.photos
        case .failure(let error):
            photos = []
            Console.note("WebP photographs not measured: \(error)")
        }
        var inputs: [Input] = []
        for (index, size) in sizes.enumerated() {
            let maxPixelSize = max(size.width, size.height)
            let first = index == sizes.count - 1 ? photos.count - 2 : 2 * index
            let chosen = max(0, min(first, photos.count))..<max(0, min(first + 2, photos.count))
            for photo in photos[chosen] {
                let bitmap = photo.reduced(maxPixelSize: maxPixelSize).bitmap
                for quality: Float in [75, 85] {
                    if let file = libwebp.encode(
                        rgba: bitmap.rgba8(), width: bitmap.width, height: bitmap.height, quality: quality)
                    {
                        inputs.append(
                            Input(
                                label: "\(photo.name) \(bitmap.width)×\(bitmap.height) lossy q\(Int(quality))",
                                file: file, isLossless: false))
                    }
                }
            }
            let screen = SyntheticImages.flatUI(width: size.width, height: size.height, seed: 38).pixels
            if let file = libwebp.encode(rgba: screen, width: size.width, height: size.height, quality: nil) {
                inputs.append(Input(label: "flat UI \(size) lossless", file: file, isLossless: true))
            }
        }
        return inputs
    }

    /// Measures every input, and the thumbnail of the largest lossy one.
    static func run(_ inputs: [Input], samples: Int, libwebp: LibwebpShim?) -> [Row] {
        let decoder = WebPDecoder()
        var rows = inputs.compactMap {
            measure($0, maxPixelSize: nil, samples: samples, decoder: decoder, libwebp: libwebp)
        }
        let lossy = rows.filter { !$0.isLossless && $0.maxPixelSize == nil }
        if let largest = lossy.max(by: { $0.megapixels < $1.megapixels }),
            let input = inputs.first(where: { $0.label == largest.label }),
            let thumbnail = measure(
                input, maxPixelSize: thumbnailPixelSize, samples: samples, decoder: decoder, libwebp: nil)
        {
            rows.append(thumbnail)
        }
        return rows
    }

    private static func decode(_ file: Data, maxPixelSize: Int?, decoder: WebPDecoder) -> Bitmap? {
        if let maxPixelSize { return try? decoder.decode(file, scale: 1, maxPixelSize: maxPixelSize) }
        return try? decoder.decode(file, scale: 1)
    }

    private static func measure(
        _ input: Input, maxPixelSize: Int?, samples: Int, decoder: WebPDecoder, libwebp: LibwebpShim?
    ) -> Row? {
        guard let full = decode(input.file, maxPixelSize: nil, decoder: decoder) else {
            Console.note("\(input.label): left out, our decoder rejects it")
            return nil
        }
        let pixelCount = full.width * full.height
        let megapixels = Double(pixelCount) / 1e6
        var compared = libwebp
        if let shim = compared, shim.decode(input.file, pixelCount: pixelCount) != full.rgba8() {
            Console.note("\(input.label): libwebp not measured, it decodes differently")
            compared = nil
        }
        let ours = {
            DecodeTiming.round([input.file]) { decode($0, maxPixelSize: maxPixelSize, decoder: decoder)?.cost ?? 0 }
        }
        let theirs = compared.map { shim in
            { DecodeTiming.round([input.file]) { shim.decode($0, pixelCount: pixelCount)?.count ?? 0 } }
        }
        let seconds = DecodeTiming.interleaved(samples: samples, warmUp: 1, ours: ours, theirs: theirs)
        return Row(
            label: input.label, isLossless: input.isLossless, maxPixelSize: maxPixelSize, megapixels: megapixels,
            ours: DecodeSpeedResult.Measurement(samples: seconds.ours.map { megapixels / $0 }),
            theirs: seconds.theirs.isEmpty
                ? nil : DecodeSpeedResult.Measurement(samples: seconds.theirs.map { megapixels / $0 }))
    }

    /// Formats the rows as a text table.
    static func table(_ rows: [Row]) -> String {
        var table = TextTable(headers: ["input", "output", "source MP", "ours MP/s", "libwebp MP/s", "ours/libwebp"])
        for row in rows {
            table.append([
                row.label, row.maxPixelSize.map { "\($0) px" } ?? "full", String(format: "%.2f", row.megapixels),
                row.ours.summary, row.theirs?.summary ?? "not measured",
                row.ratio.map { String(format: "%.2f×", $0) } ?? "-",
            ])
        }
        return table.rendered(indent: "")
    }

    /// The goals of issue #37: lossy and lossless ≥ 1.0× libwebp on every input, and a 256-pixel
    /// thumbnail of the largest photo ≥ 3× faster than our full decode of it.
    static func goals(_ rows: [Row]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for isLossless in [false, true] {
            let measured = rows.filter { $0.isLossless == isLossless && $0.ratio != nil }
            guard let worst = measured.min(by: { $0.ratio! < $1.ratio! }), let ratio = worst.ratio else { continue }
            checks.append(
                GoalCheck(
                    passed: ratio >= 1.0,
                    statement:
                        "WebP \(isLossless ? "lossless" : "lossy") decode ≥ 1.00× libwebp on every input: lowest "
                        + String(format: "%.2f×", ratio) + " (\(worst.label))",
                    needsFullRunSizes: true, isTiming: true))
        }
        if let thumbnail = rows.first(where: { $0.maxPixelSize != nil }),
            let full = rows.first(where: { $0.label == thumbnail.label && $0.maxPixelSize == nil })
        {
            let speedup = thumbnail.ours.median / full.ours.median
            checks.append(
                GoalCheck(
                    passed: speedup >= 3,
                    statement: "WebP \(thumbnailPixelSize)-px thumbnail of \(thumbnail.label) ≥ 3× faster than our "
                        + "full decode: " + String(format: "%.2f×", speedup),
                    needsFullRunSizes: true, isTiming: true))
        }
        return checks
    }
}
