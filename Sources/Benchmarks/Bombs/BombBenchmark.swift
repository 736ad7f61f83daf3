import Foundation
import WeakImageStore

/// The decompression bombs of issue #34 — an 8 KB palette PNG, a 520 KB Adam7 16-bit PNG and a
/// 400 KB progressive 4:4:4 JPEG, each declaring 8192² pixels — loaded through a store at full
/// size and as 256-pixel thumbnails, one at a time and four at once: the peak each decode
/// declares (``ImageDecoding/decodingPeakBytes(of:maxPixelSize:)``), and the peak resident size
/// each run reached in a fresh process. Memory figures, not timings.
enum BombBenchmark {
    /// One measured run.
    struct Row {
        let bomb: BombProbe.Bomb
        let maxPixelSize: Int?
        let count: Int
        let mode: BombProbe.Mode
        let declaredPeak: Int?
        let measured: (peakRise: Int, refused: Int)?
    }

    /// The thumbnail size measured besides full size.
    static let thumbnailSize = 256
    /// What the four-at-once peak may exceed the cap by: the code and allocator slack of a run,
    /// and the decoded bitmap a finished decode frees as the next one starts.
    static let margin = 64 << 20

    /// Measures every bomb and prints the table.
    static func runSection() -> [Row] {
        let decoder = BitmapDecoder()
        var rows: [Row] = []
        for bomb in BombProbe.Bomb.allCases {
            let file = bomb.file()
            for maxPixelSize in [nil, thumbnailSize] {
                let declared = decoder.decodingPeakBytes(of: file, maxPixelSize: maxPixelSize)
                for (count, mode) in [(1, BombProbe.Mode.async), (4, .async), (4, .sync)] {
                    rows.append(
                        Row(
                            bomb: bomb, maxPixelSize: maxPixelSize, count: count, mode: mode, declaredPeak: declared,
                            measured: BombProbe.measure(bomb, maxPixelSize: maxPixelSize, count: count, mode: mode)))
                }
            }
        }
        print(table(rows) + "\n")
        return rows
    }

    /// The goals: four full-size bombs decoded at once, by synchronous callers and by tasks,
    /// stay within the store's decode cap, and a thumbnail of the interlaced one within a few MiB.
    ///
    /// A task drops its image when it runs again: the tasks' row also shows that the loading
    /// threads leave Swift's cooperative pool free to run them (on Dispatch's global queues, the
    /// tasks waited for the loads and their delivered images added up: 593–720 MiB).
    static func goals(_ rows: [Row]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for mode in [BombProbe.Mode.sync, .async] {
            guard
                let four = rows.first(where: {
                    $0.bomb == .palettePNG && $0.maxPixelSize == nil && $0.count == 4 && $0.mode == mode
                }),
                let measured = four.measured
            else { continue }
            let callers = mode == .sync ? "synchronous callers" : "tasks"
            checks.append(
                GoalCheck(
                    passed: measured.peakRise <= BombProbe.decodeCap + margin && measured.refused == 0,
                    statement:
                        "bombs: four 8192² palette PNGs at once (\(callers)) peak ≤ decode cap + \(Format.mebibytes(margin)) "
                        + "MiB: \(Format.mebibytes(measured.peakRise)) ≤ \(Format.mebibytes(BombProbe.decodeCap)) + "
                        + "\(Format.mebibytes(margin)) MiB, \(measured.refused) refused"))
        }
        if let thumbnail = rows.first(where: {
            $0.bomb == .interlacedPNG && $0.maxPixelSize == thumbnailSize && $0.count == 1
        }), let measured = thumbnail.measured {
            checks.append(
                GoalCheck(
                    passed: measured.peakRise <= 16 << 20 && measured.refused == 0,
                    statement: "bombs: a 256-pixel thumbnail of the Adam7 16-bit 8192² PNG peaks ≤ 16 MiB: "
                        + "\(Format.mebibytes(measured.peakRise)) MiB"))
        }
        return checks
    }

    private static func table(_ rows: [Row]) -> String {
        var lines = [
            "bomb                            size     loads          declared peak  measured peak rise  refused",
            "---------------------------------------------------------------------------------------------------",
        ]
        for row in rows {
            let size = row.maxPixelSize.map { "\($0) px" } ?? "full"
            let declared = row.declaredPeak.map { Format.mebibytes($0) + " MiB" } ?? "unknown"
            let measured = row.measured.map { Format.mebibytes($0.peakRise) + " MiB" } ?? "n/a"
            let refused = row.measured.map { "\($0.refused)/\(row.count)" } ?? "n/a"
            lines.append(
                row.bomb.label.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + size.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + "\(row.count) \(row.mode == .sync ? "threads" : "tasks")".padding(
                        toLength: 15, withPad: " ", startingAt: 0)
                    + declared.padding(toLength: 15, withPad: " ", startingAt: 0)
                    + measured.padding(toLength: 20, withPad: " ", startingAt: 0) + refused)
        }
        lines.append(
            "(a store with one loading thread per load and a \(Format.mebibytes(BombProbe.decodeCap)) MiB decode cap; "
                + "decoders at their defaults, \(Format.mebibytes(PNGDecoder().maximumDecodingBytes)) MiB a decode)")
        return lines.joined(separator: "\n")
    }
}
