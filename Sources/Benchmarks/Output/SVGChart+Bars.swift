/// Grouped bars: one group per label along the x axis, one bar per series in each, and a legend of
/// the series' swatches beside the plot.
extension SVGChart {
    /// A group's label under its bars, and a second, smaller line under it.
    struct BarGroup {
        let label: String
        let detail: String
    }

    /// A series of bars: its legend label and its fill.
    struct BarSeries {
        let label: String
        let color: String
    }

    /// The bars, groups left to right, series left to right within a group, each group labelled
    /// in two lines under its bars (where an x axis's title would go, so pass none);
    /// `value(group, series)` is a bar's height in `y`'s units, nil for no bar.
    static func groupedBars(
        groups: [BarGroup], series: [BarSeries], y: ChartAxis, value: (_ group: Int, _ series: Int) -> Double?
    ) -> [String] {
        var parts: [String] = []
        let groupWidth = (plot.right - plot.left) / Double(max(1, groups.count))
        let barWidth = groupWidth * 0.8 / Double(max(1, series.count))
        for (group, labels) in groups.enumerated() {
            let groupLeft = plot.left + Double(group) * groupWidth + groupWidth * 0.1
            for (index, bars) in series.enumerated() {
                guard let height = value(group, index) else { continue }
                let top = y.position(height)
                let left = groupLeft + Double(index) * barWidth
                parts.append(
                    ##"<rect x="\##(format(left))" y="\##(format(top))" "##
                        + ##"width="\##(format(barWidth - 2))" height="\##(format(plot.bottom - top))" "##
                        + ##"fill="\##(bars.color)"/>"##)
            }
            let center = groupLeft + groupWidth * 0.4
            parts.append(text(x: center, y: plot.bottom + 20, labels.label, anchor: "middle"))
            parts.append(text(x: center, y: plot.bottom + 36, labels.detail, size: 11, anchor: "middle", fill: "#555"))
        }
        var legendY = plot.top + 4
        for bars in series {
            parts.append(
                ##"<rect x="\##(format(plot.right + 20))" y="\##(format(legendY - 10))" width="24" "##
                    + ##"height="12" fill="\##(bars.color)"/>"##)
            parts.append(text(x: plot.right + 52, y: legendY, bars.label))
            legendY += 22
        }
        return parts
    }
}
