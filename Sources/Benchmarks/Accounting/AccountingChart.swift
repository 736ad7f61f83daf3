import Foundation

/// Draws one workload's accounting traces: each store's reported live bytes with the bitmaps'
/// exact accounting dashed over it (they coincide when the store is exact), the in-use floor
/// and the budget. Hand-written SVG 1.1.
enum AccountingChart {
    private static let width = 1000.0
    private static let height = 520.0
    private static let plot = (left: 80.0, top: 64.0, right: 740.0, bottom: 460.0)

    static func render(_ workload: Workload, traces: [AccountingTrace]) -> String {
        let mebibyte = 1_048_576.0
        let budgets = traces.compactMap(\.budget).map { Double($0) / mebibyte }
        let inUse = traces.first?.inUseBytes.map { Double($0) / mebibyte } ?? []
        let maximum = max(
            (traces.flatMap { $0.storeLiveBytes + $0.bitmapLiveBytes }.map { Double($0) / mebibyte } + inUse + budgets)
                .max() ?? 1, 0.001)
        let stepCount = max(inUse.count, 2)
        let xAxis = ChartAxis.linear(
            maximum: Double(stepCount - 1), pixelRange: (plot.left, plot.right), endsOnRoundValue: false)
        let yAxis = ChartAxis.linear(maximum: maximum, pixelRange: (plot.bottom, plot.top))

        var svg: [String] = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" "##
                + ##"viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            text(x: plot.left, y: 26, "\(workload.title): live bytes the store reports vs. exact", size: 17),
            text(x: plot.left, y: 46, workload.description, size: 12),
            ##"<rect x="\##(plot.left)" y="\##(plot.top)" width="\##(plot.right - plot.left)" "##
                + ##"height="\##(plot.bottom - plot.top)" fill="none" stroke="#888"/>"##,
        ]
        for tick in yAxis.ticks {
            let y = format(yAxis.position(tick))
            svg.append(
                ##"<line x1="\##(plot.left)" y1="\##(y)" x2="\##(plot.right)" y2="\##(y)" stroke="#e4e4e4"/>"##)
            svg.append(text(x: plot.left - 8, y: yAxis.position(tick) + 4, ChartAxis.label(tick), anchor: "end"))
        }
        for tick in xAxis.ticks {
            svg.append(text(x: xAxis.position(tick), y: plot.bottom + 18, ChartAxis.label(tick), anchor: "middle"))
        }
        svg.append(text(x: (plot.left + plot.right) / 2, y: plot.bottom + 40, "UI event (step)", anchor: "middle"))
        svg.append(
            ##"<text x="0" y="0" transform="translate(24 \##(format((plot.top + plot.bottom) / 2))) rotate(-90)" "##
                + ##"text-anchor="middle" font-size="13">live decoded MiB</text>"##)

        var legend: [(String, String, Double, String?)] = []
        let colors = ["#2ca02c", "#1f77b4", "#9467bd"]
        for (index, trace) in traces.enumerated() {
            let color = colors[index % colors.count]
            svg.append(polyline(trace.storeLiveBytes.map { Double($0) / mebibyte }, xAxis, yAxis, color, 4, nil))
            svg.append(polyline(trace.bitmapLiveBytes.map { Double($0) / mebibyte }, xAxis, yAxis, "#000", 1.2, "4 3"))
            legend.append(("\(trace.label): store liveCost", color, 4, nil))
        }
        legend.append(("Bitmap.memory (exact), each run", "#000", 1.2, "4 3"))
        svg.append(polyline(inUse, xAxis, yAxis, "#888", 2, "8 4"))
        legend.append(("in use by views (floor)", "#888", 2, "8 4"))
        for budget in Set(budgets).sorted() {
            let y = format(yAxis.position(budget))
            svg.append(
                ##"<line x1="\##(plot.left)" y1="\##(y)" x2="\##(plot.right)" y2="\##(y)" stroke="#d62728" "##
                    + ##"stroke-width="1.5" stroke-dasharray="2 3"/>"##)
            legend.append(("budget \(Format.mebibytes(Int(budget * mebibyte))) MiB", "#d62728", 1.5, "2 3"))
        }
        var y = plot.top + 8
        for (label, color, width, dash) in legend {
            let dashAttribute = dash.map { ##" stroke-dasharray="\##($0)""## } ?? ""
            svg.append(
                ##"<line x1="\##(plot.right + 16)" y1="\##(y - 4)" x2="\##(plot.right + 40)" y2="\##(y - 4)" "##
                    + ##"stroke="\##(color)" stroke-width="\##(width)"\##(dashAttribute)/>"##)
            svg.append(text(x: plot.right + 46, y: y, label))
            y += 22
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func polyline(
        _ values: [Double], _ x: ChartAxis, _ y: ChartAxis, _ color: String, _ width: Double, _ dash: String?
    ) -> String {
        let points = values.enumerated().map {
            "\(format(x.position(Double($0.offset)))),\(format(y.position($0.element)))"
        }
        let dashAttribute = dash.map { ##" stroke-dasharray="\##($0)""## } ?? ""
        return ##"<polyline fill="none" stroke="\##(color)" stroke-width="\##(width)"\##(dashAttribute) "##
            + ##"points="\##(points.joined(separator: " "))"/>"##
    }

    private static func text(x: Double, y: Double, _ content: String, size: Int = 12, anchor: String = "start")
        -> String
    {
        let escaped = content.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return
            ##"<text x="\##(format(x))" y="\##(format(y))" font-size="\##(size)" text-anchor="\##(anchor)">\##(escaped)</text>"##
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
