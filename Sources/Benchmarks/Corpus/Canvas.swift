import WeakImageStore

/// An RGBA8 drawing surface with antialiased shapes: just enough to paint icons and UI mock-ups.
struct Canvas {
    /// A straight-alpha color, components 0...255.
    struct Color {
        var red, green, blue: Double
        var alpha = 255.0

        static let white = Color(red: 255, green: 255, blue: 255)
    }

    /// A shape given by its signed distance in pixels: negative inside, positive outside.
    enum Shape {
        case circle(centerX: Double, centerY: Double, radius: Double)
        case ring(centerX: Double, centerY: Double, radius: Double, thickness: Double)
        case roundedRect(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double)
        /// A convex polygon, vertices in clockwise order on screen (y down).
        case convexPolygon([(x: Double, y: Double)])

        func signedDistance(x: Double, y: Double) -> Double {
            switch self {
            case .circle(let centerX, let centerY, let radius):
                return ((x - centerX) * (x - centerX) + (y - centerY) * (y - centerY)).squareRoot() - radius
            case .ring(let centerX, let centerY, let radius, let thickness):
                let distance = ((x - centerX) * (x - centerX) + (y - centerY) * (y - centerY)).squareRoot()
                return abs(distance - radius) - thickness / 2
            case .roundedRect(let left, let top, let width, let height, let cornerRadius):
                let halfWidth = width / 2
                let halfHeight = height / 2
                let offsetX = abs(x - (left + halfWidth)) - (halfWidth - cornerRadius)
                let offsetY = abs(y - (top + halfHeight)) - (halfHeight - cornerRadius)
                let outside = (max(offsetX, 0) * max(offsetX, 0) + max(offsetY, 0) * max(offsetY, 0)).squareRoot()
                return outside + min(max(offsetX, offsetY), 0) - cornerRadius
            case .convexPolygon(let vertices):
                // The largest distance to an edge's half-plane: exact inside and near the edges,
                // which is all antialiasing needs.
                var distance = -Double.infinity
                for index in vertices.indices {
                    let start = vertices[index]
                    let end = vertices[(index + 1) % vertices.count]
                    let edgeX = end.x - start.x
                    let edgeY = end.y - start.y
                    let length = (edgeX * edgeX + edgeY * edgeY).squareRoot()
                    distance = max(distance, ((x - start.x) * edgeY - (y - start.y) * edgeX) / length)
                }
                return distance
            }
        }

        /// The pixel rectangle outside which coverage is zero.
        var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            switch self {
            case .circle(let centerX, let centerY, let radius):
                return (centerX - radius, centerY - radius, centerX + radius, centerY + radius)
            case .ring(let centerX, let centerY, let radius, let thickness):
                let outer = radius + thickness / 2
                return (centerX - outer, centerY - outer, centerX + outer, centerY + outer)
            case .roundedRect(let left, let top, let width, let height, _):
                return (left, top, left + width, top + height)
            case .convexPolygon(let vertices):
                return (
                    vertices.map(\.x).min() ?? 0, vertices.map(\.y).min() ?? 0,
                    vertices.map(\.x).max() ?? 0, vertices.map(\.y).max() ?? 0
                )
            }
        }
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    /// A canvas filled with `background` (transparent black by default).
    init(width: Int, height: Int, background: Color = Color(red: 0, green: 0, blue: 0, alpha: 0)) {
        self.width = width
        self.height = height
        let pixel = [background.red, background.green, background.blue, background.alpha].map { UInt8($0.rounded()) }
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in pixels.indices {
            pixels[index] = pixel[index & 3]
        }
    }

    /// Composites `color` over the canvas wherever `shape` covers it, edges antialiased over one pixel.
    mutating func fill(_ shape: Shape, with color: Color) {
        let bounds = shape.bounds
        let minX = max(0, Int(bounds.minX) - 1)
        let maxX = min(width - 1, Int(bounds.maxX) + 1)
        let minY = max(0, Int(bounds.minY) - 1)
        let maxY = min(height - 1, Int(bounds.maxY) + 1)
        guard minX <= maxX, minY <= maxY else { return }
        for y in minY...maxY {
            for x in minX...maxX {
                let coverage = min(1, max(0, 0.5 - shape.signedDistance(x: Double(x) + 0.5, y: Double(y) + 0.5)))
                if coverage > 0 {
                    blend(color, coverage: coverage, atX: x, y: y)
                }
            }
        }
    }

    /// Source-over compositing in straight alpha.
    private mutating func blend(_ color: Color, coverage: Double, atX x: Int, y: Int) {
        let index = (y * width + x) * 4
        let sourceAlpha = color.alpha / 255 * coverage
        let destinationAlpha = Double(pixels[index + 3]) / 255
        let outputAlpha = sourceAlpha + destinationAlpha * (1 - sourceAlpha)
        guard outputAlpha > 0 else { return }
        func mix(_ source: Double, _ destination: UInt8) -> UInt8 {
            let mixed =
                (source * sourceAlpha + Double(destination) * destinationAlpha * (1 - sourceAlpha)) / outputAlpha
            return UInt8(min(255, max(0, mixed.rounded())))
        }
        pixels[index] = mix(color.red, pixels[index])
        pixels[index + 1] = mix(color.green, pixels[index + 1])
        pixels[index + 2] = mix(color.blue, pixels[index + 2])
        pixels[index + 3] = UInt8((outputAlpha * 255).rounded())
    }

    /// The canvas as an RGBA8 bitmap of the given scale.
    func bitmap(scale: Int = 1) -> Bitmap {
        Bitmap(width: width, height: height, scale: scale, format: .rgba8, pixels: pixels)
    }
}
