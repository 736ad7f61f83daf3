import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Deterministic stand-ins for an app's images: the same seed always paints the same pixels, so
/// every run and every machine measures the same corpus.
///
/// | kind | content | why it compresses like the real thing |
/// |---|---|---|
/// | ``icon(size:seed:)`` | a flat shape with a white glyph on transparency | flat colors, antialiased edges |
/// | ``avatar(size:seed:)`` | a photo cut to a circle | photo inside, transparency outside |
/// | ``photo(width:height:seed:)`` | smooth gradients, blobs and sensor-like noise, opaque | noise keeps it near real photos' 2:1 |
/// | ``flatUI(width:height:seed:)`` | bars, cards, buttons and text lines, opaque | long flat runs, like screenshots |
public enum SyntheticImages {
    /// An app icon or toolbar glyph, `size` × `size` RGBA pixels.
    ///
    /// - Parameters:
    ///   - size: The side in pixels (16 for a small @1x glyph, 180 for a 60-point icon at 3x).
    ///   - seed: Picks the shape, the colors and the glyph.
    ///   - scale: The scale recorded in the bitmap. Defaults to 1.
    public static func icon(size: Int, seed: UInt64, scale: Int = 1) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        let side = Double(size)
        let center = side / 2
        var canvas = Canvas(width: size, height: size)
        let fill = vividColor(&random)
        let outline: Canvas.Shape
        switch random.int(in: 0...3) {
        case 0:
            outline = .circle(centerX: center, centerY: center, radius: side * 0.46)
        case 1:
            outline = .roundedRect(
                x: side * 0.06, y: side * 0.06, width: side * 0.88, height: side * 0.88,
                cornerRadius: side * 0.22)
        case 2:
            outline = .ring(centerX: center, centerY: center, radius: side * 0.38, thickness: side * 0.14)
        default:
            outline = .convexPolygon(
                regularPolygon(
                    sides: random.int(in: 3...8), center: center,
                    radius: side * 0.47, rotation: random.double(in: 0...1)))
        }
        canvas.fill(outline, with: fill)
        let glyph: Canvas.Shape =
            random.int(in: 0...1) == 0
            ? .circle(centerX: center, centerY: center, radius: side * 0.14)
            : .roundedRect(
                x: side * 0.3, y: side * 0.44, width: side * 0.4, height: side * 0.12,
                cornerRadius: side * 0.04)
        canvas.fill(glyph, with: .white)
        return canvas.bitmap(scale: scale)
    }

    /// A profile picture: a photo cut to a circle, `size` × `size` RGBA pixels.
    ///
    /// - Parameters:
    ///   - size: The side in pixels.
    ///   - seed: Picks the photo.
    ///   - scale: The scale recorded in the bitmap. Defaults to 1.
    public static func avatar(size: Int, seed: UInt64, scale: Int = 1) -> Bitmap {
        let photo = photoPixels(width: size, height: size, seed: seed)
        var mask = Canvas(width: size, height: size)
        mask.fill(
            .circle(centerX: Double(size) / 2, centerY: Double(size) / 2, radius: Double(size) / 2 - 0.5),
            with: .white)
        var pixels = photo
        for index in stride(from: 3, to: pixels.count, by: 4) {
            pixels[index] = mask.pixels[index]
        }
        return Bitmap(width: size, height: size, scale: scale, format: .rgba8, pixels: pixels)
    }

    /// A photo-like opaque image: a sky-to-ground gradient, soft blobs of color and per-pixel noise.
    ///
    /// - Parameters:
    ///   - width: The width in pixels (up to 2048 for a full-screen photo).
    ///   - height: The height in pixels.
    ///   - seed: Picks the colors, the blobs and the noise.
    public static func photo(width: Int, height: Int, seed: UInt64) -> Bitmap {
        Bitmap(
            width: width, height: height, format: .rgba8, pixels: photoPixels(width: width, height: height, seed: seed))
    }

    /// A screenshot-like opaque image: a navigation bar, cards with text lines, buttons.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - seed: Picks the layout and the colors.
    public static func flatUI(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        let unit = Double(min(width, height)) / 20
        var canvas = Canvas(width: width, height: height, background: Canvas.Color(red: 242, green: 242, blue: 247))
        let accent = vividColor(&random)
        let barHeight = unit * 2.5
        canvas.fill(
            .roundedRect(
                x: -unit, y: -unit, width: Double(width) + 2 * unit, height: barHeight + unit,
                cornerRadius: 0), with: accent)
        var top = barHeight + unit
        while top + unit * 3 < Double(height) {
            let cardHeight = unit * Double(random.int(in: 3...7))
            let card = Canvas.Shape.roundedRect(
                x: unit, y: top, width: Double(width) - 2 * unit,
                height: min(cardHeight, Double(height) - top - unit),
                cornerRadius: unit * 0.6)
            canvas.fill(card, with: .white)
            var line = top + unit * 0.8
            while line + unit * 0.5 < top + cardHeight - unit * 0.5 {
                let length = (Double(width) - 4 * unit) * random.double(in: 0.35...0.95)
                canvas.fill(
                    .roundedRect(
                        x: unit * 2, y: line, width: length, height: unit * 0.45,
                        cornerRadius: unit * 0.2),
                    with: Canvas.Color(red: 60, green: 60, blue: 67))
                line += unit * 0.9
            }
            if random.int(in: 0...2) == 0 {
                canvas.fill(
                    .roundedRect(
                        x: Double(width) - unit * 7, y: top + cardHeight - unit * 1.9,
                        width: unit * 5, height: unit * 1.2, cornerRadius: unit * 0.6),
                    with: accent)
            }
            top += cardHeight + unit * 0.8
        }
        return canvas.bitmap()
    }

    private static func vividColor(_ random: inout SeededGenerator) -> Canvas.Color {
        let hue = random.double(in: 0...6)
        let sector = Int(hue)
        let fraction = hue - Double(sector)
        let high = 235.0
        let low = 40.0
        let rising = low + (high - low) * fraction
        let falling = high - (high - low) * fraction
        let (red, green, blue): (Double, Double, Double) =
            switch sector {
            case 0: (high, rising, low)
            case 1: (falling, high, low)
            case 2: (low, high, rising)
            case 3: (low, falling, high)
            case 4: (rising, low, high)
            default: (high, low, falling)
            }
        return Canvas.Color(red: red, green: green, blue: blue)
    }

    private static func regularPolygon(sides: Int, center: Double, radius: Double, rotation: Double)
        -> [(x: Double, y: Double)]
    {
        (0..<sides).map { index in
            let angle = (Double(index) + rotation) * 2 * Double.pi / Double(sides)
            return (center + radius * cos(angle), center + radius * sin(angle))
        }
    }

    private static func photoPixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        func randomColor(_ range: ClosedRange<Double>) -> SIMD3<Double> {
            SIMD3(random.double(in: range), random.double(in: range), random.double(in: range))
        }
        let sky = randomColor(90...230)
        let ground = randomColor(20...140)
        let horizon = random.double(in: 0.35...0.7)
        let blobs = (0..<5).map { _ in
            (
                x: random.double(in: 0...1), y: random.double(in: 0...1), radius: random.double(in: 0.08...0.3),
                color: randomColor(-70...70)
            )
        }
        // Sensor noise: what keeps real photos from compressing much below half their RGB size.
        let noiseAmplitude = UInt64(9)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let inverseWidth = 1 / Double(max(width, 1))
        let inverseHeight = 1 / Double(max(height, 1))
        for y in 0..<height {
            let v = Double(y) * inverseHeight
            let groundWeight = 1 / (1 + exp(-(v - horizon) * 18))
            let background = sky * (1 - groundWeight) + ground * groundWeight
            for x in 0..<width {
                let u = Double(x) * inverseWidth
                var color = background
                for blob in blobs {
                    let distanceSquared = (u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y)
                    color += blob.color * exp(-distanceSquared / (blob.radius * blob.radius))
                }
                let index = (y * width + x) * 4
                for channel in 0..<3 {
                    let noise = Double(random.next() % (2 * noiseAmplitude + 1)) - Double(noiseAmplitude)
                    pixels[index + channel] = UInt8(min(255, max(0, (color[channel] + noise).rounded())))
                }
            }
        }
        return pixels
    }
}
