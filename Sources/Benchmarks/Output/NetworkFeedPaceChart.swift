/// Draws the rows that came on screen without their photo, as a share of the rows scrolled in,
/// per speed (groups) and strategy (bars). Hand-written SVG 1.1, in ``SVGChart``'s style.
enum NetworkFeedPaceChart {
    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot

    static func render(_ runs: [NetworkFeedRun]) -> String {
        let speeds = ScrollSpeed.allCases.filter { speed in runs.contains { $0.speed == speed } }
        let strategies = FeedStrategy.allCases.filter { strategy in runs.contains { $0.strategy == strategy } }
        let yAxis = ChartAxis.linear(maximum: 100, pixelRange: (plot.bottom, plot.top))
        var svg = SVGChart.opening(
            width: width, height: height, title: "Network feed: rows that appeared without their photo",
            subtitle: "share of the rows the scroll brought on screen, by speed and strategy (lower is better)")
        svg += SVGChart.axes(
            x: ChartAxis(scale: .linear, lower: 0, upper: 1, pixelRange: (plot.left, plot.right), ticks: []),
            y: yAxis, xTitle: "scroll speed", yTitle: "% of rows without their photo on appearing")
        let groupWidth = (plot.right - plot.left) / Double(max(1, speeds.count))
        let barWidth = groupWidth * 0.8 / Double(max(1, strategies.count))
        for (group, speed) in speeds.enumerated() {
            let groupLeft = plot.left + Double(group) * groupWidth + groupWidth * 0.1
            for (index, strategy) in strategies.enumerated() {
                guard let run = runs.first(where: { $0.speed == speed && $0.strategy == strategy }) else { continue }
                let percent = 100 * (1 - run.shareWithPhotoOnAppearing)
                let top = yAxis.position(percent)
                let left = groupLeft + Double(index) * barWidth
                svg.append(
                    ##"<rect x="\##(SVGChart.format(left))" y="\##(SVGChart.format(top))" "##
                        + ##"width="\##(SVGChart.format(barWidth - 2))" height="\##(SVGChart.format(plot.bottom - top))" "##
                        + ##"fill="\##(NetworkFeedMemoryChart.colors[strategy] ?? "#555")"/>"##)
            }
            svg.append(
                SVGChart.text(
                    x: groupLeft + groupWidth * 0.4, y: plot.bottom + 20, "\(speed.label) (\(speed.pace))",
                    anchor: "middle"))
        }
        var legendY = plot.top + 4
        for strategy in strategies {
            svg.append(
                ##"<rect x="\##(SVGChart.format(plot.right + 20))" y="\##(SVGChart.format(legendY - 10))" width="24" "##
                    + ##"height="12" fill="\##(NetworkFeedMemoryChart.colors[strategy] ?? "#555")"/>"##)
            svg.append(SVGChart.text(x: plot.right + 52, y: legendY, strategy.label))
            legendY += 22
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
