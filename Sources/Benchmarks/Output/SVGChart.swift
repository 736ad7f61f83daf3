import Foundation

/// Draws a workload's live decoded bytes over its steps: one line per strategy, the in-use floor
/// as a dashed reference line, memory warnings as vertical lines. Hand-written SVG 1.1.
enum SVGChart {
    private static let width = 1000.0
    private static let height = 560.0
    /// The plotting area every chart here shares, legend to its right.
    static let plot = (left: 80.0, top: 64.0, right: 760.0, bottom: 500.0)
    /// Strategies in `StrategyKind.all` order; the default policy's green is drawn last, on top.
    private static let palette = ["#d62728", "#ff7f0e", "#8c564b", "#1f77b4", "#2ca02c", "#9467bd", "#e377c2"]
    /// Peaks more than this many times the in-use floor switch the y axis to a log scale, so
    /// the sharing strategies are not flattened against the axis by the hoarding ones.
    private static let logScaleThreshold = 12.0

    static func render(_ report: WorkloadReport) -> String {
        let mebibyte = 1_048_576.0
        let series = report.runs.map { $0.liveBytes.map { Double($0) / mebibyte } }
        let inUse = report.inUseBytes.map { Double($0) / mebibyte }
        let maximum = (series.flatMap { $0 } + inUse).max() ?? 1
        let floorPeak = Double(report.peakInUseBytes) / mebibyte
        let stepCount = max(inUse.count, 2)

        let useLog = floorPeak > 0 && maximum > logScaleThreshold * floorPeak
        let yRange = (start: plot.bottom, end: plot.top)
        let yAxis =
            useLog
            ? ChartAxis.logarithmic(
                minimum: max((inUse.filter { $0 > 0 }.min() ?? floorPeak) / 2, maximum / 10_000),
                maximum: maximum, pixelRange: yRange)
            : ChartAxis.linear(maximum: maximum, pixelRange: yRange)
        let xAxis = ChartAxis.linear(
            maximum: Double(stepCount - 1), pixelRange: (plot.left, plot.right),
            endsOnRoundValue: false)

        var svg = opening(
            width: width, height: height, title: "\(report.workload.title): live decoded bytes per UI event",
            subtitle: report.workload.description)
        svg += axes(
            x: xAxis, y: yAxis, xTitle: "UI event (step)",
            yTitle: useLog ? "live decoded MiB (log scale)" : "live decoded MiB", xTickMarks: true)
        for step in report.memoryWarningSteps {
            let x = format(xAxis.position(Double(step)))
            svg.append(
                ##"<line x1="\##(x)" y1="\##(format(plot.top))" x2="\##(x)" y2="\##(format(plot.bottom))" "##
                    + ##"stroke="#c00" stroke-width="1.2" stroke-dasharray="6 4"/>"##)
        }
        let order =
            report.runs.indices.filter { report.runs[$0].strategy != StrategyKind.defaultPolicyLabel }
            + report.runs.indices.filter { report.runs[$0].strategy == StrategyKind.defaultPolicyLabel }
        for index in order {
            let isDefault = report.runs[index].strategy == StrategyKind.defaultPolicyLabel
            svg.append(
                polyline(series[index], x: xAxis, y: yAxis, color: color(index), width: isDefault ? 3 : 1.6, dash: nil))
        }
        // The floor goes on top: the weak dictionary usually runs exactly along it.
        svg.append(polyline(inUse, x: xAxis, y: yAxis, color: "#000", width: 2, dash: "5 3"))
        svg += legend(report)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func color(_ index: Int) -> String { palette[index % palette.count] }

    /// The plot's frame, the y grid with its labels, the x labels (with tick marks if asked) and
    /// both axis titles (none for an empty `xTitle`): what every chart here draws the same way.
    static func axes(x: ChartAxis, y: ChartAxis, xTitle: String, yTitle: String, xTickMarks: Bool = false) -> [String] {
        var parts = [
            ##"<rect x="\##(format(plot.left))" y="\##(format(plot.top))" width="\##(format(plot.right - plot.left))" "##
                + ##"height="\##(format(plot.bottom - plot.top))" fill="none" stroke="#888"/>"##
        ]
        for tick in y.ticks {
            let position = format(y.position(tick))
            parts.append(
                ##"<line x1="\##(format(plot.left))" y1="\##(position)" x2="\##(format(plot.right))" y2="\##(position)" "##
                    + ##"stroke="#e4e4e4"/>"##)
            parts.append(text(x: plot.left - 8, y: y.position(tick) + 4, ChartAxis.label(tick), anchor: "end"))
        }
        for tick in x.ticks {
            if xTickMarks {
                let position = format(x.position(tick))
                parts.append(
                    ##"<line x1="\##(position)" y1="\##(format(plot.bottom))" x2="\##(position)" "##
                        + ##"y2="\##(format(plot.bottom + 5))" stroke="#888"/>"##)
            }
            parts.append(text(x: x.position(tick), y: plot.bottom + 20, ChartAxis.label(tick), anchor: "middle"))
        }
        if !xTitle.isEmpty {
            parts.append(text(x: (plot.left + plot.right) / 2, y: plot.bottom + 44, xTitle, anchor: "middle"))
        }
        parts.append(
            ##"<text x="0" y="0" transform="translate(22 \##(format((plot.top + plot.bottom) / 2))) rotate(-90)" "##
                + ##"text-anchor="middle" font-size="13">\##(escape(yTitle))</text>"##)
        return parts
    }

    /// The series, one value per step, as a polyline thinned to the chart's pixel columns.
    private static func polyline(
        _ values: [Double], x: ChartAxis, y: ChartAxis, color: String, width: Double, dash: String?
    ) -> String {
        let points = values.enumerated().map { Point(x: Double($0.offset), y: $0.element) }
        return polyline(
            through: thinnedToPixelColumns(points, x: x), x: x, y: y, color: color, width: width, dash: dash)
    }

    private static func legend(_ report: WorkloadReport) -> [String] {
        let left = plot.right + 20
        var parts = [text(x: left, y: plot.top + 4, "peak live MiB", weight: "bold")]
        var y = plot.top + 26
        func entry(_ label: String, color: String, width: Double, dash: String?) {
            parts.append(legendLine(left: left, y: y, color: color, width: width, dash: dash))
            parts.append(text(x: left + 34, y: y, label))
            y += 22
        }
        for (index, run) in report.runs.enumerated() {
            let isDefault = run.strategy == StrategyKind.defaultPolicyLabel
            entry(
                "\(run.strategy)  \(Format.mebibytes(run.peakLiveBytes))", color: color(index),
                width: isDefault ? 3 : 1.6, dash: nil)
        }
        entry("in use (floor)  \(Format.mebibytes(report.peakInUseBytes))", color: "#000", width: 2, dash: "5 3")
        if !report.memoryWarningSteps.isEmpty {
            entry("memory warning", color: "#c00", width: 1.2, dash: "6 4")
        }
        return parts
    }

    /// The opening of a chart: the `svg` element, a white page, the title and the subtitle at the
    /// plot's left edge.
    static func opening(width: Double, height: Double, title: String, subtitle: String) -> [String] {
        [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" "##
                + ##"viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            text(x: plot.left, y: 26, title, size: 17, weight: "bold"),
            text(x: plot.left, y: 46, subtitle, size: 12, fill: "#555"),
        ]
    }

    static func text(
        x: Double, y: Double, _ content: String, size: Int = 12, weight: String = "normal",
        anchor: String = "start", fill: String = "#222"
    ) -> String {
        ##"<text x="\##(format(x))" y="\##(format(y))" font-size="\##(size)" font-weight="\##(weight)" "##
            + ##"text-anchor="\##(anchor)" fill="\##(fill)">\##(escape(content))</text>"##
    }

    static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
