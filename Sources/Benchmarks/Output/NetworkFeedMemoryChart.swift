/// Draws the network feed's live decoded bytes over the app's time at one speed: one line per
/// strategy, the memory warning and the relaunch as vertical lines, on a linear scale: the classic
/// recipe climbing until a warning drops it, and the store flat, in one picture. Hand-written
/// SVG 1.1, in ``SVGChart``'s style.
enum NetworkFeedMemoryChart {
    private static let width = 1000.0
    private static let height = 560.0
    private static let plot = SVGChart.plot

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
        // UI thread; one that blocks gets them later, marked in its own color. A moment less than
        // a label's height from the shared line would draw a second line on top of it.
        if let reference = (runs.first { $0.strategy == .store } ?? runs.first)?.observations {
            let warning = xAxis.position(reference.memoryWarningSeconds)
            let relaunch = xAxis.position(reference.relaunchSeconds)
            var events = [
                Event(position: warning, label: "memory warning", color: "#000"),
                Event(position: relaunch, label: "relaunch", color: "#666"),
            ]
            for run in runs {
                let color = run.strategy.chartColor
                let moments = [
                    (xAxis.position(run.observations.memoryWarningSeconds), warning, "warning"),
                    (xAxis.position(run.observations.relaunchSeconds), relaunch, "relaunch"),
                ]
                for (position, shared, label) in moments where abs(position - shared) >= 12 {
                    events.append(Event(position: position, label: label, color: color))
                }
            }
            svg += markers(events)
        }
        // The library's lines go last, on top.
        for run in runs.sorted(by: { !$0.strategy.isStore && $1.strategy.isStore }) {
            svg.append(
                polyline(
                    points(run).map { ($0.seconds, Double($0.liveBytes) / mebibyte) }, x: xAxis, y: yAxis,
                    color: run.strategy.chartColor, width: run.strategy == .store ? 3 : 2))
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

    /// A vertical line across the plot at an event, labelled at its top.
    private struct Event {
        /// Where the line is, in pixels from the chart's left edge.
        let position: Double
        let label: String
        let color: String
    }

    /// The events' lines and labels, each label in the highest row where it overlaps no label
    /// already placed: a quick run's events sit close together, and their labels would print over
    /// one another. A label that would run past the plot's right edge is set left of its line.
    private static func markers(_ events: [Event]) -> [String] {
        let rowHeight = 16.0
        let gap = 6.0
        var placed: [(row: Int, left: Double, right: Double)] = []
        var parts: [String] = []
        for event in events.sorted(by: { $0.position < $1.position }) {
            let width = labelWidth(event.label)
            let isLeftOfLine = event.position + 4 + width > plot.right
            let left = isLeftOfLine ? event.position - 4 - width : event.position + 4
            let right = left + width
            var row = 0
            while placed.contains(where: { $0.row == row && $0.left < right + gap && left < $0.right + gap }) {
                row += 1
            }
            placed.append((row, left, right))
            let top = plot.top + Double(row) * rowHeight
            parts.append(
                ##"<line x1="\##(SVGChart.format(event.position))" y1="\##(SVGChart.format(top))" "##
                    + ##"x2="\##(SVGChart.format(event.position))" y2="\##(SVGChart.format(plot.bottom))" "##
                    + ##"stroke="\##(event.color)" stroke-width="1.2" stroke-dasharray="6 4"/>"##)
            parts.append(
                SVGChart.text(
                    x: isLeftOfLine ? event.position - 4 : event.position + 4, y: top + 14, event.label, size: 11,
                    anchor: isLeftOfLine ? "end" : "start", fill: event.color))
        }
        return parts
    }

    /// A generous width for a label at 11 pixels: 0.6 em a character, wider than the average
    /// sans-serif character, so labels judged apart are apart in any font.
    private static func labelWidth(_ label: String) -> Double {
        Double(label.count) * 11 * 0.6
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
            let color = run.strategy.chartColor
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
