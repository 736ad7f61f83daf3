/// The lines every chart draws: a series as a polyline, thinned to what the pixels can show, and
/// a legend's swatch.
extension SVGChart {
    /// A point of a series, in the axes' units.
    typealias Point = (x: Double, y: Double)

    /// The series through `points`, placed by the axes.
    static func polyline(
        through points: [Point], x: ChartAxis, y: ChartAxis, color: String, width: Double, dash: String? = nil
    ) -> String {
        let coordinates = points.map { "\(format(x.position($0.x))),\(format(y.position($0.y)))" }
        return ##"<polyline fill="none" stroke="\##(color)" stroke-width="\##(format(width))""##
            + ##"\##(dashAttribute(dash)) stroke-linejoin="round" points="\##(coordinates.joined(separator: " "))"/>"##
    }

    /// `points` (in order of x) with at most their lowest and highest per pixel column of `x`, in
    /// order: a long series shrinks to what the chart can show, and its peaks survive.
    static func thinnedToPixelColumns(_ points: [Point], x: ChartAxis) -> [Point] {
        var kept: [Point] = []
        var column = Int.min
        var low: Point?
        var high: Point?
        func flush() {
            guard let low, let high else { return }
            kept += low.x == high.x && low.y == high.y ? [low] : low.x <= high.x ? [low, high] : [high, low]
        }
        for point in points {
            let pointColumn = Int(x.position(point.x))
            if pointColumn != column {
                flush()
                column = pointColumn
                low = point
                high = point
            } else {
                if point.y < low?.y ?? .infinity { low = point }
                if point.y > high?.y ?? -.infinity { high = point }
            }
        }
        flush()
        return kept
    }

    /// A legend's swatch: a short line of the series' style, left of an entry's text at `y`.
    static func legendLine(left: Double, y: Double, color: String, width: Double, dash: String? = nil) -> String {
        ##"<line x1="\##(format(left))" y1="\##(format(y - 4))" x2="\##(format(left + 26))" y2="\##(format(y - 4))" "##
            + ##"stroke="\##(color)" stroke-width="\##(format(width))"\##(dashAttribute(dash))/>"##
    }

    private static func dashAttribute(_ dash: String?) -> String {
        dash.map { ##" stroke-dasharray="\##($0)""## } ?? ""
    }
}
