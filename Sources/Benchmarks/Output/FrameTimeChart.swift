/// Draws the UI thread's time per frame in a UI workload: one line per run, the 16.7 ms budget
/// as a dashed line, on a log scale (a decode on the UI thread is thousands of times an async
/// frame). Hand-written SVG 1.1, in ``SVGChart``'s style.
enum FrameTimeChart {
    /// One run's line.
    struct Series {
        let label: String
        /// An SVG colour.
        let color: String
        let run: any FrameTimedRun
        /// Frames to mark with a dotted vertical line (where a scroll starts and ends).
        let markedFrames: [Int]
        /// Drawn thicker, for the run the chart is about.
        let isEmphasized: Bool
    }

    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot
    /// sync red, GCD orange, async green (drawn last, on top).
    private static let styleColors: [LoadingStyle: String] = [.sync: "#d62728", .gcd: "#ff7f0e", .async: "#2ca02c"]
    /// The y axis starts here at least: a microsecond, below which nothing is worth a pixel.
    private static let floorMilliseconds = 0.001

    /// The chart for `runs` (one speed, one run per style), by the wall clock of each frame's
    /// work: what a person watching would see, machine load included.
    static func render(_ runs: [ScrollingRun], speed: ScrollSpeed) -> String {
        render(
            runs.map { run in
                Series(
                    label: run.style.label, color: styleColors[run.style] ?? "#555", run: run,
                    markedFrames: run.scrollFrames.isEmpty
                        ? [] : [run.scrollFrames.lowerBound, run.scrollFrames.upperBound - 1],
                    isEmphasized: run.style == .async)
            },
            title: "Scrolling, \(speed.label) (\(speed.pace)): the UI thread's work per frame",
            subtitle: "wall-clock time of each frame's store calls at 60 fps; above the dashed line a frame is dropped",
            markLabel: "scroll starts / ends")
    }

    /// The chart of `series`, by the wall clock of each frame's work.
    ///
    /// - Parameter markLabel: The legend's words for the dotted lines, or nil if none are drawn.
    static func render(_ series: [Series], title: String, subtitle: String, markLabel: String?) -> String {
        let values = series.map { line in line.run.frames.map { Double($0.wallNanoseconds) / 1e6 } }
        let budget = Double(ScrollingRun.frameBudgetNanoseconds) / 1e6
        let allValues = values.flatMap { $0 }
        let maximum = max(allValues.max() ?? budget, budget * 2)
        let minimum = max(allValues.filter { $0 > 0 }.min() ?? floorMilliseconds, floorMilliseconds)
        let yAxis = ChartAxis.logarithmic(minimum: minimum, maximum: maximum, pixelRange: (plot.bottom, plot.top))
        let frameCount = max(values.map(\.count).max() ?? 2, 2)
        let xAxis = ChartAxis.linear(
            maximum: Double(frameCount - 1), pixelRange: (plot.left, plot.right), endsOnRoundValue: false)

        var svg = SVGChart.opening(width: width, height: height, title: title, subtitle: subtitle)
        svg += SVGChart.axes(x: xAxis, y: yAxis, xTitle: "frame", yTitle: "UI thread ms per frame (log scale)")
        let budgetY = SVGChart.format(yAxis.position(budget))
        svg.append(
            ##"<line x1="\##(SVGChart.format(plot.left))" y1="\##(budgetY)" x2="\##(SVGChart.format(plot.right))" "##
                + ##"y2="\##(budgetY)" stroke="#000" stroke-width="1.5" stroke-dasharray="6 4"/>"##)
        for line in series {
            for frame in line.markedFrames {
                let x = SVGChart.format(xAxis.position(Double(frame)))
                svg.append(
                    ##"<line x1="\##(x)" y1="\##(SVGChart.format(plot.top))" x2="\##(x)" y2="\##(SVGChart.format(plot.bottom))" "##
                        + ##"stroke="\##(line.color)" stroke-width="1" stroke-dasharray="2 4"/>"##)
            }
        }
        for (index, line) in series.enumerated() {
            let points = values[index].enumerated().map { SVGChart.Point(x: Double($0.offset), y: $0.element) }
            svg.append(
                SVGChart.polyline(
                    through: points, x: xAxis, y: yAxis, color: line.color, width: line.isEmphasized ? 2.5 : 1.6))
        }
        svg += legend(series, markLabel: markLabel)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func legend(_ series: [Series], markLabel: String?) -> [String] {
        let left = plot.right + 20
        var parts = [SVGChart.text(x: left, y: plot.top + 4, "frames > 16.7 ms (wall)", weight: "bold")]
        var y = plot.top + 26
        for line in series {
            parts.append(SVGChart.legendLine(left: left, y: y, color: line.color, width: 2.5))
            parts.append(
                SVGChart.text(
                    x: left + 34, y: y, "\(line.label)  \(line.run.framesOverBudgetByWall) of \(line.run.frames.count)")
            )
            y += 22
        }
        parts.append(SVGChart.legendLine(left: left, y: y, color: "#000", width: 1.5, dash: "6 4"))
        parts.append(SVGChart.text(x: left + 34, y: y, "16.7 ms budget"))
        guard let markLabel else { return parts }
        y += 22
        parts.append(
            ##"<line x1="\##(SVGChart.format(left + 13))" y1="\##(SVGChart.format(y - 14))" x2="\##(SVGChart.format(left + 13))" "##
                + ##"y2="\##(SVGChart.format(y + 4))" stroke="#555" stroke-width="1" stroke-dasharray="2 4"/>"##)
        parts.append(SVGChart.text(x: left + 34, y: y, markLabel))
        return parts
    }
}
