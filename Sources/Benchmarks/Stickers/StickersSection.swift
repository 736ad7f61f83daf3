import Foundation
import ImageCodecs
import WeakImageStore

/// The benchmark's "stickers" section: a chat of animated stickers played by three strategies at
/// reading speed and flung; prints the table, writes stickers.csv and a memory chart per speed,
/// and judges the goals.
struct StickersSection {
    let quick: Bool
    let outputDirectory: URL

    private static let colors: [String] = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4"]

    func run() throws -> SectionOutcome {
        let started = MonotonicClock.now()
        let set = try StickerSet.make(count: 40, quick: quick)
        defer { set.remove() }
        let chat = StickerChat(stickers: set, quick: quick)
        let gifs = set.stickers.filter { $0.name.hasSuffix(".gif") }.count
        print(
            "\(set.stickers.count) stickers (\(gifs) GIF, \(set.stickers.count - gifs) APNG, "
                + "\(set.stickers.map(\.side).min() ?? 0)–\(set.stickers.map(\.side).max() ?? 0) px, "
                + "\(set.stickers.map(\.frameCount).min() ?? 0)–\(set.stickers.map(\.frameCount).max() ?? 0) frames, "
                + "\(set.stickers.reduce(0) { $0 + $1.bytes } >> 10) KiB) in \(chat.messages.count) messages, "
                + "ready in \(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s")
        let strategies: [StickerStrategy] = [
            .everyFrameUpFront, .bufferPerView,
            .sharedAnimation(frameBudget: ImageStore<Bitmap>.defaultAnimationFrameBudget),
            .sharedAnimation(frameBudget: 16 << 20),
        ]
        var runs: [StickerChat.Run] = []
        for speed in StickerChat.Speed.allCases {
            for strategy in strategies {
                runs.append(chat.run(strategy, speed))
            }
        }
        print(table(runs) + "\n")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        try csv(runs).write(
            to: outputDirectory.appendingPathComponent("stickers.csv"), atomically: true, encoding: .utf8)
        for speed in StickerChat.Speed.allCases {
            let name = "stickers-\(speed == .reading ? "reading" : "fling").svg"
            try chart(runs.filter { $0.speed == speed }, speed: speed).write(
                to: outputDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        print("wrote stickers.csv, stickers-reading.svg, stickers-fling.svg to \(outputDirectory.path)/")
        print("stickers section: \(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s\n")
        return SectionOutcome(goals: goals(runs), warnings: [])
    }

    private func table(_ runs: [StickerChat.Run]) -> String {
        var table = TextTable(headers: [
            "speed", "strategy", "peak decoded", "frame decodes", "decodes/s", "late frames", "placeholder draws",
            "UI frames > 16.7 ms (CPU / wall)",
        ])
        for run in runs {
            table.append([
                run.speed.label, run.strategy.label, Format.mebibytes(run.peakDecodedBytes), "\(run.frameDecodes)",
                Format.fixed(run.decodesPerSecond, digits: 0), "\(run.lateFrames)", "\(run.placeholderDraws)",
                "\(run.framesOverBudgetByCPU) / \(run.framesOverBudgetByWall) of \(run.frames.count)",
            ])
        }
        return table.rendered()
    }

    private func csv(_ runs: [StickerChat.Run]) -> String {
        var lines = [
            "speed,strategy,peak_decoded_bytes,frame_decodes,seconds,late_frames,placeholder_draws,"
                + "frames_over_budget_cpu,frames_over_budget_wall"
        ]
        for run in runs {
            lines.append(
                "\(run.speed),\"\(run.strategy.label)\",\(run.peakDecodedBytes),\(run.frameDecodes),"
                    + "\(Format.fixed(run.seconds, digits: 3)),\(run.lateFrames),\(run.placeholderDraws),"
                    + "\(run.framesOverBudgetByCPU),\(run.framesOverBudgetByWall)"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func goals(_ runs: [StickerChat.Run]) -> [GoalCheck] {
        func run(_ strategy: StickerStrategy, _ speed: StickerChat.Speed) -> StickerChat.Run? {
            runs.first { $0.strategy == strategy && $0.speed == speed }
        }
        let budget = ImageStore<Bitmap>.defaultAnimationFrameBudget
        let shared = StickerStrategy.sharedAnimation(frameBudget: budget)
        let frameBytes = StickerChat.maxPixelSize * StickerChat.maxPixelSize * 4
        // The frames on screen and the first frames of the messages loaded ahead, one being decoded
        // per loading thread: outside the budget by design.
        let onScreen =
            (StickerChat.visibleMessages + StickerChat.prefetchedMessages + ProcessInfo.processInfo.activeProcessorCount)
            * frameBytes
        var checks: [GoalCheck] = []
        for speed in StickerChat.Speed.allCases {
            guard let ours = run(shared, speed) else { continue }
            checks.append(
                GoalCheck(
                    passed: ours.peakDecodedBytes <= budget + onScreen,
                    statement:
                        "stickers, \(speed.label): shared animations peak at \(Format.mebibytes(ours.peakDecodedBytes)) "
                        + "≤ the \(Format.mebibytes(budget)) frame budget + \(Format.mebibytes(onScreen)) of first frames on screen"
                ))
            checks.append(
                GoalCheck(
                    passed: ours.framesOverBudgetByCPU == 0,
                    statement:
                        "stickers, \(speed.label): \(ours.framesOverBudgetByCPU) UI-thread frames over 16.7 ms by CPU time "
                        + "with shared animations (goal 0; by the wall clock \(ours.framesOverBudgetByWall))",
                    needsFullRunSizes: true, isTiming: true))
        }
        if let ours = run(shared, .reading), let buffers = run(.bufferPerView, .reading) {
            checks.append(
                GoalCheck(
                    passed: ours.frameDecodes * 3 <= buffers.frameDecodes,
                    statement:
                        "stickers, reading: \(ours.frameDecodes) frame decodes shared vs \(buffers.frameDecodes) with a "
                        + "buffer per view (goal ≤ 1/3, screens repeating a sticker)"))
            checks.append(
                GoalCheck(
                    passed: ours.lateFrames == 0,
                    statement: "stickers, reading: \(ours.lateFrames) late frames with shared animations (goal 0)",
                    needsFullRunSizes: true, isTiming: true))
        }
        return checks
    }

    private func chart(_ runs: [StickerChat.Run], speed: StickerChat.Speed) -> String {
        let width = 1000.0
        let height = 560.0
        let plot = SVGChart.plot
        let mebibyte = 1_048_576.0
        let series = runs.map { $0.memory.map { Double($0) / mebibyte } }
        let maximum = max(series.flatMap { $0 }.max() ?? 1, 1)
        let frameCount = max(series.map(\.count).max() ?? 2, 2)
        let yAxis = ChartAxis.linear(maximum: maximum, pixelRange: (plot.bottom, plot.top))
        let xAxis = ChartAxis.linear(
            maximum: Double(frameCount - 1), pixelRange: (plot.left, plot.right), endsOnRoundValue: false)
        var svg = SVGChart.opening(
            width: width, height: height, title: "Stickers, \(speed.label): decoded frame bytes alive",
            subtitle: "after each frame at 60 fps; 10 messages on screen, stickers at 240 px")
        svg += SVGChart.axes(x: xAxis, y: yAxis, xTitle: "frame", yTitle: "MiB alive")
        var legendY = plot.top + 4
        for (index, run) in runs.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            let points = series[index].enumerated().map { SVGChart.Point(x: Double($0.offset), y: $0.element) }
            svg.append(SVGChart.polyline(through: points, x: xAxis, y: yAxis, color: color, width: 2, dash: nil))
            svg.append(SVGChart.legendLine(left: plot.right + 20, y: legendY, color: color, width: 2))
            svg.append(
                SVGChart.text(
                    x: plot.right + 50, y: legendY + 4,
                    "\(run.strategy.label): \(Format.mebibytes(run.peakDecodedBytes))", size: 11))
            legendY += 22
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
