/// Draws the rows that came on screen without their photo, as a share of the rows scrolled in,
/// per speed (groups) and strategy (bars). Hand-written SVG 1.1, in ``SVGChart``'s style.
enum PaceChart {
    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot

    /// - Parameter section: The section's name, for the title: "Network feed".
    static func render<Run: PacedRun>(_ runs: [Run], section: String) -> String {
        let speeds = ScrollSpeed.allCases.filter { speed in runs.contains { $0.speed == speed } }
        let strategies = Run.Strategy.allCases.filter { strategy in runs.contains { $0.strategy == strategy } }
        let yAxis = ChartAxis.linear(maximum: 100, pixelRange: (plot.bottom, plot.top))
        var svg = SVGChart.opening(
            width: width, height: height, title: "\(section): rows that appeared without their photo",
            subtitle: "share of the rows the scroll brought on screen, by speed and strategy (lower is better)")
        svg += SVGChart.axes(
            x: ChartAxis(scale: .linear, lower: 0, upper: 1, pixelRange: (plot.left, plot.right), ticks: []),
            y: yAxis, xTitle: "", yTitle: "% of rows without their photo on appearing")
        svg += SVGChart.groupedBars(
            groups: speeds.map { SVGChart.BarGroup(label: $0.label, detail: $0.pace) },
            series: strategies.map { SVGChart.BarSeries(label: $0.label, color: $0.chartColor) },
            y: yAxis
        ) { group, series in
            runs.first { $0.speed == speeds[group] && $0.strategy == strategies[series] }.map {
                100 * (1 - $0.shareWithPhotoOnAppearing)
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
