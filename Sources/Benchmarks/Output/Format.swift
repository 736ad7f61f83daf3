import Foundation

/// Number formats shared by the table, the goals and the charts.
enum Format {
    static func mebibytes(_ bytes: Int) -> String { mebibytes(Double(bytes)) }

    static func mebibytes(_ bytes: Double) -> String {
        let mebibytes = bytes / 1_048_576
        return String(format: mebibytes >= 100 ? "%.0f" : mebibytes >= 1 ? "%.1f" : "%.3f", mebibytes)
    }

    static func microseconds(_ nanoseconds: Double) -> String {
        String(format: nanoseconds >= 10_000 ? "%.0f" : "%.1f", nanoseconds / 1000)
    }

    static func ratio(_ value: Double) -> String {
        String(format: value >= 10 ? "%.0f×" : "%.2f×", value)
    }

    static func fixed(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
