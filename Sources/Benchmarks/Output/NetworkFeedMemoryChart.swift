/// Draws the network feed's live decoded bytes over the app's time at one speed: one line per
/// strategy, the memory warning and the relaunch as vertical lines, on a linear scale: the source
/// paper's figures 5 (climbing until a warning drops it) and 6 (flat) in one picture. Hand-written
/// SVG 1.1, in ``SVGChart``'s style.
enum NetworkFeedMemoryChart {
    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot
    private static let colors: [FeedStrategy: String] = [
        .seedNaive: "#d62728", .seedFixed: "#ff7f0e", .urlCache: "#8c564b", .store: "#2ca02c",
        .storeDisplaySize: "#1f77b4",
    ]

    /// The chart for `runs` (one speed, one run per strategy).
    static func render(_ runs: [NetworkFeedRun], speed: ScrollSpeed, network: FeedNetwork) -> String {
        let mebibyte = 1_048_576.0
        let maximum = max(runs.flatMap { $0.observations.memory.map { Double($0.liveBytes) / mebibyte } }.max() ?? 1, 1)
        let duration = max(runs.compactMap { $0.observations.memory.last?.seconds }.max() ?? 1, 1)
        let yAxis = ChartAxis.linear(maximum: maximum, pixelRange: (plot.bottom, plot.top))
        let xAxis = ChartAxis.linear(maximum: duration, pixelRange: (plot.left, plot.right))

        var svg = SVGChart.opening(
            width: width, height: height, title: "Network feed, \(speed.label) scroll: live decoded pictures over time",
            subtitle: "down, memory warning half-way, back up, relaunch, down again; \(network.description)")
        svg += SVGChart.axes(x: xAxis, y: yAxis, xTitle: "seconds of the app's time", yTitle: "live decoded MiB")
        // The script puts both events at the same moment for every strategy that never blocks its
        // UI thread; one that blocks gets them later, marked in its own color.
        if let reference = (runs.first { $0.strategy == .store } ?? runs.first)?.observations {
            svg += marker(at: reference.memoryWarningSeconds, x: xAxis, label: "memory warning", color: "#000")
            svg += marker(
                at: reference.relaunchSeconds, x: xAxis, label: "relaunch", color: "#666", top: plot.top + 16)
            let tolerance = duration / 100
            for run in runs {
                let color = colors[run.strategy] ?? "#555"
                let events = [
                    (run.observations.memoryWarningSeconds, reference.memoryWarningSeconds, "warning"),
                    (run.observations.relaunchSeconds, reference.relaunchSeconds, "relaunch"),
                ]
                for (seconds, expected, label) in events where abs(seconds - expected) > tolerance {
                    svg += marker(at: seconds, x: xAxis, label: label, color: color, top: plot.top + 32)
                }
            }
        }
        // The library's lines go last, on top.
        for run in runs.sorted(by: { !$0.strategy.isStore && $1.strategy.isStore }) {
            svg.append(
                polyline(
                    points(run).map { ($0.seconds, Double($0.liveBytes) / mebibyte) }, x: xAxis, y: yAxis,
                    color: colors[run.strategy] ?? "#555", width: run.strategy == .store ? 3 : 2))
        }
        svg += legend(runs)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// The samples after each frame, and the moment between the launches when the first one's
    /// pictures were gone.
    private static func points(_ run: NetworkFeedRun) -> [NetworkFeedUIThread.MemorySample] {
        let observations = run.observations
        let betweenLaunches = NetworkFeedUIThread.MemorySample(
            seconds: observations.relaunchSeconds, liveBytes: observations.liveBytesBetweenLaunches)
        let index = observations.memory.firstIndex { $0.seconds >= observations.relaunchSeconds }
        var samples = observations.memory
        samples.insert(betweenLaunches, at: index ?? samples.endIndex)
        return samples
    }

    private static func marker(
        at seconds: Double, x: ChartAxis, label: String, color: String, top: Double = plot.top
    ) -> [String] {
        let position = x.position(seconds)
        return [
            ##"<line x1="\##(SVGChart.format(position))" y1="\##(SVGChart.format(top))" "##
                + ##"x2="\##(SVGChart.format(position))" y2="\##(SVGChart.format(plot.bottom))" stroke="\##(color)" "##
                + ##"stroke-width="1.2" stroke-dasharray="6 4"/>"##,
            SVGChart.text(x: position + 4, y: top + 14, label, size: 11, fill: color),
        ]
    }

    /// The series as a polyline thinned to the chart's pixel columns.
    private static func polyline(
        _ points: [(seconds: Double, mebibytes: Double)], x: ChartAxis, y: ChartAxis, color: String, width: Double
    ) -> String {
        let series = points.map { SVGChart.Point(x: $0.seconds, y: $0.mebibytes) }
        return SVGChart.polyline(
            through: SVGChart.thinnedToPixelColumns(series, x: x), x: x, y: y, color: color, width: width)
    }

    private static func legend(_ runs: [NetworkFeedRun]) -> [String] {
        let left = plot.right + 20
        var parts = [SVGChart.text(x: left, y: plot.top + 4, "peak MiB · GETs · wrong", weight: "bold")]
        var y = plot.top + 26
        for run in runs {
            let color = colors[run.strategy] ?? "#555"
            parts.append(SVGChart.legendLine(left: left, y: y, color: color, width: run.strategy == .store ? 3 : 2))
            parts.append(SVGChart.text(x: left + 34, y: y, run.strategy.label))
            parts.append(
                SVGChart.text(
                    x: left + 34, y: y + 15,
                    "\(Format.mebibytes(run.peakLiveBytes)) · \(run.downloads.gets) · \(run.observations.wrongPictures)",
                    size: 11, fill: "#555"))
            y += 40
        }
        return parts
    }
}
