import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Decode speed of animations, side by side in one run: every frame of a GIF composed by
/// ``GIFDecoder`` against giflib's `DGifSlurp` plus the same composition (the shim
/// `Scripts/build-giflib-shim.sh` builds, loaded with `dlopen`), and every frame of an APNG against
/// ``PNGDecoder`` decoding the same frames stored as PNG stills (same filters, same deflate).
///
/// Throughput is in megapixels of composed frames (canvas size × frames) per CPU second of the
/// decoding thread; samples alternate as in ``DecodeSpeedBenchmark``. giflib is measured on an
/// input only if it composes every frame to exactly our pixels.
enum AnimationDecodeSpeedBenchmark {
    /// What an input's frames are compared with.
    enum Yardstick: String {
        /// giflib and the shim's composition.
        case giflib
        /// Our PNG decoder on each frame as a still.
        case pngStills = "PNG stills"
    }

    /// One animation file, or several decoded together per sample, and their yardstick's files.
    struct Input {
        let label: String
        let files: [Data]
        let yardstick: Yardstick
        /// For ``Yardstick/pngStills``: each frame of every file as a PNG.
        var stills: [Data] = []
    }

    /// One input's medians, in megapixels of composed frames per second.
    struct Row {
        let label: String
        let yardstick: Yardstick
        let megapixels: Double
        let ours: DecodeSpeedResult.Measurement
        let theirs: DecodeSpeedResult.Measurement?

        var ratio: Double? { theirs.map { ours.median / $0.median } }
    }

    /// The goal per yardstick: GIF ≥ 2× giflib + composition (Wuffs publishes 2.2–3.4× giflib),
    /// APNG frames ≥ 1× our decode of the same frames as stills.
    static func goal(for yardstick: Yardstick) -> Double {
        switch yardstick {
        case .giflib: 2.0
        case .pngStills: 1.0
        }
    }

    /// The inputs at 480 px, a large sticker: generated flat animation and a dithered photo pan
    /// (LZW's hardest case) for GIF, the gifsuite's real animations from Debian packages, and the
    /// same kinds of motion for APNG.
    static func inputs(quick: Bool) -> [Input] {
        let side = 480
        let frames = quick ? 8 : 30
        var inputs = [
            Input(
                label: "GIF sticker \(side) px, 64 colours, \(frames) frames",
                files: [StickerSet.gif(side: side, frames: frames, seed: 3)], yardstick: .giflib),
            Input(
                label: "GIF dithered photo pan \(side) px, \(frames) frames",
                files: [ditheredPhotoPan(side: side, frames: frames)], yardstick: .giflib),
        ]
        let suite = PackageFolders.testFixtures.appendingPathComponent("gifsuite")
        let real = ["real-perl-tk-anim.gif", "real-phpmyadmin-ajax-clock.gif"].compactMap {
            try? Data(contentsOf: suite.appendingPathComponent($0))
        }
        if !real.isEmpty {
            // Small files: repeated so that one sample is long enough to time.
            inputs.append(
                Input(
                    label: "GIF real animations from Debian (gifsuite real-*), ×50",
                    files: Array(repeating: real, count: 50).flatMap { $0 }, yardstick: .giflib))
        }
        for (name, pixels) in [
            ("sticker", StickerSet.apngFrames(side: side, frames: frames, seed: 3)),
            ("photo pan", photoPan(side: side, frames: frames).map(\.pixels)),
        ] {
            inputs.append(
                Input(
                    label: "APNG \(name) \(side) px, \(frames) frames",
                    files: [APNGEncoder.encode(width: side, height: side, frames: pixels, delayMilliseconds: 40)],
                    yardstick: .pngStills,
                    stills: pixels.map {
                        PNGEncoder.encode(Bitmap(width: side, height: side, format: .rgba8, pixels: $0))
                    }))
        }
        return inputs
    }

    /// Measures every input.
    static func run(_ inputs: [Input], samples: Int, giflib: GiflibShim?) -> [Row] {
        inputs.compactMap { measure($0, samples: samples, giflib: giflib) }
    }

    /// Every frame of `file` composed by our decoder, as one array of canvases.
    private static func ourFrames(_ file: Data) throws -> [UInt8] {
        guard var cursor = try BitmapDecoder().frameCursor(for: file, options: DecodeOptions()) else { return [] }
        var pixels: [UInt8] = []
        while !cursor.isFinished {
            pixels += try cursor.nextFrame().image.rgba8()
        }
        return pixels
    }

    /// Decodes every frame of `file` and returns the bytes produced.
    private static func decodeAllFrames(_ file: Data, decoder: BitmapDecoder) -> Int {
        guard var cursor = try? decoder.frameCursor(for: file, options: DecodeOptions()) else { return 0 }
        var produced = 0
        while !cursor.isFinished {
            guard let frame = try? cursor.nextFrame() else { return produced }
            produced &+= frame.image.pixels.count
        }
        return produced
    }

    private static func measure(_ input: Input, samples: Int, giflib: GiflibShim?) -> Row? {
        var megapixels = 0.0
        var compared = input.yardstick == .giflib ? giflib : nil
        for file in input.files {
            let frames: [UInt8]
            do {
                frames = try ourFrames(file)
            } catch {
                Console.note("\(input.label): left out, our decoder rejects a file (\(error))")
                return nil
            }
            megapixels += Double(frames.count / 4) / 1e6
            if let shim = compared, shim.composedFrames(file, capacity: frames.count)?.pixels != frames {
                Console.note("\(input.label): giflib not measured, it composes the frames differently")
                compared = nil
            }
        }
        let decoder = BitmapDecoder()
        let png = PNGDecoder()
        let ours = { DecodeTiming.round(input.files) { decodeAllFrames($0, decoder: decoder) } }
        let theirs: (() -> Double)? =
            switch input.yardstick {
            case .giflib: compared.map { shim in { DecodeTiming.round(input.files) { shim.decodeFrames($0) } } }
            case .pngStills: { DecodeTiming.round(input.stills) { (try? png.decode($0, scale: 1))?.cost ?? 0 } }
            }
        let seconds = DecodeTiming.interleaved(samples: samples, warmUp: 1, ours: ours, theirs: theirs)
        return Row(
            label: input.label, yardstick: input.yardstick, megapixels: megapixels,
            ours: DecodeSpeedResult.Measurement(samples: seconds.ours.map { megapixels / $0 }),
            theirs: seconds.theirs.isEmpty
                ? nil : DecodeSpeedResult.Measurement(samples: seconds.theirs.map { megapixels / $0 }))
    }

    /// Formats the rows as a text table.
    static func table(_ rows: [Row]) -> String {
        var table = TextTable(headers: ["input", "frame MP", "ours MP/s", "compared with", "its MP/s", "ratio"])
        for row in rows {
            table.append([
                row.label, String(format: "%.2f", row.megapixels), row.ours.summary, row.yardstick.rawValue,
                row.theirs?.summary ?? "not measured", row.ratio.map { String(format: "%.2f×", $0) } ?? "-",
            ])
        }
        return table.rendered(indent: "")
    }

    /// The goals, one per yardstick, judged on the slowest input.
    static func goals(_ rows: [Row]) -> [GoalCheck] {
        [Yardstick.giflib, .pngStills].compactMap { yardstick in
            let measured = rows.filter { $0.yardstick == yardstick && $0.ratio != nil }
            guard let worst = measured.min(by: { $0.ratio! < $1.ratio! }), let ratio = worst.ratio else { return nil }
            let goal = goal(for: yardstick)
            let subject =
                yardstick == .giflib
                ? "GIF frames ≥ \(String(format: "%.1f", goal))× giflib + composition"
                : "APNG frames ≥ \(String(format: "%.1f", goal))× our PNG decode of the same frames"
            return GoalCheck(
                passed: ratio >= goal,
                statement: "\(subject) on every input: lowest \(String(format: "%.2f×", ratio)) (\(worst.label))",
                needsFullRunSizes: true, isTiming: true)
        }
    }

    /// Frames of a photo-like image panned four pixels a frame.
    private static func photoPan(side: Int, frames: Int) -> [Bitmap] {
        let step = 4
        let photo = SyntheticImages.photo(width: side + step * frames, height: side, seed: 17)
        return (0..<frames).map { frame in
            var pixels = [UInt8](repeating: 0, count: side * side * 4)
            for y in 0..<side {
                let from = (y * photo.width + frame * step) * 4
                pixels[(y * side * 4)..<((y + 1) * side * 4)] = photo.pixels[from..<(from + side * 4)]
            }
            return Bitmap(width: side, height: side, format: .rgba8, pixels: pixels)
        }
    }

    /// ``photoPan(side:frames:)`` as a GIF: a 6 × 7 × 6 colour cube with 4 × 4 ordered dithering,
    /// as GIF makers quantize video.
    private static func ditheredPhotoPan(side: Int, frames: Int) -> Data {
        var palette: [UInt8] = []
        for red in 0..<6 {
            for green in 0..<7 {
                for blue in 0..<6 { palette += [UInt8(red * 51), UInt8(green * 255 / 6), UInt8(blue * 51)] }
            }
        }
        palette += [UInt8](repeating: 0, count: 256 * 3 - palette.count)
        let bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        func level(_ value: UInt8, _ levels: Int, _ threshold: Int) -> Int {
            min(levels - 1, (Int(value) * (levels - 1) * 16 + threshold * 255) / (255 * 16))
        }
        let encoded = photoPan(side: side, frames: frames).map { bitmap in
            var indices = [UInt8](repeating: 0, count: side * side)
            for y in 0..<side {
                for x in 0..<side {
                    let offset = (y * side + x) * 4
                    let threshold = bayer[(y % 4) * 4 + x % 4]
                    let red = level(bitmap.pixels[offset], 6, threshold)
                    let green = level(bitmap.pixels[offset + 1], 7, threshold)
                    let blue = level(bitmap.pixels[offset + 2], 6, threshold)
                    indices[y * side + x] = UInt8(red * 42 + green * 6 + blue)
                }
            }
            return GIFEncoder.Frame(indices: indices, width: side, height: side, delay: 4)
        }
        return GIFEncoder.encode(width: side, height: side, palette: palette, frames: encoded)
    }

}
