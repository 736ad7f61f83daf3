/// Draws the blob list's bytes alive after each frame at one speed: per strategy, blobs and
/// decoded images together (solid) and blobs alone (dashed), on a linear scale. Hand-written SVG
/// 1.1, in ``SVGChart``'s style.
enum BlobListMemoryChart {
    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot

    /// The chart for `runs` (one speed, one run per strategy).
    static func render(_ runs: [BlobListRun], speed: ScrollSpeed) -> String {
        let mebibyte = 1_048_576.0
        let lines = runs.map { run in
            (
                run: run, color: run.strategy.chartColor,
                total: run.observations.memory.map { Double($0.blobBytes + $0.decodedBytes) / mebibyte },
                blobs: run.observations.memory.map { Double($0.blobBytes) / mebibyte }
            )
        }
        let maximum = max(lines.flatMap(\.total).max() ?? 1, 1)
        let frameCount = max(lines.map(\.total.count).max() ?? 2, 2)
        let yAxis = ChartAxis.linear(maximum: maximum, pixelRange: (plot.bottom, plot.top))
        let xAxis = ChartAxis.linear(
            maximum: Double(frameCount - 1), pixelRange: (plot.left, plot.right), endsOnRoundValue: false)

        var svg = SVGChart.opening(
            width: width, height: height, title: "Blob list, \(speed.label): photo bytes alive after each frame",
            subtitle: "blobs + decoded images (solid) and blobs alone (dashed); eager reads every blob with the query")
        svg += SVGChart.axes(x: xAxis, y: yAxis, xTitle: "frame", yTitle: "MiB alive")
        for line in lines.sorted(by: { $0.run.strategy == .eager && $1.run.strategy != .eager }) {
            svg.append(polyline(line.blobs, x: xAxis, y: yAxis, color: line.color, width: 1.6, dash: "6 4"))
            svg.append(polyline(line.total, x: xAxis, y: yAxis, color: line.color, width: 2.5, dash: nil))
        }
        svg += legend(runs)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// One value per frame, as a polyline.
    private static func polyline(
        _ values: [Double], x: ChartAxis, y: ChartAxis, color: String, width: Double, dash: String?
    ) -> String {
        let points = values.enumerated().map { SVGChart.Point(x: Double($0.offset), y: $0.element) }
        return SVGChart.polyline(through: points, x: x, y: y, color: color, width: width, dash: dash)
    }

    private static func legend(_ runs: [BlobListRun]) -> [String] {
        let left = plot.right + 20
        var parts = [SVGChart.text(x: left, y: plot.top + 4, "peak MiB", weight: "bold")]
        var y = plot.top + 26
        for run in runs {
            let color = run.strategy.chartColor
            parts.append(SVGChart.legendLine(left: left, y: y, color: color, width: 2.5))
            parts.append(SVGChart.text(x: left + 34, y: y, "\(run.strategy.label)  \(Format.mebibytes(run.peakBytes))"))
            y += 22
            parts.append(SVGChart.legendLine(left: left, y: y, color: color, width: 1.6, dash: "6 4"))
            parts.append(SVGChart.text(x: left + 34, y: y, "  its blobs  \(Format.mebibytes(run.blobs.peakLiveBytes))"))
            y += 26
        }
        return parts
    }
}
